import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import type { ConfigTree } from "../../../../harness/conf/load-tree.ts";
import { inTree, TEST_USER, treeStubs } from "../../../../harness/plan/tree/tree-stubs.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const MIME = "/usr/local/apache2/conf/mime.types";
const MAGIC = "/usr/local/apache2/conf/magic";

function stubsOf(tree: ConfigTree, logFiles: string[] = []) {
  const config = evaluateTree(tree, { version: httpdVersion("2.4.68"), defines: [], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c"] });
  return treeStubs(config, { tree: tree.source, staged: new Set(), imageMimeTypes: MIME, imageMagic: MAGIC, logFiles: logFiles.map((path) => ({ path, file: "conf/httpd.conf", line: 1 })) });
}

const stubsFor = (main: string, logFiles: string[] = []) => stubsOf(memoryTree({ "conf/httpd.conf": main }), logFiles);

describe("treeStubs", () => {
  it("makes a document root the tree lacks, with an index page naming the virtual host", () => {
    const result = stubsFor("Listen 80\n<VirtualHost *:80>\nServerName www.example.test\nDocumentRoot /srv/www/site\n</VirtualHost>\n");
    expect(result.stubs).toContainEqual(expect.objectContaining({ kind: "document-root", target: "/srv/www/site", file: "conf/httpd.conf", line: 4 }));
    const page = result.files.find((f) => f.path === "/srv/www/site/index.html");
    expect(page?.content).toEqual({ text: expect.stringContaining("<h1>www.example.test</h1>") });
    expect(result.setup[0]).toBe("mkdir -p '/srv/www/site'");
  });

  it("names the main server on the index page of the main document root", () => {
    const result = stubsFor('Listen 80\nDocumentRoot "/data/web"\n');
    expect(result.files.find((f) => f.path === "/data/web/index.html")?.content).toEqual({ text: expect.stringContaining("<h1>the main server</h1>") });
  });

  it("makes the certificate, key and CA the SSL directives name, issued by the harness (the key 0600)", () => {
    const result = stubsFor(
      "Listen 443\n<VirtualHost *:443>\nSSLEngine on\nSSLCertificateFile /etc/pki/site.crt\nSSLCertificateKeyFile /etc/pki/private/site.key\nSSLCACertificateFile /etc/pki/ca.pem\n</VirtualHost>\n",
    );
    expect(result.files).toEqual(
      expect.arrayContaining([
        { path: "/etc/pki/site.crt", content: { generated: "server-certificate" } },
        { path: "/etc/pki/private/site.key", content: { generated: "server-key" }, mode: 0o600 },
        { path: "/etc/pki/ca.pem", content: { generated: "ca-certificate" } },
      ]),
    );
    expect(result.stubs.filter((s) => s.kind !== "directory").map((s) => [s.kind, s.target, s.line])).toEqual([
      ["certificate", "/etc/pki/site.crt", 4],
      ["private-key", "/etc/pki/private/site.key", 5],
      ["ca-certificate", "/etc/pki/ca.pem", 6],
    ]);
    expect(result.setup[0]).toBe("mkdir -p '/etc/pki' '/etc/pki/private'");
  });

  it("writes a password file holding the test user in {SHA} format: {SHA} + base64(sha1(password))", () => {
    const result = stubsFor('Listen 80\n<Location /private>\nAuthType Basic\nAuthName "x"\nAuthUserFile /etc/web/htpasswd\nRequire valid-user\n</Location>\n');
    const file = result.files.find((f) => f.path === "/etc/web/htpasswd");
    const expected = `${TEST_USER.user}:{SHA}${createHash("sha1").update(TEST_USER.password).digest("base64")}\n`;
    expect(file?.content).toEqual({ text: expected });
    // The value itself (printf harness-password | openssl sha1 -binary | base64), so a change shows here.
    expect(expected).toBe("harness:{SHA}dJZ9s9iXn/Zx68E1bAQR+8tHehQ=\n");
  });

  it("writes a group file putting the test user in harness-group", () => {
    const result = stubsFor("Listen 80\nAuthGroupFile conf/groups\n");
    expect(result.files.find((f) => f.path === "/usr/local/apache2/conf/groups")?.content).toEqual({ text: "harness-group: harness\n" });
  });

  it("copies the image's own mime.types to a TypesConfig the tree lacks, unless one is there", () => {
    const result = stubsFor("Listen 80\nTypesConfig /etc/mime.types\n");
    expect(result.setup).toContain(`[ -e '/etc/mime.types' ] || cp '${MIME}' '/etc/mime.types'`);
    expect(result.stubs).toContainEqual(expect.objectContaining({ kind: "image-file", target: "/etc/mime.types", line: 2 }));
    // /etc is in every image: no directory made for it.
    expect(result.setup.some((line) => line.startsWith("mkdir"))).toBe(false);
  });

  it("copies the image's own magic, not its mime.types, to a MIMEMagicFile the tree lacks (RHEL's conf/magic)", () => {
    const result = stubsFor('ServerRoot "/etc/httpd"\nListen 80\nMIMEMagicFile conf/magic\nTypesConfig /etc/mime.types\n');
    expect(result.setup).toContain(`[ -e '/etc/httpd/conf/magic' ] || cp '${MAGIC}' '/etc/httpd/conf/magic'`);
    expect(result.setup).toContain(`[ -e '/etc/mime.types' ] || cp '${MIME}' '/etc/mime.types'`);
    expect(result.stubs).toContainEqual(expect.objectContaining({ kind: "image-file", target: "/etc/httpd/conf/magic", line: 3, note: "a copy of the image's own magic" }));
    expect(result.stubs).toContainEqual(expect.objectContaining({ kind: "image-file", target: "/etc/mime.types", note: "a copy of the image's own mime.types" }));
  });

  it("makes nothing for a MIMEMagicFile naming the image's own magic", () => {
    const result = stubsFor("Listen 80\nMIMEMagicFile conf/magic\n");
    expect(result.stubs.filter((s) => s.kind === "image-file")).toEqual([]);
  });

  it("adds the users and groups httpd switches to, each once, when the image lacks them", () => {
    const result = stubsFor("Listen 80\nUser www-data\nGroup www-data\n<VirtualHost *:80>\nUser www-data\n</VirtualHost>\nUser #33\n");
    expect(result.stubs.filter((s) => s.kind === "user" || s.kind === "group").map((s) => [s.kind, s.target])).toEqual([
      ["group", "www-data"],
      ["user", "www-data"],
    ]);
    expect(result.setup).toEqual([
      "grep -q '^www-data:' /etc/group || echo 'www-data:x:7001:' >> /etc/group",
      "grep -q '^www-data:' /etc/passwd || echo 'www-data:x:7002:65534::/nonexistent:/bin/false' >> /etc/passwd",
    ]);
  });

  it("makes nothing for files and directories the tree holds", () => {
    const tree = memoryTree({
      "conf/httpd.conf":
        "Listen 443\nDocumentRoot htdocs\nSSLCertificateFile conf/server.crt\nSSLCertificateKeyFile conf/server.key\nAuthUserFile conf/htpasswd\nTypesConfig conf/mime.types\n",
      "htdocs/index.html": "<p>mine</p>\n",
      "conf/server.crt": "cert\n",
      "conf/server.key": "key\n",
      "conf/htpasswd": "me:{SHA}x\n",
      "conf/mime.types": "text/html html\n",
    });
    expect(stubsOf(tree)).toEqual({ files: [], setup: [], stubs: [] });
  });

  it("makes the directories of the logs followed, the pid file and the lock files", () => {
    const result = stubsFor("Listen 80\nPidFile /var/run/web/httpd.pid\nMutex file:/var/lock/web default\n", ["/var/log/web/error.log"]);
    expect(result.stubs.map((s) => [s.kind, s.target])).toEqual([
      ["directory", "/var/run/web"],
      ["directory", "/var/lock/web"],
      ["directory", "/var/log/web"],
    ]);
  });
});

describe("inTree", () => {
  const tree = memoryTree({ "conf/httpd.conf": "", "htdocs/a.html": "" }, { links: { "logs": "var/log" } });

  it("finds a server path's file, directory or link through the mount", () => {
    expect(inTree(tree.source, "/usr/local/apache2/htdocs/a.html")).toBe("file");
    expect(inTree(tree.source, "/usr/local/apache2/htdocs/")).toBe("directory");
    expect(inTree(tree.source, "/usr/local/apache2/logs")).toBe("file");
  });

  it("finds nothing outside the mount or missing from the tree", () => {
    expect(inTree(tree.source, "/etc/passwd")).toBeNull();
    expect(inTree(tree.source, "/usr/local/apache2x/conf/httpd.conf")).toBeNull();
    expect(inTree(tree.source, "/usr/local/apache2/conf/missing.conf")).toBeNull();
  });
});
