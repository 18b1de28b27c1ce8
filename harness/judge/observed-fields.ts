// Pure: flattens what one side observed into comparable fields, with volatile parts already normalised
// (the log parser normalises messages; config-test line numbers depend on each version's base config).
// A field is compared by its `compare` key and shown by its `shown` text: a body is compared by length and
// SHA-256 of every byte, and shown as the text kept of it, so two bodies are never "same" when bytes differ.
import { eventFamily } from "../logs/message-map.ts";
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { RequestOutcome, SideObservation } from "../observe/observation.ts";

export interface ObservedField {
  compare: string;
  shown: string;
}

export type FieldMap = Map<string, ObservedField>;

const WARNING_LEVELS = new Set(["emerg", "alert", "crit", "error", "warn"]);

export function logKey(record: ErrorLogRecord): string {
  const family = eventFamily(record.event);
  return family ?? `${record.level ?? "-"} ${record.normalized}`;
}

export function logFieldValue(records: ErrorLogRecord[]): string | null {
  if (records.length === 0) return null;
  // 2.4 can log one denial twice (AH01797 then AH01630): an event counts once per request.
  return [...new Set(records.map(logKey))].sort().join("\n");
}

function set(fields: FieldMap, name: string, value: string | null): void {
  if (value !== null) fields.set(name, { compare: value, shown: value });
}

export function requestFields(outcome: RequestOutcome, errorLog: ErrorLogRecord[]): FieldMap {
  const fields: FieldMap = new Map();
  set(fields, "outcome", outcome.kind === "transport-error" ? `transport-error ${outcome.code}` : outcome.kind);
  if (outcome.kind === "response") {
    set(fields, "status", String(outcome.status));
    set(fields, "httpVersion", outcome.httpVersion);
    for (const [name, value] of outcome.headers) {
      const key = `header:${name.toLowerCase()}`;
      const previous = fields.get(key)?.shown;
      set(fields, key, previous === undefined ? value : `${previous}, ${value}`);
    }
    fields.set("body", { compare: `${outcome.bodyBytes} ${outcome.bodySha256}`, shown: outcome.body });
  }
  if (outcome.kind === "exec") set(fields, "exec", `exit ${outcome.exitCode}\n${outcome.stdout}`);
  set(fields, "errorLog", logFieldValue(errorLog));
  return fields;
}

export function serverFields(observation: SideObservation): FieldMap {
  const fields: FieldMap = new Map();
  const messages = observation.configTest.messages.map((m) => m.replace(/line \d+/g, "line <n>").replace(/\.conf:\d+/g, ".conf:<n>"));
  set(fields, "configTest", `${observation.configTest.ok ? "ok" : "failed"}\n${messages.join("\n")}`);
  const failure = observation.startFailure;
  set(fields, "started", failure ? `false (exit ${failure.exitCode ?? "?"})` : String(observation.started));
  set(fields, "missingModules", observation.missingModules.length ? observation.missingModules.join(", ") : null);
  const warnings = (records: ErrorLogRecord[]): ErrorLogRecord[] => records.filter((r) => r.level !== null && WARNING_LEVELS.has(r.level));
  set(fields, "startupLog", logFieldValue(warnings(observation.startupLog)));
  // What the server logged after the last request (late errors of a request, a child crashing).
  set(fields, "trailingLog", logFieldValue(warnings(observation.trailingLog)));
  return fields;
}

/** Fields whose values differ between two maps. */
export function differingFields(a: FieldMap, b: FieldMap): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => (a.get(name)?.compare ?? null) !== (b.get(name)?.compare ?? null));
}

const WINDOW_BEFORE = 80;
const WINDOW_AFTER = 400;

/** How two differing bodies are shown: the window around their first differing character, or, when the text
 * kept of both is the same, their lengths and digests (they differ past what was kept). */
export function bodyDifference(a: ObservedField | undefined, b: ObservedField | undefined): { baseline: string | null; candidate: string | null } {
  if (!a || !b) return { baseline: a?.shown ?? null, candidate: b?.shown ?? null };
  let index = 0;
  while (index < a.shown.length && index < b.shown.length && a.shown[index] === b.shown[index]) index++;
  if (index === a.shown.length && index === b.shown.length) {
    const [aBytes, aSha] = a.compare.split(" ");
    const [bBytes, bSha] = b.compare.split(" ");
    const note = (bytes?: string, sha?: string): string => `(the first ${a.shown.length} characters kept are the same; ${bytes} bytes, sha256 ${sha?.slice(0, 16)}…)`;
    return { baseline: note(aBytes, aSha), candidate: note(bBytes, bSha) };
  }
  if (a.shown.length <= WINDOW_BEFORE + WINDOW_AFTER && b.shown.length <= WINDOW_BEFORE + WINDOW_AFTER) return { baseline: a.shown, candidate: b.shown };
  const from = Math.max(0, index - WINDOW_BEFORE);
  const cut = (text: string): string => `${from > 0 ? `…(from character ${from}) ` : ""}${text.slice(from, index + WINDOW_AFTER)}${text.length > index + WINDOW_AFTER ? "…" : ""}`;
  return { baseline: cut(a.shown), candidate: cut(b.shown) };
}
