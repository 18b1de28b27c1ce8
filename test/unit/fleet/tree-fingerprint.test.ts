import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { isConfigFile, treeFingerprint } from "../../../harness/fleet/tree-fingerprint.ts";

const SAMPLE = fileURLToPath(new URL("../../../configs/static-expires", import.meta.url));
const MAIN = "conf/httpd.conf";
const EXTRA = "conf/extra/httpd-static.conf";

/** A copy of the static-expires sample in a temp dir, with `edit` applied to some of its files' text. */
function copy(edit: Record<string, (text: string) => string> = {}): string {
  const root = join(mkdtempSync(join(tmpdir(), "fleet-fingerprint-")), "static-expires");
  cpSync(SAMPLE, root, { recursive: true });
  for (const [path, change] of Object.entries(edit)) writeFileSync(join(root, path), change(readFileSync(join(root, path), "latin1")), "latin1");
  return root;
}

async function fingerprint(root: string, defines: string[] = [], layout?: "official" | "fragment"): Promise<string> {
  return treeFingerprint(await loadTree(root, layout ? { layout } : {}), defines);
}

const original = await fingerprint(copy());

describe("treeFingerprint", () => {
  it("is the same for a copy read again", async () => {
    expect(await fingerprint(copy())).toBe(original);
  });

  it("is the same for config files that differ only in comment text, CRLF line ends and trailing blanks", async () => {
    const edited = copy({
      // The header comment names another host; same number of lines.
      [MAIN]: (text) => text.replace("# static.example.com: images", "# managed by puppet on web-07: images").replace(/\n/g, "\r\n"),
      [EXTRA]: (text) => text.replace(/\n/g, " \t\n").replace(/\n$/, "\n\n\n"),
    });
    expect(readFileSync(join(edited, MAIN), "latin1")).toMatch(/\n# managed by puppet on web-07: images[^\n]*\r\n/);
    expect(await fingerprint(edited)).toBe(original);
  });

  it("differs when a directive changes", async () => {
    expect(await fingerprint(copy({ [MAIN]: (text) => text.replace("Listen 80\n", "Listen 8080\n") }))).not.toBe(original);
  });

  it("differs when a comment line is added, since every line after it moves", async () => {
    expect(await fingerprint(copy({ [MAIN]: (text) => `# one more line\n${text}` }))).not.toBe(original);
  });

  // httpd joins a line ending in a backslash to the next before it looks for a comment (conf/lex-lines.ts).
  it("differs when a comment gains a backslash at its end, which swallows the directive on the next line", async () => {
    const plain = copy({ [EXTRA]: (text) => `# cache rules\nFileETag MTime Size\n${text}` });
    const swallowing = copy({ [EXTRA]: (text) => `# cache rules \\\nFileETag MTime Size\n${text}` });
    expect(await fingerprint(swallowing)).not.toBe(await fingerprint(plain));
  });

  it("differs when a line continuing a directive, which only looks like a comment, differs", async () => {
    const a = copy({ [EXTRA]: (text) => `Header set X-Build \\\n#a1\n${text}` });
    const b = copy({ [EXTRA]: (text) => `Header set X-Build \\\n#b2\n${text}` });
    expect(await fingerprint(a)).not.toBe(await fingerprint(b));
  });

  it("differs when blanks after a line's last backslash go, since only a backslash right at the line end continues it", async () => {
    const ended = copy({ [EXTRA]: (text) => `ServerAdmin webmaster@example.com \\ \nListen 81\n${text}` });
    const continued = copy({ [EXTRA]: (text) => `ServerAdmin webmaster@example.com \\\nListen 81\n${text}` });
    expect(await fingerprint(ended)).not.toBe(await fingerprint(continued));
  });

  it("differs when a file's last line ends in a backslash with a line end and without one", async () => {
    const withEnd = copy({ [EXTRA]: (text) => `${text}ServerAdmin webmaster@example.com \\\n` });
    const withoutEnd = copy({ [EXTRA]: (text) => `${text}ServerAdmin webmaster@example.com \\` });
    expect(await fingerprint(withEnd)).not.toBe(await fingerprint(withoutEnd));
    // Blank lines after the continued line change nothing more.
    expect(await fingerprint(copy({ [EXTRA]: (text) => `${text}ServerAdmin webmaster@example.com \\\n\n\n` }))).toBe(await fingerprint(withEnd));
  });

  it("differs when a page differs by one trailing blank: a page's bytes are what a client gets", async () => {
    expect(isConfigFile("htdocs/index.html")).toBe(false);
    expect(await fingerprint(copy({ "htdocs/index.html": (text) => text.replace(/\n$/, " \n") }))).not.toBe(original);
  });

  it("differs when the -D defines differ, but not in their order", async () => {
    const root = copy();
    expect(await fingerprint(root, ["SSL"])).not.toBe(original);
    expect(await fingerprint(root, ["SSL", "PHP"])).toBe(await fingerprint(root, ["PHP", "SSL"]));
  });

  it("differs when the tree is read in another layout", async () => {
    const root = copy();
    expect(await fingerprint(root, [], "official")).toBe(original);
    expect(await fingerprint(root, [], "fragment")).not.toBe(original);
  });
});

describe("isConfigFile", () => {
  it("tells config files by their name or their include directory", () => {
    expect(
      ["conf/httpd.conf", "mods-available/ssl.load", "app/.htaccess", "conf.d/charset", "sites-enabled/000-default", "conf-available/security", "htdocs/index.html", "envvars", "magic"].map(isConfigFile),
    ).toEqual([true, true, true, true, true, true, false, false, false]);
  });
});
