import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ConfigTree, loadTree } from "../../../../harness/conf/load-tree.ts";
import type { PlannedFile } from "../../../../harness/plan/scenario-plan.ts";
import { BASELINE, CANDIDATE } from "../../../../harness/plan/side.ts";
import { planTreeSide } from "../../../../harness/plan/tree/plan-tree-side.ts";
import { treeScenario, writtenFor } from "../../../../harness/plan/tree/tree-scenario.ts";
import type { TreeRef } from "../../../../harness/scenario/scenario.ts";
import { officialDefaults } from "../../../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const CONFIGS = fileURLToPath(new URL("../../../../configs/", import.meta.url));
const MODULES = "/usr/local/apache2/modules";
const load = (name: string): string => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`;

/** `plan` without an engine: the official layout's defaults of 2.2.34 and 2.4.68 (offline-facts.ts). */
const OFFLINE = { "2.2": officialDefaults("httpd:2.2.34", httpdVersion("2.2.34")), "2.4": officialDefaults("httpd:2.4", httpdVersion("2.4.68")) };

async function planned(tree: ConfigTree, path: string, family: "2.2" | "2.4") {
  const ref: TreeRef = { at: { file: path, line: 1, column: 1 }, path, layout: null, defines: [], writtenFor: writtenFor(tree, []) };
  const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref } });
  return planTreeSide(scenario, { side: family === "2.2" ? BASELINE : CANDIDATE, inspection: OFFLINE[family], ref, tree });
}

function textOf(files: readonly PlannedFile[], path: string): string | undefined {
  const content = files.find((f) => f.path === path)?.content;
  return content && "text" in content ? content.text : undefined;
}

const lineCount = (text: string): number => text.split("\n").length;

describe.each(["2.2", "2.4"] as const)("planTreeSide: configs/debian-ssl on %s (offline facts)", async (family) => {
  const tree = await loadTree(`${CONFIGS}debian-ssl`);
  const plan = await planned(tree, `${CONFIGS}debian-ssl`, family);

  it("stages the tree at /etc/apache2 and starts httpd on apache2.conf there with -d and -f", async () => {
    expect(plan.config.path).toBe("/etc/apache2/apache2.conf");
    expect(plan.config.text).toBe(await readFile(`${CONFIGS}debian-ssl/apache2.conf`, "utf8"));
    expect(plan.httpd.args.slice(0, 4)).toEqual(["-d", "/etc/apache2", "-f", "/etc/apache2/apache2.conf"]);
    expect(plan.tree).toMatchObject({ layout: "debian", mount: "/etc/apache2", mainFile: "/etc/apache2/apache2.conf", problems: [] });
  });

  it("stages every file of the tree at the mount with as many lines as it has", () => {
    for (const relative of tree.source.files.keys()) {
      if (relative === "apache2.conf") continue;
      const staged = textOf(plan.files, `/etc/apache2/${relative}`);
      expect(staged, relative).toBeDefined();
      expect(lineCount(staged!), relative).toBe(lineCount(tree.source.files.get(relative)!.toString("utf8")));
    }
  });

  it("stages each a2enmod/a2ensite link with its target's content, edited where httpd reads it: at the link's path", () => {
    expect(textOf(plan.files, "/etc/apache2/sites-enabled/000-default")).toBe(textOf(plan.files, "/etc/apache2/sites-available/default"));
    expect(textOf(plan.files, "/etc/apache2/mods-enabled/alias.load")).toBe(`${load("alias")}\n`);
    // httpd reads mods-enabled/; the mods-available/ file itself is never included and stays as written.
    expect(textOf(plan.files, "/etc/apache2/mods-available/authz_default.load")).toBe("LoadModule authz_default_module /usr/lib/apache2/modules/mod_authz_default.so\n");
  });

  it("passes the variables envvars exports, as apache2ctl does", () => {
    expect(plan.httpd.environment).toEqual({
      APACHE_CONFDIR: "/etc/apache2",
      APACHE_ENVVARS: "/etc/apache2/envvars",
      APACHE_RUN_USER: "www-data",
      APACHE_RUN_GROUP: "www-data",
      APACHE_PID_FILE: "/var/run/apache2.pid",
      APACHE_RUN_DIR: "/var/run/apache2",
      APACHE_LOCK_DIR: "/var/lock/apache2",
      APACHE_LOG_DIR: "/var/log/apache2",
      LANG: "C",
    });
  });

  it("listens on 80 and 443 with TLS, follows the files the logs go to, and stubs the snakeoil certificate and key", () => {
    expect(plan.ports).toEqual([80, 443]);
    expect(plan.listenTls).toBe(true);
    expect(plan.logs).toEqual({ error: ["/var/log/apache2/error.log"], access: ["/var/log/apache2/access.log", "/var/log/apache2/ssl_access.log"], accessLogged: true, mergeable: true, formats: ['%h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"'] });
    expect(plan.files).toEqual(
      expect.arrayContaining([
        { path: "/etc/ssl/certs/ssl-cert-snakeoil.pem", content: { generated: "server-certificate" } },
        { path: "/etc/ssl/private/ssl-cert-snakeoil.key", content: { generated: "server-key" }, mode: 0o600 },
      ]),
    );
  });

  it(`loads what Debian's ${family === "2.2" ? "2.2 build" : "2.2 build and 2.2's core"} had with -C`, () => {
    const expected =
      family === "2.2"
        ? ["log_config", "logio"]
        : ["log_config", "logio", "access_compat", "socache_shmcb", "mpm_prefork", "unixd", "authn_core", "filter"];
    expect(plan.httpd.args.slice(4)).toEqual(expected.flatMap((name) => ["-C", load(name)]));
  });

  it(`carries mod_authz_default to ${family === "2.2" ? "the image's own file" : "mod_authz_core"}`, () => {
    expect(textOf(plan.files, "/etc/apache2/mods-enabled/authz_default.load")).toBe(`${load(family === "2.2" ? "authz_default" : "authz_core")}\n`);
  });
});

describe.each(["2.2", "2.4"] as const)("planTreeSide: configs/rhel-balancer on %s (offline facts)", async (family) => {
  const tree = await loadTree(`${CONFIGS}rhel-balancer`);
  const plan = await planned(tree, `${CONFIGS}rhel-balancer`, family);
  const main = plan.config.text.split("\n");
  const source = tree.source.files.get("conf/httpd.conf")!.toString("utf8");

  it("stages the tree at /etc/httpd, with no environment (a RHEL tree has no envvars file)", () => {
    expect(plan.config.path).toBe("/etc/httpd/conf/httpd.conf");
    expect(plan.httpd.environment).toEqual({});
    expect(plan.files.map((f) => f.path).filter((p) => p.startsWith("/etc/httpd/"))).toEqual([
      "/etc/httpd/conf.d/balancer.conf",
      "/etc/httpd/conf.d/cache.conf",
      "/etc/httpd/conf.d/status.conf",
      "/etc/httpd/conf.d/welcome.conf",
    ]);
  });

  it("keeps the main file's line count and points its module lines at the image", () => {
    expect(main).toHaveLength(lineCount(source));
    expect(main[56]).toBe(load("auth_basic"));
  });

  it("leaves the links out of the tree (logs, modules, run) unstaged and makes the directories they stood for", () => {
    expect(plan.files.some((f) => /^\/etc\/httpd\/(logs|modules|run)\b/.test(f.path))).toBe(false);
    expect(plan.setup[0]).toContain("'/etc/httpd/run'");
    expect(plan.setup[0]).toContain("'/etc/httpd/logs'");
    expect(plan.logs?.error).toEqual(["/etc/httpd/logs/error_log"]);
  });

  if (family === "2.2") {
    it("starts with -d and -f only: RHEL's 2.2 build compiles no module in that the tree leaves out", () => {
      expect(plan.httpd.args).toEqual(["-d", "/etc/httpd", "-f", "/etc/httpd/conf/httpd.conf"]);
      expect(main[104]).toBe(load("mem_cache"));
    });
  } else {
    it("carries 2.2's balancer, cache and auth modules to their 2.4 successors", () => {
      expect(main[59]).toBe(load("authn_core"));
      expect(main[62]).toBe("# LoadModule authn_default_module modules/mod_authn_default.so  (httpd-upgrade-harness: authn_core is loaded already)");
      expect(main[68]).toBe(load("authz_core"));
      expect(main[103]).toBe(load("cache_disk"));
      expect(main[104]).toBe("# LoadModule mem_cache_module modules/mod_mem_cache.so  (httpd-upgrade-harness: no such module in 2.4)");
      expect(plan.httpd.args.slice(4)).toEqual(
        ["access_compat", "slotmem_shm", "lbmethod_byrequests", "lbmethod_bytraffic", "lbmethod_bybusyness", "mpm_prefork", "unixd", "filter"].flatMap((name) => ["-C", load(name)]),
      );
    });
  }
});

describe("planTreeSide: what a 2.4 tree and a CRLF tree get", () => {
  it("keeps a CRLF file's line ends and line count when a module line is edited", async () => {
    const tree = memoryTree({ "conf/httpd.conf": "Listen 80\r\nInclude conf/mods.conf\r\n", "conf/mods.conf": "# mods\r\nLoadModule rewrite_module /opt/httpd/mod_rewrite.so\r\nLoadModule mem_cache_module modules/mod_mem_cache.so\r\n" });
    const plan = await planned(tree, "/t", "2.4");
    expect(textOf(plan.files, "/usr/local/apache2/conf/mods.conf")).toBe(
      `# mods\r\n${load("rewrite")}\r\n# LoadModule mem_cache_module modules/mod_mem_cache.so  (httpd-upgrade-harness: no such module in 2.4)\r\n`,
    );
  });

  it("gives a tree written for 2.4 no -C line and changes none of its module lines on 2.4", async () => {
    const tree = await loadTree(fileURLToPath(new URL("../../../fixtures/plan/tree/official-24", import.meta.url)));
    const plan = await planned(tree, "/t", "2.4");
    expect(plan.httpd.args).toEqual(["-d", "/usr/local/apache2", "-f", "/usr/local/apache2/conf/httpd.conf"]);
    expect(plan.tree?.adaptations).toEqual([]);
    expect(plan.ports).toEqual([8080]);
  });

  it("comments out on 2.4 a module line the image lacks that only the -C MPM makes visible (<IfModule prefork.c>)", async () => {
    // RHEL 6's php.conf shape: 2.2 has prefork compiled in, 2.4 gets mod_mpm_prefork (source prefork.c) with -C,
    // so httpd reads the LoadModule inside on both and refuses it where the file is missing.
    const tree = memoryTree({
      "conf/httpd.conf": "Listen 80\nInclude conf/php.conf\n",
      "conf/php.conf": "<IfModule prefork.c>\n  LoadModule php5_module modules/libphp5.so\n</IfModule>\n<IfModule worker.c>\n  LoadModule php5_module modules/libphp5-zts.so\n</IfModule>\n",
    });
    const commented = "  # LoadModule php5_module modules/libphp5.so  (httpd-upgrade-harness: libphp5.so is not in this image)";
    for (const family of ["2.2", "2.4"] as const) {
      const plan = await planned(tree, "/t", family);
      expect(textOf(plan.files, "/usr/local/apache2/conf/php.conf")?.split("\n")[1], family).toBe(commented);
      expect(plan.tree?.adaptations.filter((a) => a.kind === "module-absent").map((a) => [a.file, a.line]), family).toEqual([["conf/php.conf", 2]]);
    }
  });

  it("makes the tree's empty directories, so an Include of one reads nothing on 2.2 instead of failing", async () => {
    // /etc/httpd/vhosts.d with no site yet: 2.2 reads `Include vhosts.d/*.conf` as nothing; a directory that
    // is not there at all is 'Include directory ... not found' on 2.2, a different failure than the tree's.
    const tree = memoryTree({ "conf/httpd.conf": 'ServerRoot "/etc/httpd"\nListen 80\nInclude vhosts.d/*.conf\n' }, { mount: "/etc/httpd", layout: "rhel", directories: ["vhosts.d", "conf.d/empty/deeper"] });
    for (const family of ["2.2", "2.4"] as const) {
      const plan = await planned(tree, "/t", family);
      expect(plan.setup, family).toContain("mkdir -p '/etc/httpd/vhosts.d' '/etc/httpd/conf.d/empty/deeper'");
      // The tree's own directories, not made up: no stub names them.
      expect(plan.tree?.stubs.map((s) => s.target), family).not.toContain("/etc/httpd/vhosts.d");
    }
  });

  it("reads a fragment's <IfModule> sections with the modules the image's stock config loads", async () => {
    // phpMyAdmin's snippet guards AuthUserFile with <IfModule mod_authn_file.c>; the stock config it is appended
    // to loads mod_authn_file, so httpd reads the line and the password file has to be there.
    const tree = memoryTree(
      { "etc/app/apache.conf": '<Directory /usr/share/app/setup>\n  <IfModule mod_authn_file.c>\n    AuthType Basic\n    AuthName "setup"\n    AuthUserFile /etc/app/htpasswd.setup\n  </IfModule>\n  Require valid-user\n</Directory>\n' },
      { layout: "fragment", mount: "/", mainFile: "etc/app/apache.conf" },
    );
    const ref: TreeRef = { at: { file: "/t", line: 1, column: 1 }, path: "/t", layout: null, defines: [], writtenFor: "2.2" };
    const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref } });
    const stock = `ServerRoot "/usr/local/apache2"\nLoadModule authn_file_module modules/mod_authn_file.so\n#LoadModule rewrite_module modules/mod_rewrite.so\n`;
    const plan = planTreeSide(scenario, { side: BASELINE, inspection: { ...OFFLINE["2.2"], stockConfig: stock }, ref, tree });
    expect(plan.tree?.stubs).toContainEqual(expect.objectContaining({ kind: "password-file", target: "/etc/app/htpasswd.setup", line: 5 }));
    // A stock config not known (plan from defaults): nothing is assumed loaded.
    const offline = planTreeSide(scenario, { side: BASELINE, inspection: OFFLINE["2.2"], ref, tree });
    expect(offline.tree?.stubs.filter((s) => s.kind === "password-file")).toEqual([]);
  });

  it("gives a fragment's document root one index page on both sides, unless the fragment holds its own", async () => {
    // The 2.2 and 2.4 images' sample pages differ ('It works!' in two markups): a snippet with an Alias only
    // would otherwise be judged on them.
    const snippet = memoryTree({ "etc/tool/apache.conf": "Alias /tool /usr/share/tool\n", "usr/share/tool/index.html": "<p>tool</p>\n" }, { layout: "fragment", mount: "/", mainFile: "etc/tool/apache.conf" });
    const pages = [];
    for (const family of ["2.2", "2.4"] as const) {
      const plan = await planned(snippet, "/t", family);
      pages.push(textOf(plan.files, "/usr/local/apache2/htdocs/index.html"));
      expect(plan.tree?.stubs, family).toContainEqual(expect.objectContaining({ kind: "document-root", target: "/usr/local/apache2/htdocs", file: "etc/tool/apache.conf", line: 1 }));
    }
    expect(pages[0]).toContain("httpd-upgrade-harness");
    expect(pages[1]).toBe(pages[0]);
    const own = memoryTree({ "app.conf": "Listen 8080\n", "htdocs/index.html": "<p>mine</p>\n" }, { layout: "fragment", mainFile: "app.conf" });
    const plan = await planned(own, "/t", "2.4");
    expect(textOf(plan.files, "/usr/local/apache2/htdocs/index.html")).toBe("<p>mine</p>\n");
    expect(plan.tree?.stubs.filter((s) => s.kind === "document-root")).toEqual([]);
  });

  it("makes the directories a fragment's own log files are in, as for a whole tree", async () => {
    // A Debian site file given alone: its ErrorLog under /var/log/apache2, which the official images lack (2.4's
    // config test stops on AH02291 otherwise, on both sides alike).
    const site = memoryTree(
      { "xjl.conf": "<VirtualHost *:80>\n  ServerName xjl.example.com\n  ErrorLog /var/log/apache2/xjl_error.log\n  CustomLog /var/log/apache2/xjl_access.log combined\n</VirtualHost>\n" },
      { layout: "fragment", mainFile: "xjl.conf" },
    );
    for (const family of ["2.2", "2.4"] as const) {
      const plan = await planned(site, "/t", family);
      expect(plan.tree?.stubs, family).toContainEqual(expect.objectContaining({ kind: "directory", target: "/var/log/apache2", file: "xjl.conf", line: 3 }));
      expect(plan.setup.join("\n"), family).toMatch(/mkdir -p .*\/var\/log\/apache2/);
    }
  });

  it("passes the -D names of the tree's reference to httpd", async () => {
    const tree = memoryTree({ "conf/httpd.conf": "Listen 80\n" });
    const ref: TreeRef = { at: { file: "/t", line: 1, column: 1 }, path: "/t", layout: null, defines: ["SSL"], writtenFor: "2.4" };
    const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref } });
    const plan = planTreeSide(scenario, { side: CANDIDATE, inspection: OFFLINE["2.4"], ref, tree });
    expect(plan.httpd.args).toEqual(["-d", "/usr/local/apache2", "-f", "/usr/local/apache2/conf/httpd.conf", "-D", "SSL"]);
  });
});
