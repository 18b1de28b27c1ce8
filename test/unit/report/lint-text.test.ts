import { describe, expect, it } from "vitest";
import { parseIgnoreFile } from "../../../harness/rules/ignore-file.ts";
import { lintOutcome } from "../../../harness/rules/lint-outcome.ts";
import { PLACES_SHOWN, renderLintText } from "../../../harness/report/lint-text.ts";
import { finding, lintedTree } from "../rules/lint-findings.ts";

const chain = [{ file: "apache2.conf", line: 82, column: 1 }, { file: "sites-enabled/all.conf", line: 3, column: 1 }];

describe("renderLintText", () => {
  const outcome = lintOutcome({
    trees: [
      {
        tree: lintedTree({ path: "configs/a", files: ["apache2.conf", "sites-enabled/all.conf", "sites-enabled/x.conf"] }),
        findings: [
          finding({ line: 3, column: 1, fix: "Mutex file:${APACHE_LOCK_DIR} default" }),
          finding({ rule: "A1", severity: "security", file: "sites-enabled/x.conf", line: 12, column: 5, directive: "Allow from all", message: "open to all on 2.4", fix: "Require all granted", includeChain: chain }),
          finding({ rule: "removed-directive", severity: "deprecated", file: "sites-enabled/x.conf", line: 120, column: 9, directive: "NameVirtualHost *:80", message: "no effect on 2.4", includeChain: chain }),
        ],
      },
      { tree: lintedTree({ path: "configs/b", layout: "official", targetModules: "official", files: ["conf/httpd.conf"] }), findings: [finding({ rule: "B4" })] },
    ],
    ignore: parseIgnoreFile("ignore:\n  - rule: B4\n    reason: b is ported next week\n", "fleet.yaml"),
    baseline: { path: "old.json", keys: new Set() },
    failOn: "security",
  });

  it("prints each tree, each finding once with its places (file:line:column, directive, include chain) and fix, aligned", () => {
    expect(renderLintText(outcome, { color: false })).toBe(
      [
        "configs/a  (layout debian, 2.4 target debian, 3 files, 3 findings)",
        "  blocking    R9                 2.4 refuses to start: Invalid command 'LockFile'",
        "      apache2.conf:3:1  LockFile logs/accept.lock",
        "      fix: Mutex file:${APACHE_LOCK_DIR} default",
        "  security    A1                 open to all on 2.4",
        "      sites-enabled/x.conf:12:5  Allow from all  (included from sites-enabled/all.conf:3 ← apache2.conf:82)",
        "      fix: Require all granted",
        "  deprecated  removed-directive  no effect on 2.4",
        "      sites-enabled/x.conf:120:9  NameVirtualHost *:80  (included from sites-enabled/all.conf:3 ← apache2.conf:82)",
        "",
        "configs/b  (layout official, 2.4 target official, 1 file, 0 findings)",
        "",
        "3 findings: 1 blocking, 1 security, 1 deprecated; 0 known in the baseline old.json, not shown; 1 ignored by fleet.yaml (B4 1)",
        "FAIL: 2 findings at security or above (--fail-on security)",
        "",
      ].join("\n"),
    );
  });

  it("shows a cause once with its first places and how many more, and counts findings and places apart", () => {
    const orders = Array.from({ length: 8 }, (_, index) => finding({ rule: "M2", line: 10 + index, directive: "Order allow,deny", message: "Invalid command 'Order'", fix: "Require all granted", fingerprint: `f${index}` }));
    const grouped = lintOutcome({ trees: [{ tree: lintedTree({ path: "configs/a" }), findings: orders }], ignore: null, baseline: null, failOn: "blocking" });
    const text = renderLintText(grouped, { color: false });
    expect(text).toBe(
      [
        "configs/a  (layout debian, 2.4 target debian, 1 file, 1 finding at 8 places)",
        "  blocking  M2  Invalid command 'Order'",
        ...[10, 11, 12, 13, 14].map((line) => `      apache2.conf:${line}:1  Order allow,deny`),
        "      and 3 more places (--format json lists every one)",
        "      fix: Require all granted",
        "",
        "1 finding at 8 places: 1 blocking",
        "FAIL: 1 finding at blocking or above (--fail-on blocking)",
        "",
      ].join("\n"),
    );
    expect(PLACES_SHOWN).toBe(5);
  });

  it("shows each place's own prediction under it, the cause's message once", () => {
    const places = [1, 2, 3].map((at) =>
      finding({ rule: "A5", severity: "behaviour", line: 10 * at, directive: "Allow from all", message: "both must pass; predicted by the access model: the outcome changes (who gets what is given at each place)", fingerprint: `f${at}`, predicted: `predicted by the access model: 2.2 served (200), 2.4 denied (403) for an outsider without credentials (GET /l${at}/)` }),
    );
    const grouped = lintOutcome({ trees: [{ tree: lintedTree({ path: "configs/a" }), findings: places }], ignore: null, baseline: null, failOn: "blocking" });
    expect(renderLintText(grouped, { color: false }).split("\n").slice(1, 8)).toEqual([
      "  behaviour  A5  both must pass; predicted by the access model: the outcome changes (who gets what is given at each place)",
      ...[1, 2, 3].flatMap((at) => [`      apache2.conf:${10 * at}:1  Allow from all`, `        predicted by the access model: 2.2 served (200), 2.4 denied (403) for an outsider without credentials (GET /l${at}/)`]),
    ]);
  });

  it("colours severities and the verdict on a terminal, and only there", () => {
    const coloured = renderLintText(outcome, { color: true });
    expect(coloured).toContain("\u001b[31m");
    expect(coloured.replace(/\u001b\[\d+m/g, "")).toBe(renderLintText(outcome, { color: false }));
  });

  it("says PASS when nothing reaches --fail-on", () => {
    const passed = lintOutcome({ trees: [{ tree: lintedTree(), findings: [finding({ severity: "behaviour" })] }], ignore: null, baseline: null, failOn: "blocking" });
    expect(renderLintText(passed, { color: false })).toMatch(/\n1 finding: 1 behaviour\nPASS: nothing at blocking or above \(--fail-on blocking\)\n$/);
  });
});
