import { describe, expect, it } from "vitest";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import { triageScenario, type ScenarioLint, type TriageInputs } from "../../../harness/judge/triage.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { parseIgnoreFile } from "../../../harness/rules/ignore-file.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import type { Scenario } from "../../../harness/scenario/scenario.ts";
import { CONFIG_TESTS, basicHeaders, forbiddenBody, observePlan, requestObservation, response, sidePlan } from "../../fixtures/observations/recorded.ts";
import { MISSING_BASELINE, run, scenario, x1Run } from "../../fixtures/observations/scenarios.ts";

// A tree-like scenario: two requests and nothing stated, as `run --config` makes them.
const TREE_YAML = `id: site
title: A site's smoke requests
requests:
  - { name: status, path: /status }
  - { name: home, path: / }
  - { name: old, path: /old }
`;

const DENIED_24 = "[Sat Nov 21 22:42:21.673948 2026] [authz_core:error] [pid 8:tid 28] [client 172.17.0.1:42382] AH01630: client denied by server configuration: /usr/local/apache2/htdocs/status";
const OK_BODY = "status page\n";

function answer(family: "2.2" | "2.4", status: number, body: string) {
  return response(status, basicHeaders(family, Buffer.byteLength(body), "text/html"), body);
}

/** 2.2 answers every request 200; 2.4 answers /status 403 (AH01630), / the same, /old 404 or as `old24`. */
function treeRun(options: { old24?: number; candidate?: Partial<SideObservation> } = {}) {
  const site = scenario(TREE_YAML);
  const baseline = observePlan(sidePlan(site, "2.2"), {
    requests: [
      requestObservation("status", "2.2", { outcome: answer("2.2", 200, OK_BODY) }),
      requestObservation("home", "2.2", { outcome: answer("2.2", 200, "home\n") }),
      requestObservation("old", "2.2", { outcome: answer("2.2", 200, "old\n") }),
    ],
  });
  const candidate = observePlan(sidePlan(site, "2.4"), {
    requests: [
      requestObservation("status", "2.4", { outcome: answer("2.4", 403, forbiddenBody("2.4", "/status")), log: [DENIED_24] }),
      requestObservation("home", "2.4", { outcome: answer("2.4", 200, "home\n") }),
      requestObservation("old", "2.4", { outcome: options.old24 === undefined ? answer("2.4", 404, "gone\n") : answer("2.4", options.old24, "old\n") }),
    ],
  });
  return run(site, { baseline, candidate: { ...candidate, ...options.candidate } });
}

const deniedRule = (severity: Rule["severity"], security = false): Rule => ({
  id: "T-DENY",
  seed: ["A6"],
  title: "access control on 2.4 denies what 2.2 allowed",
  severity,
  security,
  recognise: (evidence) =>
    evidence.field === "status" && evidence.status.candidate === 403 && evidence.log.candidate.some((r) => r.code === "AH01630") ? { summary: "403 on 2.4: AH01630" } : null,
});

function inputs(rules: readonly Rule[], extra: Partial<TriageInputs> = {}): TriageInputs {
  return { rules, lint: new Map(), ignore: null, ...extra };
}

function lintFinding(rule: string, file: string, line: number, directive: string, severity: LintFinding["severity"] = "blocking"): LintFinding {
  return {
    rule,
    severity,
    security: false,
    seed: [rule],
    file,
    line,
    column: 1,
    endLine: line,
    endColumn: directive.length,
    directive,
    message: `${directive} is refused on 2.4`,
    fix: null,
    fingerprint: `${rule}-${line}`,
    sections: [],
    includeChain: [],
    related: [],
  };
}

describe("triage, causes of a started candidate's differences", () => {
  it("folds the headers, body and log of a changed status under the rule that claims the status", () => {
    const judgement = judgeScenario(treeRun({ old24: 200 }), inputs([deniedRule("behaviour")]));
    expect(judgement.findings.map((f) => [f.rule, f.severity, f.requests, f.differences.map((d) => [d.request, d.field, d.class, d.seed])])).toEqual([
      [
        "T-DENY",
        "behaviour",
        { count: 1, examples: ["GET /status"] },
        [
          ["status", "status", "expected-change", ["A6"]],
          ["status", "header:content-length", "expected-change", ["A6"]],
          ["status", "body", "expected-change", ["A6"]],
          ["status", "errorLog", "expected-change", ["A6"]],
        ].sort((a, b) => judgementOrder(a[1] as string) - judgementOrder(b[1] as string)),
      ],
    ]);
    expect(judgement.findings[0]!.evidence).toEqual(["403 on 2.4: AH01630", "status 200 → 403 on GET /status", "AH01630 client denied by server configuration: /usr/local/apache2/htdocs/status"]);
    // The comparison the per-request sections show carries the same classes: the verdict is the rule's change.
    expect(judgement.verdict).toBe("expected-change");
    expect(judgement.comparisons[0]!.requests.find((r) => r.name === "status")!.differences.filter((d) => d.class !== "noise").map((d) => [d.field, d.class, d.reason])).toEqual(
      ["status", "header:content-length", "body", "errorLog"].map((field) => [field, "expected-change", "T-DENY: 403 on 2.4: AH01630"]),
    );
  });

  it("keeps a security claim a regression, flagged and gating, ahead of everything else", () => {
    const judgement = judgeScenario(treeRun(), inputs([deniedRule("behaviour", true)]));
    expect(judgement.findings.map((f) => [f.rule, f.severity, f.security, f.gating, f.requests.examples])).toEqual([
      ["T-DENY", "behaviour", true, true, ["GET /status"]],
      ["unexplained", "unexplained", false, true, ["GET /old"]],
    ]);
    expect(judgement.findings[0]!.differences.map((d) => [d.field, d.class, d.reason])).toEqual(
      ["status", "header:content-length", "body", "errorLog"].map((field) => [field, "regression", "T-DENY (behaviour, security): 403 on 2.4: AH01630"]),
    );
    expect(judgement.verdict).toBe("regression");
  });

  it("puts a changed Content-Length (or Transfer-Encoding) under the cause of the changed body it frames, on the same status", () => {
    // queuewatch-cgi: 2.2 sent the script's 70-byte output, 2.4 its 303-byte source; only the body says why.
    const site = scenario(TREE_YAML);
    const requests = (family: "2.2" | "2.4", home: string) => ["status", "home", "old"].map((name) => requestObservation(name, family, { outcome: answer(family, 200, name === "home" ? home : "x\n") }));
    const scriptRun = () =>
      run(site, { baseline: observePlan(sidePlan(site, "2.2"), { requests: requests("2.2", "ran\n") }), candidate: observePlan(sidePlan(site, "2.4"), { requests: requests("2.4", "#!/bin/sh\necho ran\n") }) });
    const source: Rule = { id: "T-SOURCE", seed: [], title: "a script's source", severity: "behaviour", security: true, recognise: (e) => (e.field === "body" && (e.candidate ?? "").startsWith("#!") ? { summary: "the source" } : null) };
    expect(judgeScenario(scriptRun(), inputs([source])).findings.map((f) => [f.rule, f.differences.map((d) => d.field).sort()])).toEqual([["T-SOURCE", ["body", "header:content-length"]]]);
    expect(judgeScenario(scriptRun(), inputs([])).findings.map((f) => [f.rule, f.differences.map((d) => d.field).sort()])).toEqual([["unexplained", ["body", "header:content-length"]]]);
    // 2.2 sent the output chunked: the framing header is the body's too.
    const chunked = scriptRun();
    const home = chunked.observations[0]!.requests.find((r) => r.name === "home")!;
    if (home.outcome.kind !== "response") throw new Error("fixture: home answered");
    home.outcome = { ...home.outcome, headers: [...home.outcome.headers.filter(([name]) => name.toLowerCase() !== "content-length"), ["Transfer-Encoding", "chunked"]] };
    expect(judgeScenario(chunked, inputs([source])).findings.map((f) => [f.rule, f.differences.map((d) => d.field).sort()])).toEqual([["T-SOURCE", ["body", "header:content-length", "header:transfer-encoding"]]]);
  });

  it("names an access change no rule claims by its outcome, and anything else it cannot name one unexplained finding per path", () => {
    const judgement = judgeScenario(treeRun(), inputs([]));
    expect(judgement.findings.map((f) => [f.rule, f.severity, f.requests.examples, f.gating, f.differences.map((d) => d.field).sort()])).toEqual([
      ["unexplained", "unexplained", ["GET /old"], true, ["body", "header:content-length", "status"]],
      // 200 → 403: users lose what 2.2 gave them. It fails the run, as the unexplained regression it used to be.
      ["access-narrowed", "behaviour", ["GET /status"], true, ["body", "errorLog", "header:content-length", "status"]],
    ]);
    expect(judgement.findings[1]!.evidence[0]).toBe("access narrowed: served → denied");
  });

  it("makes a rule's claims without config lines one finding for the server, whatever the paths", () => {
    const any403: Rule = { ...deniedRule("behaviour"), recognise: (evidence) => (evidence.field === "status" && evidence.status.candidate === 403 ? { summary: "403 on 2.4" } : null) };
    const judgement = judgeScenario(treeRun({ old24: 403 }), inputs([any403]));
    expect(judgement.findings.map((f) => [f.rule, f.config, f.requests])).toEqual([["T-DENY", [], { count: 2, examples: ["GET /status", "GET /old"] }]]);
  });

  it("names a grant 2.4 adds as a security finding", () => {
    const site = scenario(TREE_YAML);
    const baseline = observePlan(sidePlan(site, "2.2"), {
      requests: [
        requestObservation("status", "2.2", { outcome: answer("2.2", 403, forbiddenBody("2.2", "/status")) }),
        requestObservation("home", "2.2", { outcome: answer("2.2", 200, "home\n") }),
        requestObservation("old", "2.2", { outcome: answer("2.2", 200, "old\n") }),
      ],
    });
    const candidate = observePlan(sidePlan(site, "2.4"), {
      requests: [
        requestObservation("status", "2.4", { outcome: answer("2.4", 200, OK_BODY) }),
        requestObservation("home", "2.4", { outcome: answer("2.4", 200, "home\n") }),
        requestObservation("old", "2.4", { outcome: answer("2.4", 200, "old\n") }),
      ],
    });
    const judgement = judgeScenario(run(site, { baseline, candidate }), inputs([]));
    expect(judgement.findings.map((f) => [f.rule, f.severity, f.security, f.gating, f.requests.examples])).toEqual([["access-widened", "security", true, true, ["GET /status"]]]);
    expect(judgement.findings[0]!.evidence[0]).toBe("access widened: denied → served");
  });

  it("ties a claim to lint's lines of the same rule on the tree the candidate ran", () => {
    const site = treeRun();
    const lint: ScenarioLint = { baseline: [], candidate: [lintFinding("T-DENY", "conf/httpd.conf", 12, "Order deny,allow", "behaviour"), lintFinding("OTHER", "conf/httpd.conf", 3, "LockFile x")] };
    const judgement = judgeScenario(site, inputs([deniedRule("behaviour")], { lint: new Map([["site", lint]]) }));
    expect(judgement.findings.find((f) => f.rule === "T-DENY")!.config).toEqual([{ file: "conf/httpd.conf", line: 12, directive: "Order deny,allow" }]);
  });

  it("asks the worst severity first, and among equals the rule owning the directive the evidence names", () => {
    const generic: Rule = { id: "GENERIC", seed: [], title: "any invalid command", severity: "blocking", recognise: (e) => (e.log.candidate.some((r) => /Invalid command/.test(r.message)) ? { summary: "invalid" } : null) };
    const user: Rule = { id: "T-USER", seed: ["X1"], title: "User needs mod_unixd", severity: "blocking", owns: { directives: ["User"] }, recognise: generic.recognise! };
    const benign: Rule = { id: "BENIGN", seed: [], title: "anything", severity: "expected", recognise: () => ({ summary: "benign" }) };
    const judgement = judgeScenario(x1Run(), inputs([benign, generic, user]));
    expect(judgement.findings.map((f) => f.rule)).toEqual(["T-USER"]);
  });
});

describe("triage, a candidate that did not start", () => {
  const userRule: Rule = {
    id: "T-USER",
    seed: ["X1"],
    title: "User needs mod_unixd",
    severity: "blocking",
    recognise: (e) => {
      const line = e.log.candidate.find((r) => /Invalid command 'User'/.test(r.message));
      const at = e.log.candidate.map((r) => /line (\d+) of (\S+?):?$/.exec(r.message)).find((m) => m !== null);
      return line ? { summary: "2.4 refuses User", lines: at ? [{ file: at[2]!, line: Number(at[1]) }] : [] } : null;
    },
  };
  const lint: ScenarioLint = {
    baseline: [],
    candidate: [lintFinding("T-USER", "conf/httpd.conf", 35, "User daemon"), lintFinding("T-LOCK", "conf/httpd.conf", 40, "LockFile logs/x"), lintFinding("T-LOCK", "conf/extra/ssl.conf", 7, "SSLMutex sem"), lintFinding("T-DEPRECATED", "conf/httpd.conf", 50, "NameVirtualHost *:80", "deprecated")],
  };
  const downRun = (withBaseline: boolean) => {
    const site = scenario(TREE_YAML);
    const candidate = observePlan(sidePlan(site, "2.4"), { configTest: CONFIG_TESTS.d1User24, started: false });
    const tree = { origin: "/x", layout: "official" as const, mount: "/usr/local/apache2", mainFile: "/usr/local/apache2/conf/httpd.conf", serverRoot: "/usr/local/apache2", defines: [], files: [], adaptations: [], stubs: [], problems: [], stockModules: [], loadedModules: [] };
    const baseline = observePlan(sidePlan(site, "2.2"), {
      requests: ["status", "home", "old"].map((name) => requestObservation(name, "2.2", { outcome: answer("2.2", 200, "x\n") })),
    });
    return withBaseline ? run(site, { baseline, candidate: { ...candidate, tree } }) : run(site, { candidate: { ...candidate, tree } }, { skipped: [MISSING_BASELINE] });
  };

  it("lists every blocking problem lint has on the tree, the one the config test names confirmed, and folds every request under it", () => {
    const judgement = judgeScenario(downRun(true), inputs([userRule], { lint: new Map([["site", lint]]) }));
    expect(judgement.findings.map((f) => [f.rule, f.severity, f.confirmed, f.gating, f.config.map((c) => `${c.file}:${c.line}`), f.requests.count])).toEqual([
      ["T-USER", "blocking", true, true, ["conf/httpd.conf:35"], 3],
      ["T-LOCK", "blocking", false, true, ["conf/extra/ssl.conf:7", "conf/httpd.conf:40"], 0],
    ]);
    const user = judgement.findings[0]!;
    expect(user.differences.filter((d) => d.request !== null).map((d) => [d.request, d.field])).toEqual([["status", "outcome"], ["home", "outcome"], ["old", "outcome"]]);
    expect(user.config[0]!.directive).toBe("User daemon");
    expect(judgement.verdict).toBe("regression");
  });

  const START_FIELDS = ["configTest", "started"];
  it("folds 2.2's own start-up warnings under the refusal, not under a rule that reads 2.4's config-test log", () => {
    // https-origin-proxy: 2.4 refused SSLMutex; 2.2's certificate warning at start-up was claimed by E1, then E2,
    // whose warnings were in 2.4's config-test output.
    const greedy: Rule = { id: "T-GREEDY", seed: [], title: "a deprecated directive 2.4 warns about", severity: "deprecated", recognise: (e) => (e.log.candidate.length > 0 ? { summary: "2.4 warned" } : null) };
    const down = downRun(true);
    const warning = "[Mon Nov 23 21:28:52 2026] [warn] RSA server certificate CommonName (CN) `server' does NOT match server name!?";
    const [base, candidate] = down.observations;
    const baseline = observePlan(sidePlan(down.scenario, "2.2"), { startupLog: [warning], requests: base!.requests });
    // The refusal's rule answers the config test only, as R9 does.
    const refusal: Rule = { ...userRule, recognise: (e) => (START_FIELDS.includes(e.field) ? userRule.recognise!(e) : null) };
    const judgement = judgeScenario({ ...down, observations: [{ ...base!, startupLog: baseline.startupLog }, candidate!] }, inputs([refusal, greedy], { lint: new Map([["site", lint]]) }));
    expect(judgement.findings.map((f) => f.rule)).toEqual(["T-USER", "T-LOCK"]);
    expect(judgement.findings[0]!.differences.map((d) => d.field)).toContain("startupLog");
  });

  it("confirms a lint finding by the config test's line when no rule recognises the refusal", () => {
    const judgement = judgeScenario(downRun(true), inputs([], { lint: new Map([["site", lint]]) }));
    expect(judgement.findings.map((f) => [f.rule, f.confirmed, f.requests.count])).toEqual([
      ["T-USER", true, 3],
      ["T-LOCK", false, 0],
    ]);
  });

  it("is never quiet without a baseline: the config test's refusal is a blocking finding and the verdict an error", () => {
    const judgement = judgeScenario(downRun(false), inputs([userRule], { lint: new Map([["site", lint]]) }));
    expect([judgement.verdict, ...judgement.findings.map((f) => [f.rule, f.confirmed, f.gating, f.differences.map((d) => d.field)])]).toEqual([
      "error",
      ["T-USER", true, true, ["configTest"]],
      ["T-LOCK", false, true, []],
    ]);
  });

  it("credits a change the scenario predicts, and nothing claims, to its seed row, and does not gate on it", () => {
    const judgement = judgeScenario(x1Run(), inputs([]));
    expect(judgement.findings.map((f) => [f.rule, f.severity, f.predicted, f.gating])).toEqual([["X1", "blocking", true, false]]);
  });
});

describe("triage, the ignore file", () => {
  it("turns what an entry matches into noise, counted by the cause's rule, and drops its finding", () => {
    const ignore = parseIgnoreFile("ignore:\n  - rule: T-DENY\n    reason: accepted denial\n  - request: /old\n    header: Content-Length\n    reason: length follows\n", "ignore.yaml");
    const judgement = judgeScenario(treeRun(), inputs([deniedRule("security")], { ignore }));
    expect(judgement.ignored.byRule).toEqual({ "T-DENY": 4, unexplained: 1 });
    expect(judgement.findings.map((f) => [f.rule, f.differences.map((d) => d.field).sort()])).toEqual([["unexplained", ["body", "status"]]]);
    const status = judgement.comparisons[0]!.requests.find((r) => r.name === "status")!.differences;
    // Date and Server were noise before any rule looked; the four differences the rule claims are ignored.
    expect(status.map((d) => [d.field, d.class, d.reason])).toEqual([
      ["status", "noise", "ignored (ignore.yaml:2): accepted denial"],
      ["header:date", "noise", "the Date header is the clock"],
      ["header:server", "noise", "the Server header names the version under test"],
      ["header:content-length", "noise", "ignored (ignore.yaml:2): accepted denial"],
      ["body", "noise", "ignored (ignore.yaml:2): accepted denial"],
      ["errorLog", "noise", "ignored (ignore.yaml:2): accepted denial"],
    ]);
  });

  it("drops lint's blocking findings an entry matches, counting them", () => {
    const ignore = parseIgnoreFile("ignore:\n  - rule: T-LOCK\n    path: conf/extra/*\n    reason: ssl.conf is not deployed\n", "ignore.yaml");
    const site = scenario(TREE_YAML);
    const candidate = observePlan(sidePlan(site, "2.4"), { configTest: CONFIG_TESTS.d1User24, started: false });
    const lint: ScenarioLint = { baseline: [], candidate: [lintFinding("T-LOCK", "conf/httpd.conf", 40, "LockFile x"), lintFinding("T-LOCK", "conf/extra/ssl.conf", 7, "SSLMutex sem")] };
    const result = triageScenario({ scenario: site, baseline: null, candidates: [{ observation: candidate, comparison: null }], lint, rules: [], ignore });
    expect(result.ignored.byRule).toEqual({ "T-LOCK": 1 });
    expect(result.findings.filter((f) => f.rule === "T-LOCK").map((f) => f.config.map((c) => c.file))).toEqual([["conf/httpd.conf"]]);
  });
});

/** The order diffScenario lists a request's fields in (the observed field map's). */
function judgementOrder(field: string): number {
  return ["status", "header:content-length", "body", "errorLog"].indexOf(field);
}

// Keeps the scenario type in use for readers of the fixtures.
export type { Scenario };

describe("triage, the config test's line", () => {
  it("ties a start-up claim that names no line to the line the config test names, beside lint's lines of the rule", () => {
    const site = scenario(TREE_YAML);
    const candidate = observePlan(sidePlan(site, "2.4"), { configTest: CONFIG_TESTS.d1User24, started: false });
    const tree = { origin: "/x", layout: "official" as const, mount: "/usr/local/apache2", mainFile: "/usr/local/apache2/conf/httpd.conf", serverRoot: "/usr/local/apache2", defines: [], files: [], adaptations: [], stubs: [], problems: [], stockModules: [], loadedModules: [] };
    const quiet: Rule = { id: "T-USER", seed: ["X1"], title: "User needs mod_unixd", severity: "blocking", recognise: (e) => (e.log.candidate.some((r) => /Invalid command 'User'/.test(r.message)) ? { summary: "2.4 refuses User" } : null) };
    // Lint saw another User line only (the one 2.4 names came from a -D branch lint read otherwise).
    const lint: ScenarioLint = { baseline: [], candidate: [lintFinding("T-USER", "conf/extra/other.conf", 3, "User www")] };
    const result = triageScenario({ scenario: site, baseline: null, candidates: [{ observation: { ...candidate, tree }, comparison: null }], lint, rules: [quiet] });
    expect(result.findings.map((f) => [f.rule, f.confirmed, f.config])).toEqual([
      ["T-USER", true, [{ file: "conf/extra/other.conf", line: 3, directive: "User www" }, { file: "conf/httpd.conf", line: 35, directive: null }]],
    ]);
  });
});

describe("the rows a tree run exercises", () => {
  it("are the rows of the registry rules its findings name, since an operator's tree names none itself", async () => {
    const { summarizeRows } = await import("../../../harness/judge/judge-run.ts");
    const site = treeRun();
    expect(site.scenario.seed).toEqual([]);
    const claimedByM2: Rule = { ...deniedRule("blocking"), id: "M2" };
    expect(summarizeRows([judgeScenario(site, inputs([claimedByM2]))])).toMatchObject({ covered: 2, differ: 2 });
    expect(summarizeRows([judgeScenario(treeRun(), inputs([]))])).toMatchObject({ covered: 0, differ: 0 });
  });
});
