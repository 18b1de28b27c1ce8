import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { discoverConfigs } from "../../../harness/fleet/discover-configs.ts";
import { refusal } from "../../helpers/refusal.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** A temp dir holding `files` (path → text). */
function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "fleet-discover-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const MAIN = "ServerRoot /usr/local/apache2\nListen 80\n";

async function labels(dirs: string[], cwd: string, exclude?: { base: string; globs: string[] }): Promise<string[]> {
  return (await discoverConfigs(dirs, exclude ? { cwd, exclude } : { cwd })).configs.map((config) => config.label);
}

describe("discoverConfigs", () => {
  it("finds exactly the twelve sample trees under configs/, labelled configs/<name>, in label order", async () => {
    const found = (await discoverConfigs(["configs"], { cwd: REPO })).configs;
    expect(found.map((c) => c.label)).toEqual([
      "configs/app-htaccess",
      "configs/debian-ssl",
      "configs/docshelf-rewrite",
      "configs/hostwatch-cgi",
      "configs/https-origin-proxy",
      "configs/name-vhosts",
      "configs/official-stock",
      "configs/queuewatch-cgi",
      "configs/rhel-balancer",
      "configs/staging-lock",
      "configs/static-expires",
      "configs/tool-status-alias",
    ]);
    expect(found[0]!.path).toBe(join(REPO, "configs/app-htaccess"));
  });

  it("takes an application's .htaccess as a one-file config, and names every other entry it passes over with why", async () => {
    const root = dir({
      "apps/wiki/.htaccess": "Deny from all\n",
      "apps/wiki/README.md": "the wiki\n",
      "apps/shop/.git/HEAD": "ref: refs/heads/main\n",
      "notes.txt": "not a config\n",
      "site.conf": "Alias /x /srv/x\n",
    });
    mkdirSync(join(root, "empty"));
    symlinkSync(join(root, "site.conf"), join(root, "linked.conf"));
    const found = await discoverConfigs(["."], { cwd: root });
    expect(found.configs.map((c) => c.label)).toEqual(["apps/wiki/.htaccess", "site.conf"]);
    expect(found.passed).toEqual([
      { label: "apps/shop/.git", reason: "hidden (a name starting with a dot)" },
      { label: "apps/wiki/README.md", reason: "not a config file: outside a tree only *.conf files and .htaccess files are configs" },
      { label: "empty", reason: "an empty directory" },
      { label: "linked.conf", reason: "a symbolic link: discovery never follows links" },
      { label: "notes.txt", reason: "not a config file: outside a tree only *.conf files and .htaccess files are configs" },
    ]);
  });

  it("stops at a tree: its subdirectories, even ones that look like trees, are part of it", async () => {
    const root = dir({
      "web/conf/httpd.conf": MAIN,
      "web/conf/extra/vhosts.conf": "<VirtualHost *:80>\n</VirtualHost>\n",
      "web/vendor/conf/httpd.conf": MAIN,
      "web/sites/a/apache2.conf": MAIN,
    });
    expect(await labels(["."], root)).toEqual(["web"]);
  });

  it("finds trees of every kind of main file, and a package's files at their absolute paths", async () => {
    const root = dir({
      "debian/apache2.conf": MAIN,
      "plain/httpd.conf": MAIN,
      "official/conf/httpd.conf": MAIN,
      "package/etc/tool/apache.conf": "Alias /tool /usr/share/tool\n",
      "package/usr/share/tool/index.html": "<p>tool</p>\n",
      // Not a tree (no main file, and htdocs/ is no file-system top): searched, and holds nothing.
      "pages/htdocs/index.html": "<p>page</p>\n",
    });
    expect(await labels(["."], root)).toEqual(["debian", "official", "package", "plain"]);
  });

  it("skips hidden directories and node_modules", async () => {
    const root = dir({
      ".git/conf/httpd.conf": MAIN,
      ".cache/site.conf": "Listen 81\n",
      "node_modules/pkg/httpd.conf": MAIN,
      "fleet/web/httpd.conf": MAIN,
    });
    expect(await labels(["."], root)).toEqual(["fleet/web"]);
  });

  it("takes a *.conf file at a level that is no tree as a one-file config, and nothing else there", async () => {
    const root = dir({
      "snippets/status.conf": "<Location /server-status>\n</Location>\n",
      "snippets/README.md": "notes\n",
      "snippets/old.conf.bak": "Listen 82\n",
      "snippets/web/httpd.conf": MAIN,
    });
    const found = await discoverConfigs(["snippets"], { cwd: root });
    expect(found.configs).toEqual([
      { path: join(root, "snippets/status.conf"), label: "snippets/status.conf" },
      { path: join(root, "snippets/web"), label: "snippets/web" },
    ]);
    expect(found.passed.map((p) => p.label)).toEqual(["snippets/README.md", "snippets/old.conf.bak"]);
  });

  it("leaves out what the exclude globs match, relative to their base rather than to the working directory", async () => {
    const root = dir({
      "sites/old/web/httpd.conf": MAIN,
      "sites/new/web/httpd.conf": MAIN,
      "sites/new/db/httpd.conf": MAIN,
      "sites/new/legacy.conf": "Listen 83\n",
    });
    const base = join(root, "sites");
    expect(await labels(["sites"], root, { base, globs: ["old/**", "new/db"] })).toEqual(["sites/new/legacy.conf", "sites/new/web"]);
    expect(await labels(["sites"], root, { base, globs: ["**/*.conf"] })).toEqual(["sites/new/db", "sites/new/web", "sites/old/web"]);
    // The same globs from another base match nothing.
    expect(await labels(["sites"], root, { base: root, globs: ["old/**", "new/db"] })).toEqual(["sites/new/db", "sites/new/legacy.conf", "sites/new/web", "sites/old/web"]);
  });

  it("orders by label whatever the order of the arguments, and finds a config given twice once", async () => {
    const root = dir({ "b/httpd.conf": MAIN, "a/httpd.conf": MAIN, "c/site.conf": "Listen 84\n" });
    expect(await labels(["c", "b", "a", "b"], root)).toEqual(["a", "b", "c/site.conf"]);
  });

  it("labels a config outside the working directory by its absolute path", async () => {
    const root = dir({ "web/httpd.conf": MAIN });
    const elsewhere = mkdtempSync(join(tmpdir(), "fleet-cwd-"));
    expect(await labels([join(root, "web")], elsewhere)).toEqual([join(root, "web")]);
  });

  it("refuses an argument that is a symbolic link, and never follows a link below it", async () => {
    const root = dir({ "real/web/httpd.conf": MAIN, "elsewhere/other/httpd.conf": MAIN });
    symlinkSync(join(root, "real"), join(root, "link"));
    symlinkSync(join(root, "elsewhere/other"), join(root, "real/linked"));
    const error = await refusal(discoverConfigs(["link"], { cwd: root }));
    expect(error.code).toBe("HARNESS_USAGE");
    expect(error.message).toBe("fleet: link is a symbolic link; give the directory it points to.");
    expect(await labels(["real"], root)).toEqual(["real/web"]);
  });

  it("refuses a path that does not exist as a usage error naming it", async () => {
    const root = dir({});
    const error = await refusal(discoverConfigs(["no-such-dir"], { cwd: root }));
    expect(error.code).toBe("HARNESS_USAGE");
    expect(error.message).toBe("fleet: no-such-dir does not exist.");
  });
});
