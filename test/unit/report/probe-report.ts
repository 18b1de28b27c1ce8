// A report whose one scenario is a probe run (`run --config --probes`): a cell of every class, two methods in one
// slot, cells no probe reached, a region with markup in it, and findings that name some of its requests. Kept
// beside the report tests (not in test/fixtures/) because only they read it.
import type { SideWitness } from "../../../harness/judge/outcome/probe-outcome.ts";
import { reportProbes } from "../../../harness/report/build-report.ts";
import type { Report, ReportFinding, ReportProbeCell, ReportRequest, ReportScenario, ReportSideRequest } from "../../../harness/report/report-model.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";

export const VHOST = "http://(default):80";
export const ADMIN = "<Directory /srv/www/admin>";
export const HOSTILE_REGION = `<Directory "/srv/<script>alert(1)</script>">`;

function witness(outcome: SideWitness["outcome"], answer: string, evidence: string[] = []): SideWitness {
  return { outcome, answer, credentials: "not-sent", object: "planted", marker: "not-applicable", evidence, handlerRefusal: null };
}

function side(status: number | null, body: string | null): ReportSideRequest {
  return {
    outcome: status === null ? "transport-error" : "response",
    status,
    httpVersion: status === null ? null : "1.1",
    headers: [],
    body,
    bodyBytes: body?.length ?? null,
    bodySha256: null,
    transportError: status === null ? "ECONNRESET" : null,
    exec: null,
    errorLog: [],
  };
}

interface Probe {
  request: string | null;
  region: string;
  path: string | null;
  client: string;
  credentials: string;
  user: string | null;
  method: string;
  class: ReportProbeCell["class"];
  reason?: string;
  baseline: SideWitness | null;
  candidate: SideWitness | null;
}

const outsider = { client: "outsider", credentials: "none", user: null };
const admin = { client: "10.0.0.0/8", credentials: "valid", user: "admin" };
const wrongPassword = { client: "10.0.0.0/8", credentials: "wrong-password", user: "admin" };

const PROBES: Probe[] = [
  // Two methods in one slot, both widened: the outsider gets into the admin area on 2.4.
  { request: "admin-outsider-get", region: ADMIN, path: "/admin/probe.html", ...outsider, method: "GET", class: "widened", baseline: witness("denied", "403", ["AH01797 client denied by server configuration"]), candidate: witness("served", "200", ["planted /srv/www/admin/probe.html (page, m-41)"]) },
  { request: "admin-outsider-head", region: ADMIN, path: "/admin/probe.html", ...outsider, method: "HEAD", class: "widened", baseline: witness("denied", "403"), candidate: witness("served", "200") },
  { request: "admin-admin-get", region: ADMIN, path: "/admin/probe.html", ...admin, method: "GET", class: "equal", baseline: witness("served", "200"), candidate: witness("served", "200") },
  { request: "cgi-outsider-get", region: "<Location /cgi-bin>", path: "/cgi-bin/probe.cgi", ...outsider, method: "GET", class: "source-exposed", baseline: witness("executed", "200"), candidate: witness("source-served", "200") },
  { request: "index-outsider-get", region: "/", path: "/index.html", ...outsider, method: "GET", class: "narrowed", baseline: witness("served", "200"), candidate: witness("denied", "403") },
  { request: "index-admin-get", region: "/", path: "/index.html", ...admin, method: "GET", class: "changed", baseline: witness("error", "500"), candidate: witness("error", "503") },
  { request: "index-wrong-get", region: "/", path: "/index.html", ...wrongPassword, method: "GET", class: "accepted", reason: "predicted: status (A2)", baseline: witness("auth-required", "401"), candidate: witness("denied", "403") },
  { request: "hostile-outsider-get", region: HOSTILE_REGION, path: "/x/<b>probe</b>.txt", ...outsider, method: "GET", class: "vacuous", reason: "the same failure on both sides (ECONNRESET): no answer came", baseline: witness("error", "ECONNRESET"), candidate: witness("error", "ECONNRESET") },
  { request: "hostile-wrong-get", region: HOSTILE_REGION, path: "/x/<b>probe</b>.txt", ...wrongPassword, method: "GET", class: "equal", baseline: witness("auth-required", "401"), candidate: witness("auth-required", "401") },
  { request: null, region: "<Directory /srv/www/private>", path: null, ...outsider, method: "GET", class: "unprobed", reason: "no probe could stand for it: the section matches no URL", baseline: null, candidate: null },
  { request: null, region: "<Directory /srv/www/private>", path: null, ...admin, method: "GET", class: "unprobed", reason: "no probe could stand for it: the section matches no URL", baseline: null, candidate: null },
];

export const PROBE_CELLS: ReportProbeCell[] = PROBES.map((p, i) => ({
  request: p.request,
  cell: `${VHOST}|${p.region}|${p.client}|${p.credentials}|${p.method}#${i}`,
  vhost: VHOST,
  region: p.region,
  client: p.client,
  credentials: p.credentials,
  user: p.user,
  method: p.method,
  path: p.path,
  class: p.class,
  reason: p.reason ?? null,
  proven: p.class === "equal",
  baseline: p.baseline,
  candidate: p.candidate,
}));

const STATUS: Record<string, [number | null, number | null]> = {
  "admin-outsider-get": [403, 200],
  "admin-outsider-head": [403, 200],
  "admin-admin-get": [200, 200],
  "cgi-outsider-get": [200, 200],
  "index-outsider-get": [200, 403],
  "index-admin-get": [500, 503],
  "index-wrong-get": [401, 403],
  "hostile-outsider-get": [null, null],
  "hostile-wrong-get": [401, 401],
};

const BODIES: Record<string, [string | null, string | null]> = {
  "admin-outsider-get": ["<html><title>403 Forbidden</title></html>\n", "probe m-41\nsecond line\n3\n4\n5\n6\nseventh line, past the start\n"],
};

const requests: ReportRequest[] = Object.entries(STATUS).map(([name, [a, b]]) => ({
  name,
  client: "outsider",
  sent: `GET ${PROBES.find((p) => p.request === name)!.path}`,
  baseline: side(a, BODIES[name]?.[0] ?? null),
  candidate: side(b, BODIES[name]?.[1] ?? null),
  differences: [],
}));

function finding(rule: string, security: boolean, request: string, config: ReportFinding["config"], evidence: string[]): ReportFinding {
  return {
    rule,
    severity: security ? "security" : "unexplained",
    security,
    title: security ? "2.4 grants what 2.2 refused" : "2.4 refuses what 2.2 granted",
    candidate: "candidate",
    config,
    requests: { count: 1, examples: [request] },
    evidence,
    confirmed: null,
    predicted: false,
    gating: true,
    differences: [{ request, field: "status", baseline: 403, candidate: 200, class: "regression", seed: [], reason: "no rule predicts it" }],
  };
}

export function probeScenario(): ReportScenario {
  const base = structuredClone(sampleReport.scenarios.find((s) => s.id === "a6-server-status-denied")!);
  return {
    ...base,
    id: "p1-probe-config",
    title: "probes of conf/httpd.conf",
    seed: [],
    verdict: "regression",
    requests,
    findings: [
      finding("access-widened", true, "admin-outsider-get", [{ file: "sites-enabled/admin.conf", line: 7, directive: "Require all granted" }], ["status 403 → 200 on GET /admin/probe.html"]),
      finding("access-narrowed", false, "index-outsider-get", [{ file: "conf/httpd.conf", line: 40, directive: "Order deny,allow" }], ["status 200 → 403 on GET /index.html"]),
    ],
    probes: reportProbes(PROBE_CELLS),
  };
}

/** The sample report with the probe run added last (a regression of its own). */
export function probeReport(): Report {
  const { summary } = sampleReport;
  return {
    ...sampleReport,
    scenarios: [...sampleReport.scenarios, probeScenario()],
    summary: { ...summary, scenarios: summary.scenarios + 1, regressions: summary.regressions + 1, byVerdict: { ...summary.byVerdict, regression: summary.byVerdict.regression + 1 } },
  };
}
