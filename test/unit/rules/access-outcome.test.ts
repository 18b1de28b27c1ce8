// Lint's claims of who gets what come from the model prove checks: what a finding says each client gets on 2.2 and
// on 2.4 is predictCells' answer for that cell, cell by cell, and on the differential fuzzer's fixtures (each
// shrunk from a disagreement on real 2.2.34 and 2.4.68, with the real answers recorded) it is the real answer.
// Also: which cells a finding governs, and what is said where the model cannot predict.
import { describe, expect, it } from "vitest";
import { proofProbes } from "../../../harness/judge/prove/proof-probes.ts";
import { migrateTree } from "../../../harness/migrate/migrate-tree.ts";
import { A3 } from "../../../harness/rules/a3-require-host-provider-on-22.ts";
import { A5 } from "../../../harness/rules/a5-compat-anded-with-require.ts";
import { governingSection, messageAtPlace, outcomeClaim, PREDICTED_VHOSTS, PREDICTION_BUDGET } from "../../../harness/rules/access-outcome.ts";
import { lintContextFindings } from "../../../harness/rules/lint-tree.ts";
import { lintProbes } from "../../../harness/rules/tree-probes.ts";
import { HANDLER_NOT_LOADED } from "../../../harness/rules/handler-not-loaded.ts";
import { lintContext, type LintContext } from "../../../harness/rules/lint-context.ts";
import type { CellOutcome } from "../../../harness/rules/outcome-claim.ts";
import { predictCells } from "../../../harness/rules/predict-cells.ts";
import { PROTECTION_MODULE_NOT_LOADED } from "../../../harness/rules/protection-module-not-loaded.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { SATISFY_ANY_GRANTS } from "../../../harness/rules/satisfy-any-grants.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { walkConfig } from "../../../harness/conf/queries/walk-config.ts";
import { OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { type FuzzFixture, loadFixtures } from "../../fuzz/fuzz-fixtures.ts";
import { memoryTree } from "../conf/memory-tree.ts";

/** The rules whose findings say what a client gets (rules/access-outcome.ts). */
const CLAIMING: readonly Rule[] = [HANDLER_NOT_LOADED, SATISFY_ANY_GRANTS, A5, A3, PROTECTION_MODULE_NOT_LOADED];

function fragmentContext(text: string): LintContext {
  const tree = memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
  return lintContext(tree, { defines: [], target: TARGET_PROFILES.official });
}

/** Every cell some finding of the claiming rules states an outcome for (a change, or the same on both). */
function claimedCells(context: LintContext): Array<{ rule: string; line: number; cell: CellOutcome }> {
  const found: Array<{ rule: string; line: number; cell: CellOutcome }> = [];
  for (const rule of CLAIMING) {
    for (const detection of rule.detect!(context)) {
      const claim = detection.outcome;
      if (claim === undefined || claim.kind === "unpredicted") continue;
      for (const cell of claim.cells) found.push({ rule: rule.id, line: detection.node.span.line, cell });
    }
  }
  return found;
}

/** A fixture's claimed cells against predictCells (over the probes prove sent for it: its original and migrate's
 * port) and against the real answers it recorded. */
function compareFixture(fixture: FuzzFixture, text: string): { wrong: string[]; claimed: number; real: number } {
  const context = fragmentContext(text);
  const claimed = claimedCells(context);
  const tree = memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
  const { set } = proofProbes(tree, migrateTree(tree, { defines: [], annotate: false, rollback: new Set() }).migrated, []);
  const predicted = new Map(predictCells(context, set, { defaultRoot: OFFICIAL_PROFILE.docRoot }).map((p) => [p.cell, p]));
  const recorded = new Map(fixture.cells.map((c) => [c.cell, c.real]));
  const wrong: string[] = [];
  let real = 0;
  for (const { rule, line, cell } of claimed) {
    const prediction = predicted.get(cell.cell);
    for (const version of ["2.2", "2.4"] as const) {
      const said = cell[version].outcome;
      if (prediction !== undefined && prediction[version].outcome !== said) wrong.push(`${rule} line ${line}, ${cell.cell} on ${version}: claimed ${said}, predictCells ${prediction[version].outcome}`);
      const answer = recorded.get(cell.cell)?.[version];
      if (answer === undefined || answer === null) continue;
      real++;
      if (answer !== said) wrong.push(`${rule} line ${line}, ${cell.cell} on ${version}: claimed ${said}, real ${answer}`);
    }
  }
  return { wrong, claimed: claimed.length, real };
}

describe("lint's claimed outcomes on the differential fuzzer's fixtures", () => {
  const fixtures = loadFixtures().filter(({ fixture }) => fixture.status !== "explained");

  for (const { fixture, text } of fixtures) {
    it(`${fixture.id}: every outcome a finding claims is predictCells' for that cell, and the real one where recorded`, () => {
      expect(compareFixture(fixture, text).wrong).toEqual([]);
    });
  }

  it("the fixtures give the comparison something to compare: findings with claimed outcomes, cells with real answers", () => {
    const counts = fixtures.map(({ fixture, text }) => compareFixture(fixture, text));
    expect(counts.reduce((sum, c) => sum + c.claimed, 0)).toBeGreaterThan(0);
    expect(counts.reduce((sum, c) => sum + c.real, 0)).toBeGreaterThan(0);
  });
});

describe("outcomeClaim", () => {
  const CGI = "ScriptAlias /tool-cgi/ /srv/tool/cgi/\n<Directory /srv/tool/cgi>\n    AuthType Basic\n    AuthName tool\n    AuthUserFile /srv/tool/passwd\n    Require valid-user\n    Order allow,deny\n    Allow from all\n</Directory>\n";

  it("the issue's case: a CGI directory with its own Require valid-user and Allow from all, no CGI module on 2.4: the source to an authenticated user, security", () => {
    const claim = outcomeClaim(fragmentContext(CGI), { section: null, view: "2.4", urlPrefix: "/tool-cgi/", aspect: "handler" });
    expect(claim.kind).toBe("differs");
    if (claim.kind !== "differs") return;
    expect(claim.severity).toBe("security");
    expect(claim.cells.map((c) => [c.probe.path, c.probe.credentials, c["2.2"].outcome, c["2.4"].outcome])).toEqual([["/tool-cgi/probe.cgi", "valid", "executed", "source-served"]]);
  });

  it("governs only the requests that meet the finding's section", () => {
    const context = fragmentContext("<Directory /usr/local/apache2/htdocs/a>\n    Order deny,allow\n    Deny from all\n</Directory>\n<Directory /usr/local/apache2/htdocs/b>\n    Order allow,deny\n    Allow from all\n</Directory>\n");
    const sections = walkConfig(context.target).sections.filter((s) => s.section.key === "directory").map((s) => s.section);
    const a = outcomeClaim(context, { section: sections[0]!, view: "2.4", aspect: "access" });
    expect(a.kind).toBe("same");
    if (a.kind === "same") expect(new Set(a.cells.map((c) => c.probe.path.split("/")[1]))).toEqual(new Set(["a"]));
  });

  it("is unpredicted, with the reason, for a tree of more virtual hosts than lint predicts for (prove's place)", () => {
    const hosts = Array.from({ length: PREDICTED_VHOSTS + 1 }, (_, i) => `<VirtualHost *:80>\n    ServerName h${i}.example.test\n    DocumentRoot /srv/h${i}\n    <Directory /srv/h${i}>\n        Order deny,allow\n        Deny from all\n    </Directory>\n</VirtualHost>\n`).join("");
    const context = fragmentContext(hosts);
    const directory = walkConfig(context.target).sections.find((s) => s.section.key === "directory")!.section;
    expect(outcomeClaim(context, { section: directory, view: "2.4", aspect: "access" })).toMatchObject({ kind: "unpredicted", why: expect.stringMatching(new RegExp(`up to ${PREDICTED_VHOSTS} virtual hosts, this one has ${PREDICTED_VHOSTS + 1}`)) });
  });

  it("is unpredicted, with the reason, where no probe reaches the section, where a line is not read, and inside <Limit>", () => {
    const context = fragmentContext("<Directory /srv/nowhere>\n    Order deny,allow\n    Deny from all\n    <Limit POST>\n        Require valid-user\n    </Limit>\n</Directory>\n");
    const walked = walkConfig(context.target);
    const directory = walked.sections.find((s) => s.section.key === "directory")!.section;
    expect(outcomeClaim(context, { section: directory, view: "2.4", aspect: "access" })).toMatchObject({ kind: "unpredicted", why: "no probe the plan makes for this tree reaches these lines" });
    expect(outcomeClaim(context, { section: directory, view: "2.4", aspect: "access", obstacle: "the access model does not read RewriteRule" })).toMatchObject({ kind: "unpredicted", why: "the access model does not read RewriteRule" });
    const require = walked.byKey.get("require")![0]!;
    expect(governingSection(require.sections)).toMatchObject({ section: null, obstacle: expect.stringMatching(/<Limit POST>/) });
  });
});

// A tree of `hosts` virtual hosts and one directory whose Allow line names `addresses` client ranges beside a
// Require only 2.4 reads (A5): each virtual host × each client the tree names is a cell the finding governs.
function cappedTree(hosts: number, addresses: number): LintContext {
  const vhosts = Array.from({ length: hosts }, (_, i) => `<VirtualHost *:80>\n    ServerName h${i}.example.test\n    DocumentRoot /usr/local/apache2/htdocs\n</VirtualHost>\n`).join("");
  const allow = Array.from({ length: addresses }, (_, i) => `10.${i}.0.0/16`).join(" ");
  return fragmentContext(`${vhosts}<Directory /usr/local/apache2/htdocs/d>\n    Order allow,deny\n    Allow from ${allow}\n    <IfModule mod_authz_core.c>\n        Require ip 192.0.2.1\n    </IfModule>\n</Directory>\n`);
}

/** The cells the A5 finding on /d/ governs: the probes of its URL. */
function governedCount(context: LintContext): number {
  return lintProbes(context).probes.filter((probe) => probe.path === "/d/" || probe.path.startsWith("/d/")).length;
}

describe("lint's prediction caps", () => {
  it(`predicts for a tree of ${PREDICTED_VHOSTS} virtual hosts, and says why not for one more`, () => {
    const [under] = lintContextFindings(cappedTree(PREDICTED_VHOSTS, 1), [A5]);
    expect(under!.predicted).toMatch(/^predicted by the access model: 2\.2 served \(200\), 2\.4 denied \(403\) for /);
    const [over] = lintContextFindings(cappedTree(PREDICTED_VHOSTS + 1, 1), [A5]);
    expect(over!.message).toMatch(/\(the outcome is not predicted \(why is given at each place\)\)$/);
    expect(over!.predicted).toBe(`the outcome is not predicted: lint predicts outcomes for trees of up to ${PREDICTED_VHOSTS} virtual hosts, this one has ${PREDICTED_VHOSTS + 1} (prove predicts and checks every cell)`);
  });

  it(`predicts a finding governing just under ${PREDICTION_BUDGET} requests, and says why not for one governing more`, { timeout: 60_000 }, () => {
    // 32 hosts × (185 ranges + the outsider and the local client) = 5,984 cells; one range more, 6,016.
    const under = cappedTree(PREDICTED_VHOSTS, 185);
    const governed = governedCount(under);
    expect(governed).toBeLessThanOrEqual(PREDICTION_BUDGET);
    expect(governed).toBeGreaterThan(PREDICTION_BUDGET - PREDICTED_VHOSTS * 2);
    expect(lintContextFindings(under, [A5]).map((finding) => finding.predicted)).toEqual([expect.stringMatching(/^predicted by the access model: 2\.2 served \(200\), 2\.4 denied \(403\) for /)]);
    const over = cappedTree(PREDICTED_VHOSTS, 186);
    expect(governedCount(over)).toBeGreaterThan(PREDICTION_BUDGET);
    expect(lintContextFindings(over, [A5]).map((finding) => finding.predicted)).toEqual([
      `the outcome is not predicted: lint predicts at most ${PREDICTION_BUDGET} requests per tree, and this tree's findings govern more (prove predicts and checks every cell)`,
    ]);
  });
});

describe("messageAtPlace", () => {
  it("says the place's own prediction where the cause's message points to it, and leaves other messages as they are", () => {
    const [found] = lintContextFindings(cappedTree(1, 1), [A5]);
    expect(found!.message).toMatch(/; predicted by the access model: the outcome changes \(who gets what is given at each place\)$/);
    expect(messageAtPlace(found!)).toBe(`${found!.message.slice(0, found!.message.indexOf("; predicted by"))}; ${found!.predicted}`);
    expect(messageAtPlace(found!)).toMatch(/do not take precedence; predicted by the access model: 2\.2 served \(200\), 2\.4 denied \(403\) for /);
    expect(messageAtPlace({ message: "2.4 refuses to start: Invalid command 'Order'" })).toBe("2.4 refuses to start: Invalid command 'Order'");
  });
});
