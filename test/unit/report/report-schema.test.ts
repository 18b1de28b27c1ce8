import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { renderJsonReport } from "../../../harness/report/json-report.ts";
import { REPORT_SCHEMA_VERSION, type Report, type ReportSideRequest, type ReportSideServer } from "../../../harness/report/report-model.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { judgeRun } from "../../../harness/judge/judge-run.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { buildReport } from "../../../harness/report/build-report.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import { parseIgnoreFile } from "../../../harness/rules/ignore-file.ts";
import { c1SeedClaimRun, weakEtagRun, x1Run } from "../../fixtures/observations/scenarios.ts";

type Json = Record<string, unknown>;

const schema = JSON.parse(readFileSync(new URL("../../../schema/report.schema.json", import.meta.url), "utf8")) as Json;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

function check(value: unknown): ErrorObject[] {
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** The report as a consumer sees it: written by the JSON reporter and read back. */
function roundTrip(report: Report): Json {
  return JSON.parse(renderJsonReport(report)) as Json;
}

const BODY = "<title>401 Unauthorized</title>\n";
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const BODY_SHA256 = sha256(BODY);

function response(status: number, server: string, body: string): ReportSideRequest {
  return {
    outcome: "response",
    status,
    httpVersion: "1.1",
    headers: [["Server", server], ["Content-Type", "text/html"]],
    body,
    bodyBytes: Buffer.byteLength(body),
    bodySha256: sha256(body),
    transportError: null,
    exec: null,
    errorLog: [],
  };
}

function server(image: string, version: string, family: string): ReportSideServer {
  return {
    image,
    version,
    family,
    started: true,
    startFailure: null,
    missingModules: [],
    startupLog: [
      {
        code: family === "2.4" ? "AH00489" : null,
        level: "notice",
        module: family === "2.4" ? "mpm_event" : null,
        message: `Apache/${version} (Unix) configured -- resuming normal operations`,
        event: "AH00489",
        raw: `[notice] Apache/${version} (Unix) configured -- resuming normal operations`,
      },
    ],
    trailingLog: [],
    renderedConfig: "Listen 80\n",
    tree: null,
  };
}

/** A small 2.0 report: one regression scenario with a structured failure, a difference and body digests. */
function minimalReport(): Report {
  const failure = {
    kind: "status" as const,
    request: "allowed ip, no credentials",
    field: "status",
    expected: "200",
    actual: "401",
    at: "scenarios/catalogue/authz/satisfy-any.scenario.yaml:14:9",
    message: "request allowed ip, no credentials: status: expected 200, got 401 (scenarios/catalogue/authz/satisfy-any.scenario.yaml:14:9)",
  };
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: "httpd-upgrade-harness", version: "0.1.0" },
    startedAt: "2026-11-21T22:40:58.000Z",
    sides: [
      { id: "baseline", role: "baseline", image: "httpd:2.2.34", version: "2.2.34", missing: false },
      { id: "candidate", role: "candidate", image: "httpd:2.4.62", version: "2.4.62", missing: false },
    ],
    baseline: { image: "httpd:2.2.34", version: "2.2.34", missing: false },
    candidate: { image: "httpd:2.4.62", version: "2.4.62" },
    candidates: [
      {
        side: "candidate",
        label: "httpd:2.4.62",
        axis: "upstream",
        image: "httpd:2.4.62",
        version: "2.4.62",
        byVerdict: { same: 0, "expected-change": 0, regression: 1, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 },
      },
    ],
    engines: null,
    scenarios: [
      {
        id: "q6-satisfy-any-ip-or-user",
        title: "Satisfy any + Allow from ip + valid-user: either criterion suffices",
        file: "scenarios/catalogue/authz/satisfy-any.scenario.yaml",
        seed: ["Q6"],
        verdict: "regression",
        coverage: "both",
        matrix: null,
        probes: null,
        durationMs: 7033,
        engine: null,
        error: null,
        findings: [
          {
            rule: "unexplained",
            severity: "unexplained",
            security: false,
            title: "differences no rule explains",
            candidate: "candidate",
            config: [{ file: "conf/httpd.conf", line: 9, directive: null }],
            requests: { count: 1, examples: ["GET /private/"] },
            evidence: ["status 200 → 401 on GET /private/"],
            confirmed: null,
            predicted: false,
            gating: true,
            differences: [{ request: "allowed ip, no credentials", field: "status", baseline: 200, candidate: 401, class: "regression", seed: [], reason: "no seed row predicts status for this request" }],
          },
        ],
        ignored: {
          byRule: { D3: 1 },
          differences: [{ request: "allowed ip, no credentials", rule: "D3", entry: ".httpd-upgrade-ignore.yaml:2", because: "ETags differ", field: "header:etag", baseline: '"1-2-3"', candidate: '"2-3"', class: "noise", seed: [], reason: "ignored (.httpd-upgrade-ignore.yaml:2): ETags differ" }],
        },
        expectations: {
          baseline: { ok: true, stated: true, failures: [], skipped: null },
          candidate: { ok: false, stated: true, failures: [failure], skipped: null },
        },
        guide: {
          claim: "Satisfy any + Allow from ip + valid-user == Require valid-user + Require ip",
          holds: false,
          notes: [],
          failures: [{ ...failure, side: "candidate", version: "2.4.62" }],
        },
        configTest: {
          baseline: { ok: true, exitCode: 0, messages: ["Syntax OK"], syntaxError: null },
          candidate: { ok: true, exitCode: 0, messages: ["Syntax OK"], syntaxError: null },
        },
        servers: { baseline: server("httpd:2.2.34", "2.2.34", "2.2"), candidate: server("httpd:2.4.62", "2.4.62", "2.4") },
        differences: [],
        requests: [
          {
            name: "allowed ip, no credentials",
            client: "allowed",
            sent: "GET /private/",
            baseline: response(200, "Apache/2.2.34 (Unix)", "private ok\n"),
            candidate: response(401, "Apache/2.4.62 (Unix)", BODY),
            differences: [
              {
                field: "status",
                baseline: 200,
                candidate: 401,
                class: "regression",
                seed: [],
                reason: "no seed row predicts status for this request",
              },
              {
                field: "body",
                baseline: { bytes: 11, sha256: sha256("private ok\n") },
                candidate: { bytes: Buffer.byteLength(BODY), sha256: BODY_SHA256 },
                class: "regression",
                seed: [],
                reason: "follows the status change",
              },
            ],
          },
        ],
      },
    ],
    summary: {
      scenarios: 1,
      byVerdict: { same: 0, "expected-change": 0, regression: 1, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 },
      expectationsMet: { baseline: 1, candidate: 0 },
      expectationsFailed: { baseline: 0, candidate: 1 },
      guideWrong: [{ id: "q6-satisfy-any-ip-or-user", seed: ["Q6"], notes: [failure.message] }],
      guideHolds: 0,
      rows: { covered: 1, guideHolds: 0, differ: 1, guideWrong: [{ row: "Q6", scenarios: ["q6-satisfy-any-ip-or-user"], note: failure.message }] },
      regressions: 1,
      findings: [{ rule: "unexplained", severity: "unexplained", security: false, title: "differences no rule explains", scenarios: ["q6-satisfy-any-ip-or-user"], requests: 1, config: [{ file: "conf/httpd.conf", line: 9, directive: null }], gating: true }],
      ignored: { byRule: { D3: 1 } },
      durationMs: 7040,
    },
    fleet: null,
  };
}

/** A request side with no HTTP answer; outcome and its own field set per case. */
const noAnswer: ReportSideRequest = {
  outcome: "not-run",
  status: null,
  httpVersion: null,
  headers: [],
  body: null,
  bodyBytes: null,
  bodySha256: null,
  transportError: null,
  exec: null,
  errorLog: [],
};

/** The same report with one side that did not run a request, one that did not start, and an exec request. */
function reportWithOtherOutcomes(): Report {
  const report = minimalReport();
  const scenario = report.scenarios[0]!;
  scenario.configTest.candidate = {
    ok: false,
    exitCode: 1,
    messages: ["AH00526: Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:", "Invalid command 'Order'"],
    syntaxError: { file: "/usr/local/apache2/conf/httpd.conf", line: 36, reason: "Invalid command 'Order'" },
  };
  scenario.servers.baseline = { ...server("httpd:2.2.34", "2.2.34", "2.2"), started: false, startFailure: { exitCode: null, logTail: ["(98)Address in use"] } };
  scenario.requests.push({
    name: "htpasswd",
    client: "host",
    sent: "exec: htpasswd -nb u p",
    baseline: { ...noAnswer, outcome: "exec", exec: { exitCode: 0, stdout: "u:$apr1$x\n", stderr: "" } },
    candidate: { ...noAnswer, outcome: "not-run", transportError: "the candidate did not start" },
    differences: [],
  });
  scenario.error = { code: "HARNESS_CONTAINER", message: "candidate stopped answering" };
  return report;
}

const scenarioOf = (report: Json): Json => (report.scenarios as Json[])[0]!;
const requestOf = (report: Json): Json => (scenarioOf(report).requests as Json[])[0]!;

/** Follows a local "#/..." reference. */
function resolve(node: Json): Json {
  if (typeof node.$ref !== "string") return node;
  const target = node.$ref.slice(2).split("/").reduce<unknown>((at, key) => (at as Json)[key], schema) as Json;
  return resolve(target);
}

/** Every object in `value` has exactly the keys its schema lists, in the schema's order. */
function expectSchemaKeyOrder(value: unknown, node: Json, path: string): void {
  const resolved = resolve(node);
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(resolved.oneOf)) {
    const branch = (resolved.oneOf as Json[]).find((b) => resolve(b).type !== "null")!;
    return expectSchemaKeyOrder(value, branch, path);
  }
  if (Array.isArray(value)) {
    if (resolved.items && typeof resolved.items === "object") value.forEach((item, i) => expectSchemaKeyOrder(item, resolved.items as Json, `${path}[${i}]`));
    return;
  }
  const properties = resolved.properties as Record<string, Json> | undefined;
  if (!properties) return;
  expect(Object.keys(value), path).toEqual(Object.keys(properties));
  for (const [key, inner] of Object.entries(properties)) expectSchemaKeyOrder((value as Json)[key], inner, `${path}.${key}`);
}

/** Every object schema in the file, with where it is. */
function objectSchemas(node: unknown, path = "#"): Array<[string, Json]> {
  if (node === null || typeof node !== "object") return [];
  const own: Array<[string, Json]> = !Array.isArray(node) && (node as Json).type === "object" ? [[path, node as Json]] : [];
  return [...own, ...Object.entries(node).flatMap(([key, inner]) => objectSchemas(inner, `${path}/${key}`))];
}

describe("schema/report.schema.json", () => {
  it("is a draft 2020-12 schema with an $id and a title, pinned to schemaVersion 2.0", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toEqual(expect.any(String));
    expect(schema.title).toEqual(expect.any(String));
    expect((schema.properties as Json).schemaVersion).toMatchObject({ const: REPORT_SCHEMA_VERSION });
  });

  it("closes every object and requires all its keys, each described", () => {
    const objects = objectSchemas(schema);
    expect(objects.length).toBeGreaterThan(20);
    for (const [path, node] of objects) {
      // A map (ignored.byRule: rule id -> count) has no fixed keys: its values' schema is named instead.
      if (node.properties === undefined) {
        expect([path, typeof node.additionalProperties, node.description]).toEqual([path, "object", expect.any(String)]);
        continue;
      }
      const keys = Object.keys(node.properties as Json);
      expect(node.additionalProperties, path).toBe(false);
      expect(node.required, path).toEqual(keys);
      for (const key of keys) expect((node.properties as Record<string, Json>)[key]!.description, `${path}/properties/${key}`).toEqual(expect.any(String));
    }
  });

  it("validates a 2.0 report as the JSON reporter writes it", () => {
    expect(check(roundTrip(minimalReport()))).toEqual([]);
  });

  it("validates a scenario with a structured failure, a difference and a response with a body digest", () => {
    const report = roundTrip(minimalReport());
    const request = requestOf(report);
    expect(((scenarioOf(report).expectations as Json).candidate as Json).failures).toEqual([expect.objectContaining({ kind: "status", at: expect.any(String) })]);
    expect(request.differences).toHaveLength(2);
    expect(request.candidate).toMatchObject({ httpVersion: "1.1", bodyBytes: BODY.length, bodySha256: BODY_SHA256 });
    expect(check(report)).toEqual([]);
  });

  it("validates exec and not-run outcomes, a syntax error, a start failure and a scenario error", () => {
    expect(check(roundTrip(reportWithOtherOutcomes()))).toEqual([]);
  });

  it("validates a run over several engines: each engine with what it ran, each scenario with its engine (2.3)", () => {
    const report = roundTrip({
      ...minimalReport(),
      engines: [
        { name: "unix:///var/run/docker.sock", concurrency: 2, scenarios: 1, lost: null },
        { name: "tcp://198.19.7.2:2375", concurrency: 2, scenarios: 0, lost: "stopped answering during q6-satisfy-any-ip-or-user" },
      ],
      scenarios: minimalReport().scenarios.map((scenario) => ({ ...scenario, engine: "unix:///var/run/docker.sock" })),
    });
    expect(check(report)).toEqual([]);
    expectSchemaKeyOrder(report, schema, "report");
    expect(check({ ...report, engines: [{ name: "tcp://x:2375", concurrency: 0, scenarios: 0, lost: null }] })).not.toEqual([]);
  });

  it("lists every object's keys in the order the JSON reporter writes them", () => {
    expectSchemaKeyOrder(roundTrip(reportWithOtherOutcomes()), schema, "report");
  });

  it("validates the sample report fixture the reporter tests use", () => {
    expect(sampleReport.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    const report = roundTrip(sampleReport);
    expect(check(report)).toEqual([]);
    expectSchemaKeyOrder(report, schema, "report");
  });

  it("validates the findings and ignored differences the judge builds, keys in the reporter's order", () => {
    const ignore = parseIgnoreFile("ignore:\n  - header: ETag\n    reason: our caches do not use ETags\n", "fleet.yaml");
    const sides: RunSide[] = [
      { side: BASELINE, image: "httpd:2.2.34", version: "2.2.34", missing: false },
      { side: CANDIDATE, image: "httpd:2.4.62", version: "2.4.62", missing: false },
    ];
    const judged = judgeRun({ startedAt: new Date(0), sides, runs: [x1Run(), weakEtagRun(), c1SeedClaimRun()], durationMs: 1 }, { rules: RULES, lint: new Map(), ignore });
    const report = roundTrip(buildReport(judged, "0.1.0"));
    const scenarios = report.scenarios as Json[];
    // x1's refusal (M5's, with the config test's line), c1's 500 (D5's: the scenario names the row), the ETag ignored.
    expect(scenarios.map((s) => [(s.findings as Json[]).map((f) => f.rule), (s.ignored as Json).byRule])).toEqual([
      [["M5"], {}],
      [[], { unexplained: 1 }],
      [["D5"], {}],
    ]);
    expect(check(report)).toEqual([]);
    expectSchemaKeyOrder(report, schema, "report");
  });

  const mutations: Array<[string, (report: Json) => void, Partial<ErrorObject>]> = [
    [
      "a missing key (bodySha256 of a request side)",
      (r) => delete (requestOf(r).candidate as Json).bodySha256,
      { keyword: "required", params: { missingProperty: "bodySha256" } },
    ],
    [
      "a missing key (the sides list)",
      (r) => delete r.sides,
      { keyword: "required", params: { missingProperty: "sides" } },
    ],
    [
      "an unknown key",
      (r) => ((scenarioOf(r).servers as Json).candidate as Json).uptime = 12,
      { keyword: "additionalProperties", params: { additionalProperty: "uptime" } },
    ],
    [
      "a wrong verdict string",
      (r) => (scenarioOf(r).verdict = "regressed"),
      { keyword: "enum", instancePath: "/scenarios/0/verdict" },
    ],
    [
      "a wrong difference class",
      (r) => ((requestOf(r).differences as Json[])[0]!.class = "changed"),
      { keyword: "enum", instancePath: "/scenarios/0/requests/0/differences/0/class" },
    ],
    [
      "schemaVersion 1.0",
      (r) => (r.schemaVersion = "1.0"),
      { keyword: "const", instancePath: "/schemaVersion" },
    ],
    [
      "a failure given as a plain string (the 1.0 shape)",
      (r) => (((scenarioOf(r).expectations as Json).candidate as Json).failures = ["request allowed ip, no credentials: status 401, expected 200"]),
      { keyword: "type", instancePath: "/scenarios/0/expectations/candidate/failures/0" },
    ],
    [
      "an unknown failure kind",
      (r) => ((((scenarioOf(r).expectations as Json).candidate as Json).failures as Json[])[0]!.kind = "teapot"),
      { keyword: "enum", instancePath: "/scenarios/0/expectations/candidate/failures/0/kind" },
    ],
    [
      "an unknown side role",
      (r) => ((r.sides as Json[])[1]!.role = "reference"),
      { keyword: "enum", instancePath: "/sides/1/role" },
    ],
    [
      "a finding severity no rule has",
      (r) => ((scenarioOf(r).findings as Json[])[0]!.severity = "critical"),
      { keyword: "enum", instancePath: "/scenarios/0/findings/0/severity" },
    ],
    [
      "a finding without its config lines",
      (r) => delete (scenarioOf(r).findings as Json[])[0]!.config,
      { keyword: "required", params: { missingProperty: "config" } },
    ],
    [
      "an ignored count that is not a count",
      (r) => (((scenarioOf(r).ignored as Json).byRule as Json).D3 = -1),
      { keyword: "minimum", instancePath: "/scenarios/0/ignored/byRule/D3" },
    ],
    [
      "a body digest that is not SHA-256 hex",
      (r) => ((requestOf(r).candidate as Json).bodySha256 = "not-a-digest"),
      { keyword: "pattern", instancePath: "/scenarios/0/requests/0/candidate/bodySha256" },
    ],
  ];

  it.each(mutations)("rejects %s", (_name, mutate, expected) => {
    const report = roundTrip(minimalReport());
    mutate(report);
    expect(check(report)).toContainEqual(expect.objectContaining(expected));
  });
});
