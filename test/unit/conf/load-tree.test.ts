import { mkdir, mkdtemp, realpath, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";

// Every path the loader touches on the host, to show it never leaves the tree it was given.
const touched: string[] = [];
const read: string[] = [];
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const record =
    <A extends unknown[], R>(fn: (path: string, ...rest: A) => R) =>
    (path: string, ...rest: A): R => {
      touched.push(String(path));
      return fn(path, ...rest);
    };
  return {
    ...real,
    readFileSync: record((path: string, ...rest: unknown[]) => {
      read.push(path);
      return (real.readFileSync as (path: string, ...rest: unknown[]) => Buffer)(path, ...rest);
    }),
    readdirSync: record(real.readdirSync as (path: string, ...rest: unknown[]) => unknown),
    lstatSync: record(real.lstatSync as (path: string, ...rest: unknown[]) => unknown),
    statSync: record(real.statSync as (path: string, ...rest: unknown[]) => unknown),
    readlinkSync: record(real.readlinkSync as (path: string, ...rest: unknown[]) => string),
    realpathSync: record(real.realpathSync as (path: string, ...rest: unknown[]) => string),
  };
});

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "load-tree-")));
  touched.length = 0;
  read.length = 0;
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(files: Record<string, string>, base = root): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), text);
  }
}

const evaluate24 = (tree: Awaited<ReturnType<typeof loadTree>>) =>
  evaluateTree(tree, { version: httpdVersion("2.4.62"), defines: [], environment: {}, builtinModules: ["core.c"] });

describe("loadTree", () => {
  test("reads a directory recursively, with modes, and tells an official layout by conf/httpd.conf and its ServerRoot", async () => {
    await write({ "conf/httpd.conf": 'ServerRoot "/opt/apache"\nInclude conf/extra/a.conf\n', "conf/extra/a.conf": "Listen 81\n", "cgi-bin/run.cgi": "#!/bin/sh\n" });
    const { chmod } = await import("node:fs/promises");
    await chmod(join(root, "cgi-bin/run.cgi"), 0o755);
    const tree = await loadTree(root);
    expect(tree.layout).toBe("official");
    expect(tree.mainFile).toBe("conf/httpd.conf");
    expect(tree.source.mount).toBe("/opt/apache");
    expect([...tree.source.files.keys()].sort()).toEqual(["cgi-bin/run.cgi", "conf/extra/a.conf", "conf/httpd.conf"]);
    expect([...tree.source.directories].sort()).toEqual(["", "cgi-bin", "conf", "conf/extra"]);
    expect(tree.source.modes.get("cgi-bin/run.cgi")).toBe(0o755);
    expect(tree.source.files.get("conf/extra/a.conf")!.toString()).toBe("Listen 81\n");
    expect(tree.problems).toEqual([]);
  });

  test("one file is a fragment whose main file is that file", async () => {
    await write({ "site.conf": "<VirtualHost *:80>\n</VirtualHost>\n" });
    const tree = await loadTree(join(root, "site.conf"));
    expect(tree).toMatchObject({ layout: "fragment", mainFile: "site.conf" });
    expect(tree.source.mount).toBe("/usr/local/apache2");
    expect([...tree.source.files.keys()]).toEqual(["site.conf"]);
  });

  test("a missing path is a HARNESS_CONFIG_FILE error with a position and a hint", async () => {
    const error = await loadTree(join(root, "nope")).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "HARNESS_CONFIG_FILE", position: { file: join(root, "nope"), line: 1, column: 1 } });
    expect((error as { hint: string }).hint).toMatch(/configuration directory/);
  });

  test("more files than the limit stop the walk before any file is read", async () => {
    await write({ "a.conf": "", "b.conf": "", "c.conf": "", "d.conf": "" });
    const error = await loadTree(root, { limits: { maxFiles: 3, maxFileBytes: 100 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "HARNESS_CONFIG_FILE", message: `${root} holds more than 3 files` });
    expect(read).toEqual([]);
  });

  test("links count toward the file limit", async () => {
    await write({ "a.conf": "" });
    for (const name of ["l1", "l2", "l3"]) await symlink("a.conf", join(root, name));
    const error = await loadTree(root, { limits: { maxFiles: 3, maxFileBytes: 100 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "HARNESS_CONFIG_FILE", message: `${root} holds more than 3 files` });
  });

  test("a file over the size limit is refused before it is read", async () => {
    await write({ "conf/httpd.conf": "" });
    await truncate(join(root, "conf/httpd.conf"), 11 * 1024 * 1024);
    const error = await loadTree(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "HARNESS_CONFIG_FILE", position: { file: join(root, "conf/httpd.conf"), line: 1, column: 1 } });
    expect((error as Error).message).toMatch(/11534336 bytes, more than the 10485760/);
    expect(read).toEqual([]);
  });

  test("links are resolved inside the tree: relative ones against their directory, absolute ones through the mount", async () => {
    await write({
      "apache2.conf": "IncludeOptional mods-enabled/*.load\nInclude sites-enabled/\n",
      "ports.conf": "Listen 80\n",
      "mods-available/ssl.load": "LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so\n",
      "sites-available/default.conf": "ServerName d\n",
    });
    await mkdir(join(root, "mods-enabled"));
    await mkdir(join(root, "sites-enabled"));
    await symlink("../mods-available/ssl.load", join(root, "mods-enabled/ssl.load"));
    await symlink("/etc/apache2/sites-available/default.conf", join(root, "sites-enabled/000-default.conf"));
    const tree = await loadTree(root);
    expect(tree).toMatchObject({ layout: "debian", mainFile: "apache2.conf" });
    expect(tree.source.mount).toBe("/etc/apache2");
    expect(Object.fromEntries(tree.source.links)).toEqual({
      "mods-enabled/ssl.load": "mods-available/ssl.load",
      "sites-enabled/000-default.conf": "sites-available/default.conf",
    });
    const config = evaluate24(tree);
    expect(config.nodes.map((n) => n.name)).toEqual(["LoadModule", "ServerName"]);
    // Named by the path httpd opens, the link's, as its DUMP_INCLUDES and -S print it; read from the target.
    expect(config.files).toEqual(["apache2.conf", "mods-enabled/ssl.load", "sites-enabled/000-default.conf"]);
    expect(config.nodes[1]!.span).toMatchObject({ file: "sites-enabled/000-default.conf", line: 1 });
  });

  test("links leading out of the tree are recorded, never followed, and named when the config uses them", async () => {
    await write({ "conf/httpd.conf": "Include /etc/shadow\nInclude conf/root/etc/shadow\nInclude conf/up/passwd\nInclude conf/shadow.conf\n" });
    await symlink("/", join(root, "conf/root"));
    await symlink("../../../../../../../../etc", join(root, "conf/up"));
    await symlink("/etc/shadow", join(root, "conf/shadow.conf"));
    const tree = await loadTree(root);
    expect(tree.source.links.get("conf/root")).toBe("/");
    expect(tree.source.links.get("conf/shadow.conf")).toBe("/etc/shadow");
    expect(tree.source.links.get("conf/up")!.startsWith("../")).toBe(true);
    const config = evaluate24(tree);
    expect(config.files).toEqual(["conf/httpd.conf"]);
    expect(config.problems.map((p) => [p.severity, p.line, p.message.replace(/ \(.*\)/, "")])).toEqual([
      ["error", 1, "Include: /etc/shadow leads out of the configuration tree; it was not read"],
      ["error", 2, "Include: /usr/local/apache2/conf/root/etc/shadow leads out of the configuration tree; it was not read"],
      ["error", 3, "Include: /usr/local/apache2/conf/up/passwd leads out of the configuration tree; it was not read"],
      ["error", 4, "Include: /usr/local/apache2/conf/shadow.conf leads out of the configuration tree; it was not read"],
    ]);
    expect(config.problems[1]!.message).toContain("link conf/root -> /");
    // Nothing outside the given directory was touched on the host.
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.filter((path) => path !== root && !path.startsWith(`${root}/`))).toEqual([]);
  });

  test("a tree holding the file-system form maps absolute paths into the tree", async () => {
    await write({
      "etc/apache2/apache2.conf": "Include /etc/phpmyadmin/apache.conf\nInclude ports.conf\n",
      "etc/apache2/ports.conf": "Listen 80\n",
      "etc/apache2/envvars": "export APACHE_RUN_USER=www-data\n",
      "etc/phpmyadmin/apache.conf": "Alias /phpmyadmin /usr/share/phpmyadmin\n",
    });
    const tree = await loadTree(root);
    expect(tree).toMatchObject({ layout: "debian", mainFile: "etc/apache2/apache2.conf", serverRoot: "/etc/apache2" });
    expect(tree.source.mount).toBe("/");
    const config = evaluate24(tree);
    expect(config.files).toEqual(["etc/apache2/apache2.conf", "etc/phpmyadmin/apache.conf", "etc/apache2/ports.conf"]);
    expect(config.serverRoot).toBe("/etc/apache2");
    expect(config.environment).toMatchObject({ APACHE_RUN_USER: "www-data" });
  });
});

describe("fixture trees", () => {
  const fixtures = join(import.meta.dirname, "../../fixtures/conf/trees");

  test("a Debian tree: envvars, enabled links, modules loaded before the sites that test them", async () => {
    const tree = await loadTree(join(fixtures, "debian-site"));
    expect(tree).toMatchObject({ layout: "debian", mainFile: "apache2.conf", problems: [] });
    const config = evaluate24(tree);
    expect(config.files).toEqual([
      "apache2.conf",
      "mods-enabled/ssl.load",
      "mods-enabled/ssl.conf",
      "ports.conf",
      "conf-enabled/hardening.conf",
      "sites-enabled/example.conf",
    ]);
    const byName = (name: string) => config.nodes.filter((n) => n.name === name).map((n) => n.args.join(" "));
    expect(byName("User")).toEqual(["www-data"]);
    expect(byName("PidFile")).toEqual(["/var/run/apache2/apache2.pid"]);
    expect(byName("Listen")).toEqual(["80", "443"]);
    expect(byName("VirtualHost")).toEqual(["*:80", "*:443"]);
    const sslVhost = config.nodes.filter((n) => n.name === "VirtualHost")[1]!;
    expect(sslVhost.span).toMatchObject({ file: "sites-enabled/example.conf", line: 7 });
    expect(sslVhost.guards.map((g) => g.condition)).toEqual(["mod_ssl.c"]);
    expect(config.problems).toEqual([]);
  });

  test("an official dual-syntax tree reads its 2.4 branch on 2.4 and its 2.2 branch on 2.2", async () => {
    const tree = await loadTree(join(fixtures, "official-dual"));
    expect(tree).toMatchObject({ layout: "official", mainFile: "conf/httpd.conf" });
    const directoryBody = (family: string) => {
      const config = evaluateTree(tree, { version: httpdVersion(family), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c"] });
      const directory = config.nodes.find((n) => n.kind === "section" && n.name === "Directory");
      return directory?.kind === "section" ? directory.children.map((n) => `${n.name} ${n.args.join(" ")}`) : [];
    };
    expect(directoryBody("2.4.62")).toEqual(["Require all granted"]);
    expect(directoryBody("2.2.34")).toEqual(["Order allow,deny", "Allow from all"]);
  });
});
