// A fragment's <IfModule X> lines inside a per-directory section, for a module 2.2's stock config loads and 2.4's
// does not: what they did on 2.2 (a redirect, a refusal, a corrected spelling) is that module's cause on every probe
// whose region meets the section, not `unexplained`; a module that only sets headers never owns a status there.
// The docshelf answers are the shapes real 2.2.34 and 2.4.68 gave for configs/docshelf-rewrite (its RewriteRule [F]
// and its HTTPS redirect); the mod_speling directory and the two controls (a probe outside the section, a
// scenario's own request, which knows no region) are made up around them.
import { describe, expect, it } from "vitest";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import type { TreeSidePlan } from "../../../harness/plan/tree/tree-side-plan.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import type { RequestProbe, SectionPlace } from "../../../harness/scenario/probe-world.ts";
import type { Scenario } from "../../../harness/scenario/scenario.ts";
import { basicHeaders, LINES, observePlan, requestObservation, response, sidePlan } from "../../fixtures/observations/recorded.ts";
import { run, scenario } from "../../fixtures/observations/scenarios.ts";

const FILE = "etc/docshelf/apache.conf";
const SHELF: SectionPlace = { file: FILE, line: 14, endLine: 40, label: "<Directory /usr/share/docshelf/www>" };
// Served through its own `Alias /docshelf/manual /usr/share/docshelf/manual`: the shelf's section does not apply.
const MANUAL: SectionPlace = { file: FILE, line: 42, endLine: 46, label: "<Directory /usr/share/docshelf/manual>" };

const YAML = `id: shelf
title: a tool's snippet with guarded lines in its directories
requests:
  - { name: page, path: /docshelf/ }
  - { name: backup, path: /docshelf/index.html.bak }
  - { name: manual, path: /docshelf/manual/intro.htm }
  - { name: outside, path: /docshelf-outside/ }
  - { name: own, path: /docshelf/guide.html }
`;

const MARKER = "hpw-173d7e58a0b1";

/** The probes' regions, as generate-probes.ts records them; `own` is the scenario file's request, with none. */
function withRegions(site: Scenario): Scenario {
  const regions: Record<string, SectionPlace[]> = { page: [SHELF], backup: [SHELF], manual: [MANUAL], outside: [] };
  return {
    ...site,
    requests: site.requests.map((request) => {
      const sections = regions[request.name];
      if (sections === undefined) return request;
      const probe: RequestProbe = {
        cell: `http://(default):80|${request.path}|host|none|GET`,
        vhost: "http://(default):80",
        region: "<Directory /usr/share/docshelf/www>",
        clientRange: "host",
        credentials: "none",
        user: null,
        object: { kind: request.name === "backup" ? "hidden" : "static", marker: request.name === "backup" ? MARKER : `hpw-${request.name}`, origin: null },
        sections,
      };
      return { ...request, probe };
    }),
  };
}

const STOCK_22 = ["authz_host_module", "alias_module", "rewrite_module", "speling_module", "expires_module", "ssl_module", "mime_module", "dir_module"];
const STOCK_24 = ["authz_core_module", "authz_host_module", "access_compat_module", "alias_module", "mime_module", "dir_module"];

function tree(stock: string[], loaded: string[] = stock): TreeSidePlan {
  return { origin: "/x", layout: "fragment", mount: "/", mainFile: "/usr/local/apache2/conf/httpd.conf", serverRoot: "/usr/local/apache2", defines: [], files: [FILE], adaptations: [], stubs: [], problems: [], stockModules: stock, loadedModules: loaded };
}

function finding(rule: string, line: number, directive: string, message: string, severity: LintFinding["severity"], sections: string[]): LintFinding {
  return { rule, severity, security: severity === "security", seed: ["B4"], file: FILE, line, column: 9, endLine: line, endColumn: 9, directive, message, fix: null, fingerprint: `${rule}-${line}`, sections, includeChain: [], related: [] };
}

// What lint says of the snippet, in its own words. mod_expires' lines come first: it sits in the same <Directory>
// as the rewrite, and may claim only the headers it sets.
const LINT = [
  finding("stock-module-not-loaded", 37, "ExpiresActive On", "the 2.4 target does not load expires_module, which 2.2's stock httpd.conf loads: <IfModule mod_expires.c> (line 36) and its 2 lines are skipped on 2.4", "expected", [SHELF.label]),
  finding("protection-module-not-loaded", 31, "RewriteRule (~|\\.bak)$ - [F]", "the 2.4 target does not load rewrite_module, so <IfModule mod_rewrite.c> (line 28) and the access rules in it are skipped: 2.2 refuses or restricts here; 2.4 lets every client in", "security", [SHELF.label]),
  finding("stock-module-not-loaded", 44, "CheckSpelling On", "the 2.4 target does not load speling_module, which 2.2's stock httpd.conf loads: <IfModule mod_speling.c> (line 43) and its line are skipped on 2.4", "expected", [MANUAL.label]),
];

const redirect = (family: "2.2" | "2.4", to: string): Array<[string, string]> => [...basicHeaders(family, 240, "text/html; charset=iso-8859-1"), ["Location", to]];
const MOVED = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<title>301 Moved Permanently</title>\n';
const FORBIDDEN = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<title>403 Forbidden</title>\n';
const NOT_FOUND = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<title>404 Not Found</title>\n';
const PAGE = "<!DOCTYPE html>\n<html><head><title>docshelf</title></head></html>\n";

function shelfRun(candidateLoaded: string[] = STOCK_24) {
  const site = withRegions(scenario(YAML));
  const baseline = observePlan(sidePlan(site, "2.2"), {
    startupLog: LINES.startup["2.2"],
    requests: [
      requestObservation("page", "2.2", { outcome: response(301, redirect("2.2", "https://198.51.100.128/docshelf/"), MOVED) }),
      requestObservation("backup", "2.2", { outcome: response(403, basicHeaders("2.2", 225, "text/html; charset=iso-8859-1"), FORBIDDEN) }),
      requestObservation("manual", "2.2", { outcome: response(301, redirect("2.2", "http://198.51.100.128/docshelf/manual/intro.html"), MOVED) }),
      requestObservation("outside", "2.2", { outcome: response(200, basicHeaders("2.2", 10, "text/html"), "hpw-outside\n") }),
      requestObservation("own", "2.2", { outcome: response(301, redirect("2.2", "https://198.51.100.128/docshelf/guide.html"), MOVED) }),
    ],
  });
  const candidate = observePlan(sidePlan(site, "2.4"), {
    startupLog: LINES.startup["2.4"].filter((line) => !line.includes("AH01873")),
    requests: [
      requestObservation("page", "2.4", { outcome: response(200, basicHeaders("2.4", PAGE.length, "text/html"), PAGE) }),
      requestObservation("backup", "2.4", { outcome: response(200, basicHeaders("2.4", 54, "text/html"), `# httpd-upgrade-harness probe object ${MARKER}\n`) }),
      requestObservation("manual", "2.4", { outcome: response(404, basicHeaders("2.4", 196, "text/html; charset=iso-8859-1"), NOT_FOUND) }),
      requestObservation("outside", "2.4", { outcome: response(404, basicHeaders("2.4", 196, "text/html; charset=iso-8859-1"), NOT_FOUND) }),
      requestObservation("own", "2.4", { outcome: response(200, basicHeaders("2.4", PAGE.length, "text/html"), PAGE) }),
    ],
  });
  const sides: [SideObservation, SideObservation] = [
    { ...baseline, tree: tree(STOCK_22) },
    { ...candidate, tree: tree(STOCK_24, candidateLoaded) },
  ];
  return run(site, { baseline: sides[0], candidate: sides[1] });
}

const judge = (r: ReturnType<typeof shelfRun>) => judgeScenario(r, { rules: RULES, lint: new Map([["shelf", { baseline: LINT, candidate: LINT }]]), ignore: null });

/** Each finding's module (or rule) with the requests and fields of its differences. */
function byCause(judgement: ReturnType<typeof judge>) {
  return judgement.findings
    .filter((f) => f.differences.length > 0 && f.differences.some((d) => d.request !== null))
    .map((f) => ({
      cause: f.rule === "stock-module-not-loaded" ? f.title.split(" is loaded")[0] : f.rule,
      severity: f.severity,
      requests: [...new Set(f.differences.map((d) => d.request))].sort(),
    }));
}

describe("guarded lines in a per-directory section: the module's cause on the probes whose region meets it", () => {
  it("names mod_rewrite for the redirect and the refusal it made in <Directory> (security: 2.4 serves the backup), and mod_speling for its directory's redirect", () => {
    const judgement = judge(shelfRun());
    expect(byCause(judgement)).toEqual([
      { cause: "mod_rewrite", severity: "security", requests: ["backup", "page"] },
      // The scenario's own request knows no region (it is not a <Location>); the probe outside meets no section.
      { cause: "unexplained", severity: "unexplained", requests: ["own"] },
      { cause: "unexplained", severity: "unexplained", requests: ["outside"] },
      { cause: "mod_speling", severity: "behaviour", requests: ["manual"] },
    ]);
    const rewrite = judgement.findings.find((f) => f.title.startsWith("mod_rewrite"))!;
    expect(rewrite.title).toContain("LoadModule rewrite_module modules/mod_rewrite.so");
    expect(rewrite.gating).toBe(true);
    expect(rewrite.config.map((c) => `${c.file}:${c.line}`)).toEqual([`${FILE}:31`]);
    // The redirect's Location and body fold under its status, all under the module.
    expect(rewrite.differences.filter((d) => d.request === "page").map((d) => d.field).sort()).toEqual(["body", "header:content-length", "header:content-type", "header:location", "status"]);
    expect(rewrite.evidence).toContain("status differs on /docshelf/: RewriteRule (~|\\.bak)$ - [F] and the lines with it in <Directory /usr/share/docshelf/www> are skipped on 2.4 (mod_rewrite is not loaded)");
    const speling = judgement.findings.find((f) => f.title.startsWith("mod_speling"))!;
    expect(speling.differences.find((d) => d.field === "status")).toMatchObject({ request: "manual", baseline: "301", candidate: "404", class: "expected-change" });
    expect(speling.config.map((c) => `${c.file}:${c.line}`)).toEqual([`${FILE}:44`]);
  });

  it("never gives mod_expires a status in its <Directory>: it sets headers only", () => {
    const judgement = judge(shelfRun());
    expect(judgement.findings.some((f) => f.title.startsWith("mod_expires"))).toBe(false);
  });

  it("with the modules loaded on the candidate (--target-modules successors), names none of them", () => {
    const judgement = judge(shelfRun([...STOCK_24, "rewrite_module", "speling_module", "expires_module", "ssl_module", "socache_shmcb_module"]));
    expect(judgement.findings.map((f) => f.rule)).not.toContain("stock-module-not-loaded");
    // The widening is still told, by protection-module-not-loaded's own claim; the redirects are unexplained again.
    expect(judgement.findings.find((f) => f.differences.some((d) => d.request === "backup"))?.rule).toBe("protection-module-not-loaded");
    expect(judgement.findings.find((f) => f.differences.some((d) => d.request === "page"))?.rule).toBe("unexplained");
  });
});
