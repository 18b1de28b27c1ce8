// Pure: one copy of each string across many parsed values. A fleet's report keeps an outline of every config's
// scenario while it streams the details (cli/fleet-reports.ts), and JSON.parse gives each its own copies of texts
// that a fleet repeats from config to config (a rule's title, cause and fix, a guide note, a status line, a
// request's name): at 1,000 configs some 7 million characters in a quarter of a million strings, of which half a
// million characters differ.
export class StringPool {
  readonly #strings = new Map<string, string>();

  /** The pooled copy of `text`. */
  string(text: string): string {
    const pooled = this.#strings.get(text);
    if (pooled !== undefined) return pooled;
    this.#strings.set(text, text);
    return text;
  }

  /** `value` (parsed JSON: objects, arrays, strings and scalars) with every string in it, values and not keys,
   * replaced by its pooled copy, in place. */
  intern<T>(value: T): T {
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === "string") return this.string(value);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) value[index] = this.#walk(value[index]);
      return value;
    }
    if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.#walk(record[key]);
    }
    return value;
  }
}
