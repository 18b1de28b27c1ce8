import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { EffectiveConfig, EffectiveNode } from "../../../harness/conf/effective-config.ts";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { sectionsAt } from "../../../harness/conf/queries/request-sections.ts";
import { serverDirectives } from "../../../harness/conf/queries/walk-config.ts";
import { repoPath } from "../../../harness/repo-paths.ts";
import { stockConfig, stockDocumentRoot, stockGrantedRoot } from "../../../harness/rules/stock-access.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../conf/memory-tree.ts";

const ACCESS = new Set(["order", "allow", "deny", "satisfy", "require", "options", "allowoverride"]);

function ownLines(nodes: readonly EffectiveNode[]): string[] {
  return nodes.flatMap((n) => (n.kind === "section" ? (["directory", "files", "filesmatch", "location", "locationmatch"].includes(n.key) ? [] : ownLines(n.children)) : ACCESS.has(n.key) ? [`${n.key} ${n.args.join(" ")}`.toLowerCase()] : []));
}

/** What a request for `url` (mapped to `file`) meets in a config: each section's pattern and its access lines. */
function met(config: EffectiveConfig, url: string, file: string): string[][] {
  return sectionsAt(config, null, url, file).map((s) => [`<${s.key} ${s.args.join(" ").replace(/"/g, "")}>`.toLowerCase(), ...ownLines(s.children)]);
}

function recorded(family: "2.2" | "2.4"): EffectiveConfig {
  const text = readFileSync(repoPath(`test/fixtures/observations/httpd-${family}-stock.conf`), "utf8");
  const tree = memoryTree({ "conf/httpd.conf": text }, { layout: "official" });
  return evaluateTree(tree, { version: httpdVersion(family === "2.2" ? "2.2.34" : "2.4.62"), defines: [], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c", ...(family === "2.2" ? ["prefork.c"] : [])] });
}

describe("stock-access", () => {
  it("knows which paths each target's stock config grants; an httpd -M file counts as official", () => {
    expect(stockGrantedRoot("official", "/usr/local/apache2/htdocs/app/")).toBe("/usr/local/apache2/htdocs");
    expect(stockGrantedRoot("official", "/usr/local/apache2/htdocsx")).toBeNull();
    expect(stockGrantedRoot("debian", '"/usr/share/tool"')).toBe("/usr/share");
    expect(stockGrantedRoot("debian", "/var/www/html/x")).toBe("/var/www");
    expect(stockGrantedRoot("rhel", "/var/www/html/x")).toBe("/var/www/html");
    expect(stockGrantedRoot("rhel", "/usr/share/tool")).toBeNull();
    expect(stockGrantedRoot("/tmp/modules.txt", "/srv/x")).toBeNull();
    expect(stockDocumentRoot("rhel")).toBe("/var/www/html");
    expect(stockDocumentRoot("debian")).toBe("/var/www/html");
    expect(stockConfig("/tmp/modules.txt", "2.4")).toBeNull();
  });

  // The official images' sections, written in stock-access.ts, against the stock httpd.conf recorded from the real
  // 2.2.34 and 2.4 images: every request meets the same sections with the same access lines.
  for (const family of ["2.2", "2.4"] as const) {
    it(`the official ${family} sections are the recorded stock httpd.conf's, request by request`, () => {
      const real = recorded(family);
      const mine = stockConfig("official", family)!;
      const requests: Array<[string, string]> = [
        ["/", "/usr/local/apache2/htdocs"],
        ["/index.html", "/usr/local/apache2/htdocs/index.html"],
        ["/sub/.htaccess", "/usr/local/apache2/htdocs/sub/.htaccess"],
        ["/.htpasswd", "/usr/local/apache2/htdocs/.htpasswd"],
        ["/cgi-bin/probe.cgi", "/usr/local/apache2/cgi-bin/probe.cgi"],
        ["/elsewhere/x", "/srv/elsewhere/x"],
      ];
      for (const [url, file] of requests) expect(met(mine, url, file), `${family} ${url}`).toEqual(met(real, url, file));
      const first = (config: EffectiveConfig, key: string) => serverDirectives(config, null, key).at(-1)?.directive.args.join(" ").replace(/"/g, "");
      expect(first(mine, "documentroot")).toBe(first(real, "documentroot"));
      expect(first(mine, "directoryindex")).toBe(first(real, "directoryindex"));
      expect(first(real, "directoryindex")).toBe("index.html");
    });
  }
});
