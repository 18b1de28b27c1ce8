// Pure: does one side's observation meet what the scenario states for its version (or what the guide
// claims)? Returns every unmet point as structured data, each naming the scenario line it comes from.
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { RequestObservation, SideObservation } from "../observe/observation.ts";
import type { ErrorLogMatcher, ResponseExpectation, Scenario, ServerExpectation } from "../scenario/scenario.ts";
import { statedFor } from "../scenario/stated-for.ts";
import { matchesText as matchText } from "../scenario/text-matcher.ts";
import { describeMatcher } from "./describe-matcher.ts";
import type { ExpectationFailure, FailureKind } from "./expectation-failure.ts";

export interface ExpectationCheck {
  /** Whether the scenario states anything for this version at all. */
  stated: boolean;
  failures: ExpectationFailure[];
}

export function recordMatches(matcher: ErrorLogMatcher, record: ErrorLogRecord): boolean {
  if (matcher.code !== undefined && record.code !== matcher.code && record.event !== matcher.code) return false;
  if (matcher.level !== undefined && record.level !== matcher.level) return false;
  if (matcher.module !== undefined && record.module !== matcher.module) return false;
  if (matcher.message !== undefined && !matchText(matcher.message, record.message) && !matchText(matcher.message, record.raw)) return false;
  return true;
}

/** "a line with code AH01797, module access_compat" */
export function describeLogMatcher(matcher: ErrorLogMatcher): string {
  const parts = [
    matcher.code && `code ${matcher.code}`,
    matcher.module && `module ${matcher.module}`,
    matcher.level && `level ${matcher.level}`,
    matcher.message && `message ${describeMatcher(matcher.message)}`,
  ].filter(Boolean);
  return `a line with ${parts.join(", ") || "anything"}`;
}

const lines = (records: readonly ErrorLogRecord[]): string => records.map((r) => r.raw).join(" | ") || "(no line)";
const quoted = (text: string, max: number): string => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

function checkServer(expectation: ServerExpectation, observation: SideObservation): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  const fail = (kind: FailureKind, field: string, expected: string, actual: string, at = expectation.at): void => {
    failures.push({ kind, request: null, field, expected, actual, at });
  };
  const { configTest } = observation;
  if (expectation.configTestOk !== undefined && configTest.ok !== expectation.configTestOk) {
    fail("config-test", "configTest", expectation.configTestOk ? "to pass" : "to fail", `${configTest.ok ? "passed" : "failed"}: ${configTest.messages.join(" | ")}`);
  }
  for (const matcher of expectation.configTestMessages) {
    if (!configTest.messages.some((m) => matchText(matcher, m))) {
      fail("config-test-message", "configTest", `a message ${describeMatcher(matcher)}`, configTest.messages.join(" | ") || "(none)");
    }
  }
  if (expectation.started !== undefined && observation.started !== expectation.started) {
    const why = observation.startFailure ? ` (exit ${observation.startFailure.exitCode ?? "?"}: ${observation.startFailure.logTail.slice(-3).join(" | ")})` : "";
    fail("started", "started", expectation.started ? "to start" : "not to start", observation.started ? "started" : `did not start${why}`);
  }
  const startup = [...configTest.records, ...observation.startupLog];
  for (const matcher of expectation.startupLog) {
    if (!startup.some((r) => recordMatches(matcher, r))) fail("startup-log", "startupLog", describeLogMatcher(matcher), lines(startup), matcher.at);
  }
  for (const matcher of expectation.noStartupLog) {
    const hit = startup.find((r) => recordMatches(matcher, r));
    if (hit) fail("startup-log-unwanted", "startupLog", `no ${describeLogMatcher(matcher).replace(/^a line/, "line")}`, hit.raw, matcher.at);
  }
  return failures;
}

function checkRequest(name: string, expectation: ResponseExpectation, observed: RequestObservation): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  const fail = (kind: FailureKind, field: string, expected: string, actual: string, at = expectation.at): void => {
    failures.push({ kind, request: name, field, expected, actual, at });
  };
  const outcome = observed.outcome;
  if (outcome.kind === "not-run") {
    fail("not-run", "outcome", "an answer", `not run (${outcome.reason})`);
    return failures;
  }
  if (expectation.transportError !== undefined && (outcome.kind !== "transport-error" || !matchText(expectation.transportError, outcome.code))) {
    fail("transport-error", "outcome", `a transport error ${describeMatcher(expectation.transportError)}`, summarize(observed));
  }
  if (outcome.kind === "exec") {
    if (expectation.exitCode !== undefined && outcome.exitCode !== expectation.exitCode) {
      fail("exit-code", "exec", `exit status ${expectation.exitCode}`, `${outcome.exitCode} (${outcome.stderr.trim()})`);
    }
    if (expectation.stdout !== undefined && !matchText(expectation.stdout, outcome.stdout)) {
      fail("stdout", "exec", `output ${describeMatcher(expectation.stdout)}`, quoted(outcome.stdout, 200));
    }
  }
  const response = outcome.kind === "response" ? outcome : null;
  if (expectation.status !== undefined && response?.status !== expectation.status) fail("status", "status", `status ${expectation.status}`, summarize(observed));
  for (const header of expectation.headers) {
    const field = `header:${header.name.toLowerCase()}`;
    const values = response?.headers.filter(([n]) => n.toLowerCase() === header.name.toLowerCase()).map(([, v]) => v) ?? [];
    const seen = values.length ? JSON.stringify(values.join(", ")) : "none";
    if (header.absent && values.length > 0) fail("header-unwanted", field, `no ${header.name} header`, seen);
    if (!header.absent && header.value && !values.some((v) => matchText(header.value!, v))) fail("header", field, `${header.name} ${describeMatcher(header.value)}`, seen);
    if (!header.absent && !header.value && values.length === 0) fail("header", field, `a ${header.name} header`, "none");
  }
  if (expectation.body !== undefined && !(response && matchText(expectation.body, response.body))) {
    fail("body", "body", `a body ${describeMatcher(expectation.body)}`, quoted(response?.body ?? "", 160));
  }
  if (expectation.connectionReused !== undefined && response?.connectionReused !== expectation.connectionReused) {
    fail("connection-reused", "connection", expectation.connectionReused ? "the connection reused" : "a new connection", response?.connectionReused ? "reused" : "not reused");
  }
  for (const matcher of expectation.errorLog) {
    if (!observed.errorLog.some((r) => recordMatches(matcher, r))) fail("error-log", "errorLog", `in the error log ${describeLogMatcher(matcher)}`, lines(observed.errorLog), matcher.at);
  }
  for (const matcher of expectation.noErrorLog) {
    const hit = observed.errorLog.find((r) => recordMatches(matcher, r));
    if (hit) fail("error-log-unwanted", "errorLog", `no ${describeLogMatcher(matcher).replace(/^a line/, "line")}`, hit.raw, matcher.at);
  }
  if (expectation.errorLogEmpty && observed.errorLog.length > 0) fail("error-log-not-empty", "errorLog", "no error-log line", lines(observed.errorLog));
  return failures;
}

export function summarize(observed: RequestObservation): string {
  const o = observed.outcome;
  switch (o.kind) {
    case "response":
      return `status ${o.status}`;
    case "transport-error":
      return `transport error ${o.code}`;
    case "exec":
      return `exit ${o.exitCode}`;
    case "not-run":
      return `not run`;
  }
}

/** Checks `scenario.expect` (which = "expect") or `scenario.guide` (which = "guide") for one side, at the
 * side's own version (a family's statement narrowed by version range). */
export function checkExpectations(scenario: Scenario, observation: SideObservation, which: "expect" | "guide"): ExpectationCheck {
  const version = observation.server.version;
  // A prepare command that fails leaves the server without what the scenario meant it to have.
  const failures: ExpectationFailure[] =
    which === "expect"
      ? observation.prepare.flatMap((step, index): ExpectationFailure[] =>
          step.exitCode === 0
            ? []
            : [{ kind: "prepare", request: null, field: "prepare", expected: `prepare command ${index + 1} to exit 0`, actual: `exit ${step.exitCode}: ${step.stdout.trim().split("\n").slice(-3).join(" | ")}`, at: scenario.server.at }],
        )
      : [];
  const serverExpectation = statedFor(scenario[which], version);
  let stated = serverExpectation !== undefined;
  if (serverExpectation) failures.push(...checkServer(serverExpectation, observation));
  for (const request of scenario.requests) {
    const expectation = statedFor(request[which], version);
    if (!expectation) continue;
    stated = true;
    const observed = observation.requests.find((r) => r.name === request.name);
    if (!observed) {
      failures.push({ kind: "no-observation", request: request.name, field: "outcome", expected: "an observation", actual: "none", at: request.at });
      continue;
    }
    failures.push(...checkRequest(request.name, expectation, observed));
  }
  return { stated, failures };
}
