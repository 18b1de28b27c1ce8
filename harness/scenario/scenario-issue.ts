// One problem found in a scenario file, and the HarnessError that reports all of a file's problems at once.
// Each problem reads: where (line:column and key path), what is wrong, what was expected, an example, and the
// value received (truncated).
import { HarnessError, type HarnessErrorCode, type SourcePosition } from "../errors.ts";
import type { PathSegment } from "./yaml-locator.ts";

export interface ScenarioIssue {
  position: SourcePosition;
  /** The key path of the offending value; null for YAML syntax errors. */
  path: readonly PathSegment[] | null;
  /** What is wrong, e.g. `unknown client "denied"`. */
  problem: string;
  expected?: string;
  /** YAML the user could write instead; may span lines. */
  example?: string;
  /** The offending value, when there is one. */
  received?: { value: unknown };
  hint?: string;
}

export const FORMAT_HINT = "The scenario format is described in docs/scenario-format.md.";
const RECEIVED_LIMIT = 80;

/** `requests[0].expect["2.4"].status`; the empty path is "(top level)". */
export function formatPath(path: readonly PathSegment[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text === "" ? "(top level)" : text;
}

/** The value as YAML-ish JSON, cut to a readable length. */
export function formatReceived(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > RECEIVED_LIMIT ? `${text.slice(0, RECEIVED_LIMIT - 1)}…` : text;
}

function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((line, index) => (index === 0 ? line : `${by}${line}`))
    .join("\n");
}

function formatIssueBody(issue: ScenarioIssue, pad: string): string {
  const lines = [issue.path === null ? issue.problem : `${formatPath(issue.path)}: ${issue.problem}`];
  if (issue.expected !== undefined) lines.push(`${pad}expected: ${indent(issue.expected, `${pad}          `)}`);
  if (issue.example !== undefined) lines.push(`${pad}example:  ${indent(issue.example, `${pad}          `)}`);
  if (issue.received !== undefined) lines.push(`${pad}received: ${formatReceived(issue.received.value)}`);
  return lines.join("\n");
}

export function compareIssues(a: ScenarioIssue, b: ScenarioIssue): number {
  return a.position.line - b.position.line || a.position.column - b.position.column;
}

/** All problems of one file as one error: sorted by position, positioned at the first. */
export function scenarioIssuesError(code: HarnessErrorCode, file: string, issues: readonly ScenarioIssue[]): HarnessError {
  const sorted = [...issues].sort(compareIssues);
  const first = sorted[0];
  if (first === undefined) throw new Error("scenarioIssuesError needs at least one issue");
  let message: string;
  if (sorted.length === 1) {
    message = `${file}:${first.position.line}:${first.position.column}: ${formatIssueBody(first, "  ")}`;
  } else {
    const parts = sorted.map((issue) => `  ${issue.position.line}:${issue.position.column} ${formatIssueBody(issue, "      ")}`);
    message = `${file}: ${sorted.length} problems\n${parts.join("\n")}`;
  }
  const hints = [...new Set(sorted.flatMap((issue) => (issue.hint === undefined ? [] : [issue.hint])))];
  return new HarnessError(code, message, { position: first.position, hint: [...hints, FORMAT_HINT].join(" ") });
}
