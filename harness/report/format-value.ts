// Turns a Difference's baseline/candidate value (unknown: a status, a header value, log lines, ...) into text.

/** Shown for a value that is absent on one side (null or undefined). */
export const ABSENT = "(absent)";

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return ABSENT;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "(none)";
    return value.map((item) => (typeof item === "string" ? item : JSON.stringify(item) ?? String(item))).join("\n");
  }
  return JSON.stringify(value) ?? String(value);
}

/** Cuts text to `max` characters, marking the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
