// A fragment runs on each image's own stock httpd.conf: what follows from one module 2.2's stock config loads and
// 2.4's does not is one cause per module, read from the two sides' recorded module sets (not from a list kept in
// the judge). The answers below are the shapes real 2.2.34 and 2.4.68 gave for configs/queuewatch-cgi (the CGI
// script's source) and configs/tool-status-alias (mod_expires' headers).
import { describe, expect, it } from "vitest";
import { summarizeFindings } from "../../../harness/judge/judge-run.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import { fragmentModuleGap } from "../../../harness/judge/triage.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import type { TreeSidePlan } from "../../../harness/plan/tree/tree-side-plan.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { basicHeaders, LINES, observePlan, requestObservation, response, sidePlan } from "../../fixtures/observations/recorded.ts";
import { run, scenario } from "../../fixtures/observations/scenarios.ts";

const YAML = `id: frag
title: a tool's snippet on both stock configs
requests:
  - { name: graphs, path: /statgraph/ }
  - { name: script, path: /index.cgi }
  - { name: home, path: / }
  - { name: info, path: /info }
`;

const STOCK_22 = ["authz_host_module", "authn_default_module", "auth_digest_module", "expires_module", "cgi_module", "status_module", "info_module", "ssl_module", "mime_module"];
const STOCK_24 = ["authz_core_module", "authn_core_module", "authz_host_module", "access_compat_module", "status_module", "mime_module"];
const SCRIPT = '#!/bin/sh\necho "Content-Type: text/html"\necho\necho "<h1>queuewatch</h1>"\n';

function tree(stock: string[], loaded: string[] = stock, layout: TreeSidePlan["layout"] = "fragment"): TreeSidePlan {
  return { origin: "/x", layout, mount: "/", mainFile: "/usr/local/apache2/conf/httpd.conf", serverRoot: "/usr/local/apache2", defines: [], files: ["etc/q/apache.conf"], adaptations: [], stubs: [], problems: [], stockModules: stock, loadedModules: loaded };
}

function finding(rule: string, line: number, directive: string, message: string, severity: LintFinding["severity"], sections: string[] = []): LintFinding {
  return { rule, severity, security: severity === "security", seed: ["B4"], file: "etc/q/apache.conf", line, column: 1, endLine: line, endColumn: 1, directive, message, fix: null, fingerprint: `${rule}-${line}`, sections, includeChain: [], related: [] };
}

// What lint says of the snippet (its own messages, as the rules word them).
const LINT = [
  finding("handler-not-loaded", 15, "AddHandler cgi-script .cgi", "2.4 serves CGI scripts here as plain files: the target does not load cgi_module or cgid_module, which 2.2 loads, so the default handler sends the script's source text", "security"),
  finding("stock-module-not-loaded", 33, "ExpiresActive On", "the 2.4 target does not load expires_module, which 2.2's stock httpd.conf loads: <IfModule mod_expires.c> (line 31) and its 2 lines are skipped on 2.4", "expected"),
  finding("stock-module-not-loaded", 40, "SetHandler server-info", "the 2.4 target does not load info_module, which 2.2's stock httpd.conf loads: no module serves the handler \"server-info\" on 2.4, so the default handler answers (404 where there is no file)", "behaviour", ["<Location /info>"]),
];

function fragmentRun(candidateLoaded: string[] = STOCK_24, layout: TreeSidePlan["layout"] = "fragment") {
  const site = scenario(YAML);
  const expires: Array<[string, string]> = [["Cache-Control", "max-age=0"], ["Expires", "Mon, 07 Dec 2026 15:31:54 GMT"]];
  const baseline = observePlan(sidePlan(site, "2.2"), {
    // 2.2's stock config loads mod_ssl without a session cache, and says so at every start.
    startupLog: LINES.startup["2.2"],
    requests: [
      requestObservation("graphs", "2.2", { outcome: response(200, [...basicHeaders("2.2", 6, "text/html"), ...expires], "graph\n") }),
      requestObservation("script", "2.2", { outcome: response(200, basicHeaders("2.2", 20, "text/html"), "<h1>queuewatch</h1>\n") }),
      requestObservation("home", "2.2", { outcome: response(200, basicHeaders("2.2", 5, "text/html"), "home\n") }),
      requestObservation("info", "2.2", { outcome: response(200, basicHeaders("2.2", 27, "text/html"), "<h1>Apache Server Information</h1>\n") }),
    ],
  });
  const candidate = observePlan(sidePlan(site, "2.4"), {
    // 2.4's stock config does not load mod_ssl: no AH01873.
    startupLog: LINES.startup["2.4"].filter((line) => !line.includes("AH01873")),
    requests: [
      requestObservation("graphs", "2.4", { outcome: response(200, basicHeaders("2.4", 6, "text/html"), "graph\n") }),
      requestObservation("script", "2.4", { outcome: response(200, basicHeaders("2.4", SCRIPT.length, "application/x-sh"), SCRIPT) }),
      requestObservation("home", "2.4", { outcome: response(200, basicHeaders("2.4", 5, "text/html"), "home\n") }),
      requestObservation("info", "2.4", { outcome: response(404, basicHeaders("2.4", 196, "text/html; charset=iso-8859-1"), "<h1>Not Found</h1>\n") }),
    ],
  });
  const sides: [SideObservation, SideObservation] = [
    { ...baseline, tree: tree(STOCK_22, STOCK_22, layout) },
    { ...candidate, tree: tree(STOCK_24, candidateLoaded, layout) },
  ];
  return run(site, { baseline: sides[0], candidate: sides[1] });
}

const judge = (r: ReturnType<typeof fragmentRun>) => judgeScenario(r, { rules: RULES, lint: new Map([["frag", { baseline: LINT, candidate: LINT }]]), ignore: null });

describe("fragmentModuleGap: the modules 2.2's stock config loads whose 2.4 successors the candidate does not load", () => {
  it("reads both sides' recorded sets, leaves out what a successor already carries (authn_default by authn_core)", () => {
    const r = fragmentRun();
    expect(fragmentModuleGap(r.observations[0]!, r.observations[1]!)).toEqual([
      { module: "auth_digest_module", successors: ["auth_digest_module"] },
      { module: "expires_module", successors: ["expires_module"] },
      { module: "cgi_module", successors: ["cgi_module"] },
      { module: "info_module", successors: ["info_module"] },
      { module: "ssl_module", successors: ["ssl_module", "socache_shmcb_module"] },
    ]);
  });

  it("is empty for a full tree, and when the candidate loads the successors (--target-modules successors)", () => {
    const full = fragmentRun(STOCK_24, "official");
    expect(fragmentModuleGap(full.observations[0]!, full.observations[1]!)).toEqual([]);
    const loaded = fragmentRun([...STOCK_24, "auth_digest_module", "expires_module", "cgi_module", "info_module", "ssl_module", "socache_shmcb_module"]);
    expect(fragmentModuleGap(loaded.observations[0]!, loaded.observations[1]!)).toEqual([]);
  });
});

describe("triage of a fragment on two stock configs: one cause per module", () => {
  it("names mod_cgi for the script's source (security, handler-not-loaded's claim reused), mod_info for the 404 of its handler and mod_expires for the lost headers (behaviour)", () => {
    const judgement = judge(fragmentRun());
    const rows = judgement.findings.map((f) => [f.rule, f.severity, f.security, f.gating, f.title.split(" is loaded")[0]]);
    expect(rows).toEqual([
      ["stock-module-not-loaded", "security", true, true, "mod_cgi"],
      ["stock-module-not-loaded", "behaviour", false, false, "mod_info"],
      ["stock-module-not-loaded", "behaviour", false, false, "mod_expires"],
      // The start-up line only 2.2's mod_ssl writes: ssl-session-cache-warning's claim, under mod_ssl's cause.
      ["stock-module-not-loaded", "expected", false, false, "mod_ssl"],
    ]);
    const [cgi, info, expires, ssl] = judgement.findings;
    expect(ssl!.title).toContain("LoadModule ssl_module modules/mod_ssl.so; LoadModule socache_shmcb_module modules/mod_socache_shmcb.so");
    expect(ssl!.differences.map((d) => [d.request, d.field, d.class])).toEqual([[null, "startupLog", "expected-change"]]);
    expect(info!.config.map((c) => `${c.file}:${c.line}`)).toEqual(["etc/q/apache.conf:40"]);
    expect(info!.differences.find((d) => d.field === "status")).toMatchObject({ baseline: "200", candidate: "404", class: "expected-change" });
    expect(cgi!.title).toContain("LoadModule cgi_module modules/mod_cgi.so");
    expect(cgi!.config).toEqual([{ file: "etc/q/apache.conf", line: 15, directive: "AddHandler cgi-script .cgi" }]);
    expect(cgi!.differences.map((d) => d.field).sort()).toEqual(["body", "header:content-length", "header:content-type"]);
    expect(cgi!.evidence[0]).toMatch(/source text of \/index\.cgi/);
    expect(expires!.config.map((c) => `${c.file}:${c.line}`)).toEqual(["etc/q/apache.conf:33"]);
    expect(expires!.differences.map((d) => [d.request, d.field, d.class])).toEqual([
      ["graphs", "header:cache-control", "expected-change"],
      ["graphs", "header:expires", "expected-change"],
    ]);
    expect(judgement.findings.some((f) => f.rule === "unexplained")).toBe(false);
  });

  it("counts each module as a cause of its own in the run's (and a fleet's) summary", () => {
    const summary = summarizeFindings([judge(fragmentRun())]);
    expect(summary.map((c) => [c.rule, c.title.split(" is loaded")[0], c.severity, c.gating])).toEqual([
      ["stock-module-not-loaded", "mod_cgi", "security", true],
      ["stock-module-not-loaded", "mod_info", "behaviour", false],
      ["stock-module-not-loaded", "mod_expires", "behaviour", false],
      ["stock-module-not-loaded", "mod_ssl", "expected", false],
    ]);
  });

  it("with the successors loaded on the candidate, names no module: what remains is told as before", () => {
    const judgement = judge(fragmentRun([...STOCK_24, "auth_digest_module", "expires_module", "cgi_module", "info_module", "ssl_module", "socache_shmcb_module"]));
    expect(judgement.findings.map((f) => f.rule)).not.toContain("stock-module-not-loaded");
    // The script's source is handler-not-loaded's again; the headers and the 404 no rule knows without the cause.
    expect([...new Set(judgement.findings.map((f) => f.rule))].sort()).toEqual(["handler-not-loaded", "ssl-session-cache-warning", "unexplained"]);
  });

  it("on a full tree, leaves handler-not-loaded's finding as it is", () => {
    const judgement = judge(fragmentRun(STOCK_24, "official"));
    expect(judgement.findings.map((f) => f.rule)).toContain("handler-not-loaded");
    expect(judgement.findings.map((f) => f.rule)).not.toContain("stock-module-not-loaded");
  });
});
