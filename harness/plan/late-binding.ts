// Values only the engine knows (container addresses, the network's gateway) stand in a plan as slots,
// written ⟪name⟫ so that a printed plan shows where they go; observe binds them once the containers exist.
// The brackets are no part of httpd's or the shell's syntax, so a slot never collides with config text.

const OPEN = "⟪";
const CLOSE = "⟫";
const SLOT = /⟪([A-Za-z0-9_.-]+)⟫/g;

export function slot(name: string): string {
  return `${OPEN}${name}${CLOSE}`;
}

/** The slot names a text holds, each once. */
export function slotsIn(text: string): string[] {
  return [...new Set([...text.matchAll(SLOT)].map((match) => match[1]!))];
}

/** Replaces every slot with its value; a slot with no value is a bug of the caller (every slot a plan makes
 * is bound by observe), so it throws. */
export function bindSlots(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(SLOT, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${whole}`);
    return value;
  });
}

/** Binds every string inside a JSON-like value (plan parts: files, requests, commands). */
export function bindAll<T>(value: T, values: Readonly<Record<string, string>>): T {
  if (typeof value === "string") return bindSlots(value, values) as T;
  if (Array.isArray(value)) return value.map((item) => bindAll(item, values)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, bindAll(inner, values)])) as T;
  }
  return value;
}
