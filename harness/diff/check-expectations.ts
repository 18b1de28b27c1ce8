// Pure: does one side's observation meet what the scenario states for its version (or what the guide
// claims)? Returns every unmet point, each naming the scenario line it comes from.
import { formatPosition } from "../errors.ts";
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { RequestObservation, SideObservation } from "../run/observation.ts";
import type { ErrorLogMatcher, Family, ResponseExpectation, Scenario, ServerExpectation } from "../scenario/scenario.ts";
import { matchesText as matchText } from "../scenario/text-matcher.ts";
import { describeMatcher } from "./describe-matcher.ts";

export interface ExpectationCheck {
  /** Whether the scenario states anything for this version at all. */
  stated: boolean;
  failures: string[];
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

function where(at: { file: string; line: number; column: number }): string {
  return ` (${formatPosition(at)})`;
}

function checkServer(expectation: ServerExpectation, observation: SideObservation): string[] {
  const failures: string[] = [];
  const at = where(expectation.at);
  if (expectation.configTestOk !== undefined && observation.configTest.ok !== expectation.configTestOk) {
    failures.push(
      `config test: expected ${expectation.configTestOk ? "to pass" : "to fail"}, it ${observation.configTest.ok ? "passed" : "failed"}: ${observation.configTest.messages.join(" | ")}${at}`,
    );
  }
  for (const matcher of expectation.configTestMessages) {
    if (!observation.configTest.messages.some((m) => matchText(matcher, m))) {
      failures.push(`config test: expected a message ${describeMatcher(matcher)}, got: ${observation.configTest.messages.join(" | ") || "(none)"}${at}`);
    }
  }
  if (expectation.started !== undefined && observation.started !== expectation.started) {
    failures.push(`server: expected it ${expectation.started ? "to start" : "not to start"}, it ${observation.started ? "started" : "did not"}${at}`);
  }
  const startup = [...observation.configTest.records, ...observation.startupLog];
  for (const matcher of expectation.startupLog) {
    if (!startup.some((r) => recordMatches(matcher, r))) {
      failures.push(`startup log: expected ${describeLogMatcher(matcher)}; got: ${startup.map((r) => r.raw).join(" | ") || "(none)"}${where(matcher.at)}`);
    }
  }
  for (const matcher of expectation.noStartupLog) {
    const hit = startup.find((r) => recordMatches(matcher, r));
    if (hit) failures.push(`startup log: expected no ${describeLogMatcher(matcher).replace(/^a line/, "line")}; got: ${hit.raw}${where(matcher.at)}`);
  }
  return failures;
}

function checkRequest(name: string, expectation: ResponseExpectation, observed: RequestObservation): string[] {
  const failures: string[] = [];
  const at = where(expectation.at);
  const prefix = `request ${name}`;
  const outcome = observed.outcome;
  if (outcome.kind === "not-run") return [`${prefix}: not run (${outcome.reason})${at}`];
  if (expectation.transportError !== undefined) {
    if (outcome.kind !== "transport-error" || !matchText(expectation.transportError, outcome.code)) {
      failures.push(`${prefix}: expected a transport error ${describeMatcher(expectation.transportError)}, got ${summarize(observed)}${at}`);
    }
  }
  if (outcome.kind === "exec") {
    if (expectation.exitCode !== undefined && outcome.exitCode !== expectation.exitCode) {
      failures.push(`${prefix}: expected exit status ${expectation.exitCode}, got ${outcome.exitCode} (${outcome.stderr.trim()})${at}`);
    }
    if (expectation.stdout !== undefined && !matchText(expectation.stdout, outcome.stdout)) {
      failures.push(`${prefix}: expected output ${describeMatcher(expectation.stdout)}, got ${JSON.stringify(outcome.stdout.slice(0, 200))}${at}`);
    }
  }
  const response = outcome.kind === "response" ? outcome : null;
  if (expectation.status !== undefined && response?.status !== expectation.status) {
    failures.push(`${prefix}: expected status ${expectation.status}, got ${summarize(observed)}${at}`);
  }
  for (const header of expectation.headers) {
    const values = response?.headers.filter(([n]) => n.toLowerCase() === header.name.toLowerCase()).map(([, v]) => v) ?? [];
    if (header.absent && values.length > 0) failures.push(`${prefix}: expected no ${header.name} header, got ${JSON.stringify(values.join(", "))}${at}`);
    if (!header.absent && header.value && !values.some((v) => matchText(header.value!, v))) {
      failures.push(`${prefix}: expected header ${header.name} ${describeMatcher(header.value)}, got ${values.length ? JSON.stringify(values.join(", ")) : "none"}${at}`);
    }
    if (!header.absent && !header.value && values.length === 0) failures.push(`${prefix}: expected a ${header.name} header, got none${at}`);
  }
  if (expectation.body !== undefined && !(response && matchText(expectation.body, response.body))) {
    failures.push(`${prefix}: expected a body ${describeMatcher(expectation.body)}, got ${JSON.stringify((response?.body ?? "").slice(0, 160))}${at}`);
  }
  if (expectation.connectionReused !== undefined && response?.connectionReused !== expectation.connectionReused) {
    failures.push(`${prefix}: expected the connection ${expectation.connectionReused ? "to be reused" : "not to be reused"}, it ${response?.connectionReused ? "was" : "was not"}${at}`);
  }
  for (const matcher of expectation.errorLog) {
    if (!observed.errorLog.some((r) => recordMatches(matcher, r))) {
      failures.push(`${prefix}: expected in the error log ${describeLogMatcher(matcher)}; got: ${observed.errorLog.map((r) => r.raw).join(" | ") || "(no line)"}${where(matcher.at)}`);
    }
  }
  for (const matcher of expectation.noErrorLog) {
    const hit = observed.errorLog.find((r) => recordMatches(matcher, r));
    if (hit) failures.push(`${prefix}: expected no ${describeLogMatcher(matcher).replace(/^a line/, "line")}; got: ${hit.raw}${where(matcher.at)}`);
  }
  if (expectation.errorLogEmpty && observed.errorLog.length > 0) {
    failures.push(`${prefix}: expected no error-log line, got: ${observed.errorLog.map((r) => r.raw).join(" | ")}${at}`);
  }
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

/** Checks `scenario.expect` (which = "expect") or `scenario.guide` (which = "guide") for one side. */
export function checkExpectations(scenario: Scenario, observation: SideObservation, which: "expect" | "guide"): ExpectationCheck {
  const family: Family = observation.server.family;
  const serverExpectation = scenario[which][family];
  // A prepare command that fails leaves the server without what the scenario meant it to have.
  const failures: string[] =
    which === "expect"
      ? observation.prepare.flatMap((step, index) =>
          step.exitCode === 0 ? [] : [`prepare command ${index + 1} exited ${step.exitCode}: ${step.stdout.trim().split("\n").slice(-3).join(" | ")} (${formatPosition(scenario.server.at)})`],
        )
      : [];
  let stated = serverExpectation !== undefined;
  if (serverExpectation) failures.push(...checkServer(serverExpectation, observation));
  for (const request of scenario.requests) {
    const expectation = request[which][family];
    if (!expectation) continue;
    stated = true;
    const observed = observation.requests.find((r) => r.name === request.name);
    if (!observed) {
      failures.push(`request ${request.name}: no observation`);
      continue;
    }
    failures.push(...checkRequest(request.name, expectation, observed));
  }
  return { stated, failures };
}
