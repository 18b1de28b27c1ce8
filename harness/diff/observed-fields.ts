// Pure: flattens what one side observed into comparable fields, with volatile parts already normalised
// (the log parser normalises messages; config-test line numbers depend on each version's base config).
import { eventFamily } from "../logs/message-map.ts";
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { RequestOutcome, SideObservation } from "../run/observation.ts";

export type FieldMap = Map<string, string | null>;

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

export function requestFields(outcome: RequestOutcome, errorLog: ErrorLogRecord[]): FieldMap {
  const fields: FieldMap = new Map();
  fields.set("outcome", outcome.kind === "transport-error" ? `transport-error ${outcome.code}` : outcome.kind);
  if (outcome.kind === "response") {
    fields.set("status", String(outcome.status));
    for (const [name, value] of outcome.headers) {
      const key = `header:${name.toLowerCase()}`;
      const previous = fields.get(key);
      fields.set(key, previous == null ? value : `${previous}, ${value}`);
    }
    fields.set("body", outcome.body);
  }
  if (outcome.kind === "exec") fields.set("exec", `exit ${outcome.exitCode}\n${outcome.stdout}`);
  fields.set("errorLog", logFieldValue(errorLog));
  return fields;
}

export function serverFields(observation: SideObservation): FieldMap {
  const fields: FieldMap = new Map();
  const messages = observation.configTest.messages.map((m) => m.replace(/line \d+/g, "line <n>").replace(/\.conf:\d+/g, ".conf:<n>"));
  fields.set("configTest", `${observation.configTest.ok ? "ok" : "failed"}\n${messages.join("\n")}`);
  fields.set("started", String(observation.started));
  fields.set("missingModules", observation.missingModules.length ? observation.missingModules.join(", ") : null);
  fields.set("startupLog", logFieldValue(observation.startupLog.filter((r) => r.level !== null && WARNING_LEVELS.has(r.level))));
  return fields;
}

/** Fields whose values differ between two maps. */
export function differingFields(a: FieldMap, b: FieldMap): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => (a.get(name) ?? null) !== (b.get(name) ?? null));
}
