// Pure: compares a candidate with the baseline in one scenario run and classifies every difference.
import type { RequestObservation, SideObservation } from "../observe/observation.ts";
import type { ResponseExpectation, Scenario, ServerExpectation } from "../scenario/scenario.ts";
import { statedFor } from "../scenario/stated-for.ts";
import type { Family } from "../versions/httpd-version.ts";
import type { Difference } from "./difference.ts";
import { findKnownDifference } from "./known-differences.ts";
import { isStatusPage, STATUS_PAGE_REASON } from "../rules/expected-differences.ts";
import { bodyDifference, differingFields, type FieldMap, requestFields, serverFields } from "./observed-fields.ts";

export interface ScenarioDiff {
  server: Difference[];
  requests: Array<{ name: string; differences: Difference[] }>;
}

interface ClassifyContext {
  scenario: Scenario;
  request: string | null;
  noisy: Set<string>;
  /** Fields whose values say nothing of the config here, with why (both answers are status pages). */
  volatile: ReadonlyMap<string, string>;
  /** Fields on which the scenario states something different for each version, and both sides met it. */
  predictedByExpectations: Set<string>;
  /** The seed rows an expectation-explained difference is credited to (none where the guide is wrong). */
  credit: string[];
  baselineStatus: number | null;
  candidateStatus: number | null;
  baselineFamily: Family;
  candidateFamily: Family;
}

function fieldMatches(ruleField: string, field: string): boolean {
  return ruleField.toLowerCase() === field.toLowerCase();
}

export function classify(field: string, baseline: string | null, candidate: string | null, ctx: ClassifyContext): Difference {
  const base = { field, baseline, candidate };
  const ignore = ctx.scenario.ignore.find((rule) => fieldMatches(rule.field, field));
  if (ignore) return { ...base, class: "noise", seed: [], reason: `ignored: ${ignore.reason}` };
  if (ctx.noisy.has(field)) return { ...base, class: "noise", seed: [], reason: "it also differs between two answers of one side" };
  const volatile = ctx.volatile.get(field);
  if (volatile !== undefined) return { ...base, class: "noise", seed: [], reason: volatile };
  const predicted = ctx.scenario.predicted.find((p) => fieldMatches(p.field, field) && (p.request === null || p.request === ctx.request));
  if (predicted) return { ...base, class: "expected-change", seed: predicted.seed, reason: "the scenario names the seed rows that predict it" };
  if (ctx.predictedByExpectations.has(field)) {
    const why = "each side meets what the scenario states for its version";
    return { ...base, class: "expected-change", seed: ctx.credit, reason: ctx.credit.length ? why : `${why}; not the guide's prediction: the scenario finds the guide wrong here` };
  }
  const known = findKnownDifference(field, baseline, candidate, ctx);
  if (known) return { ...base, class: known.class, seed: known.seed, reason: known.reason };
  return { ...base, class: "regression", seed: [], reason: "nothing predicts it" };
}

/** What an expectation states about each observed field, as comparable text (source positions left out). */
type Statements = Map<string, string>;

function stated(value: unknown): string {
  return JSON.stringify(value, (key, inner: unknown) => (key === "at" ? undefined : inner));
}

function responseStatements(expectation: ResponseExpectation | undefined): Statements {
  const statements: Statements = new Map();
  if (!expectation) return statements;
  const outcome = stated([expectation.status, expectation.transportError]);
  if (expectation.status !== undefined || expectation.transportError !== undefined) statements.set("status", outcome).set("outcome", outcome);
  for (const header of expectation.headers) statements.set(`header:${header.name.toLowerCase()}`, stated(header));
  if (expectation.body !== undefined) statements.set("body", stated(expectation.body));
  // Lines that must be there, must not be there, or none at all: each is a statement about the error log.
  if (expectation.errorLog.length > 0 || expectation.noErrorLog.length > 0 || expectation.errorLogEmpty) {
    statements.set("errorLog", stated([expectation.errorLog, expectation.noErrorLog, expectation.errorLogEmpty]));
  }
  if (expectation.exitCode !== undefined || expectation.stdout !== undefined) statements.set("exec", stated([expectation.exitCode, expectation.stdout]));
  return statements;
}

function serverStatements(expectation: ServerExpectation | undefined): Statements {
  const statements: Statements = new Map();
  if (!expectation) return statements;
  // The config test's output carries the same warnings the start-up log does, and startupLog matchers are
  // checked against both: a startupLog statement speaks about the configTest field too.
  if (expectation.configTestOk !== undefined || expectation.configTestMessages.length > 0 || expectation.startupLog.length > 0) {
    statements.set("configTest", stated([expectation.configTestOk, expectation.configTestMessages, expectation.startupLog]));
  }
  if (expectation.started !== undefined) statements.set("started", stated(expectation.started));
  if (expectation.startupLog.length > 0) statements.set("startupLog", stated(expectation.startupLog));
  return statements;
}

/** Fields on which the scenario states something different for each side's version: a difference there is
 * what the scenario predicts. A statement both versions share (from `both`) predicts sameness, not a change. */
function predictedChanges(a: Statements, b: Statements): Set<string> {
  return new Set([...a.keys()].filter((field) => b.has(field) && a.get(field) !== b.get(field)));
}

function noiseOf(observed: RequestObservation): Set<string> {
  if (!observed.repeat) return new Set();
  return new Set(differingFields(requestFields(observed.outcome, observed.errorLog), requestFields(observed.repeat, observed.repeatErrorLog ?? [])));
}

/** Both answers are the same status page: its body and length show each server's state, not the config. */
function statusPages(b: RequestObservation["outcome"], c: RequestObservation["outcome"]): ReadonlyMap<string, string> {
  if (b.kind !== "response" || c.kind !== "response" || b.status !== c.status || !isStatusPage(b.body) || !isStatusPage(c.body)) return new Map();
  return new Map([["body", STATUS_PAGE_REASON]]);
}

function statusOf(fields: FieldMap): number | null {
  const status = fields.get("status");
  return status === undefined ? null : Number(status.compare);
}

export interface DiffInput {
  scenario: Scenario;
  baseline: SideObservation;
  candidate: SideObservation;
  /** Per side: whether it met its stated expectations for a request (or, with null, the server). */
  met: { baseline: (request: string | null) => boolean; candidate: (request: string | null) => boolean };
  /** The scenario found the guide wrong: differences its expectations explain are not credited to the rows. */
  guideWrong: boolean;
}

/** Compares one candidate with the baseline. */
export function diffScenario({ scenario, baseline, candidate, met, guideWrong }: DiffInput): ScenarioDiff {
  const bVersion = baseline.server.version;
  const cVersion = candidate.server.version;
  const credit = guideWrong ? [] : scenario.seed;

  const serverCovered = met.baseline(null) && met.candidate(null)
    ? predictedChanges(serverStatements(statedFor(scenario.expect, bVersion)), serverStatements(statedFor(scenario.expect, cVersion)))
    : new Set<string>();
  const serverDiffs = diffFields(serverFields(baseline), serverFields(candidate), {
    scenario,
    request: null,
    noisy: new Set(),
    volatile: new Map(),
    predictedByExpectations: serverCovered,
    credit,
    baselineStatus: null,
    candidateStatus: null,
    baselineFamily: bVersion.family,
    candidateFamily: cVersion.family,
  });

  // When one side did not start, its requests were not sent: the request-level difference is the server's,
  // so it takes the class of the server-level difference that explains it (started / configTest).
  const serverCause = serverDiffs.find((d) => d.field === "started") ?? serverDiffs.find((d) => d.field === "configTest");

  const requests = scenario.requests.map((request) => {
    const b = baseline.requests.find((r) => r.name === request.name);
    const c = candidate.requests.find((r) => r.name === request.name);
    if (!b || !c) return { name: request.name, differences: [] };
    if (b.outcome.kind === "not-run" || c.outcome.kind === "not-run") {
      if (b.outcome.kind === c.outcome.kind) return { name: request.name, differences: [] };
      const describe = (o: RequestObservation["outcome"]): string => (o.kind === "not-run" ? `not-run: ${o.reason}` : o.kind === "response" ? `status ${o.status}` : o.kind);
      const difference: Difference = serverCause
        ? { field: "outcome", baseline: describe(b.outcome), candidate: describe(c.outcome), class: serverCause.class, seed: serverCause.seed, reason: `one side did not start (${serverCause.reason})` }
        : { field: "outcome", baseline: describe(b.outcome), candidate: describe(c.outcome), class: "regression", seed: [], reason: "one side did not answer" };
      return { name: request.name, differences: [difference] };
    }
    const bFields = requestFields(b.outcome, b.errorLog);
    const cFields = requestFields(c.outcome, c.errorLog);
    const covered = met.baseline(request.name) && met.candidate(request.name)
      ? predictedChanges(responseStatements(statedFor(request.expect, bVersion)), responseStatements(statedFor(request.expect, cVersion)))
      : new Set<string>();
    const differences = diffFields(bFields, cFields, {
      scenario,
      request: request.name,
      noisy: new Set([...noiseOf(b), ...noiseOf(c)]),
      volatile: statusPages(b.outcome, c.outcome),
      predictedByExpectations: covered,
      credit,
      baselineStatus: statusOf(bFields),
      candidateStatus: statusOf(cFields),
      baselineFamily: bVersion.family,
      candidateFamily: cVersion.family,
    });
    return { name: request.name, differences };
  });
  return { server: serverDiffs, requests };
}

/** Headers and body that describe the response: when the status changes they change with it, and a
 * difference there is the status difference seen again, not a second finding. */
const FOLLOW_STATUS = new Set([
  "httpVersion",
  "body",
  "header:content-length",
  "header:content-type",
  "header:etag",
  "header:last-modified",
  "header:accept-ranges",
  "header:connection",
  "header:keep-alive",
  "header:transfer-encoding",
  "header:vary",
  "header:content-encoding",
  "header:www-authenticate",
]);

/** How a body is delimited on the wire, which says nothing of what it is. */
const FRAMING = new Set(["header:content-length", "header:transfer-encoding"]);

function diffFields(a: FieldMap, b: FieldMap, ctx: ClassifyContext): Difference[] {
  const differences = differingFields(a, b).map((field) => {
    const difference = classify(field, a.get(field)?.shown ?? null, b.get(field)?.shown ?? null, ctx);
    return field === "body" ? { ...difference, ...bodyDifference(a.get(field), b.get(field)) } : difference;
  });
  const cause = differences.find((d) => d.field === "status" && d.class !== "regression") ?? differences.find((d) => d.field === "outcome" && d.class !== "regression");
  // A changed body changes its length: Content-Length follows the body's class instead of standing alone.
  const body = differences.find((d) => d.field === "body");
  return differences.map((d) => {
    if (d.class !== "regression") return d;
    if (cause && FOLLOW_STATUS.has(d.field)) return { ...d, class: cause.class, seed: cause.seed, reason: `follows the ${cause.field} (${cause.reason})` };
    if (d.field === "header:content-length" && body && body.class !== "regression") {
      return { ...d, class: body.class, seed: body.seed, reason: `follows the body (${body.reason})` };
    }
    // The same body framed two ways: httpd picks a length or chunks per response (a CGI script's output is sent
    // either way from one request to the next, on 2.2.34 and on 2.4.68 alike); the client gets the same bytes.
    if (FRAMING.has(d.field) && body === undefined && a.has("body") && b.has("body") && !differences.some((x) => x.field === "status" || x.field === "outcome")) {
      return { ...d, class: "noise", seed: [], reason: "framing only: the same body, with a Content-Length on one side and chunked on the other" };
    }
    return d;
  });
}
