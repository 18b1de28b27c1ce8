// A line of one view found again in the other by its place (file, line, column): the 2.2 and 2.4 views are
// evaluated apart, so a place is what their lines have in common. Keyed by file, then by line and column as one
// small integer: no string made and hashed per line (rules ask this of tens of thousands of lines).

export interface Place {
  file: string;
  line: number;
  column: number;
}

/** Line and column as one integer while it stays a small one (lines to 2^20, columns to 2^10: below 2^30, so
 * V8 keeps it unboxed, no heap number per key); else a string (a line indented a thousand columns). */
export function placeKey(line: number, column: number): number | string {
  return column < 2 ** 10 && line < 2 ** 20 ? line * 2 ** 10 + column : `${line}:${column}`;
}

export class PlaceMap<T> {
  readonly #byFile = new Map<string, Map<number | string, T>>();

  /** By each item's place; a later item at a place replaces an earlier one (as a Map made from pairs does). */
  static of<T>(items: Iterable<T>, placeOf: (item: T) => Place): PlaceMap<T> {
    const map = new PlaceMap<T>();
    for (const item of items) map.set(placeOf(item), item);
    return map;
  }

  set(place: Place, value: T): void {
    let places = this.#byFile.get(place.file);
    if (!places) this.#byFile.set(place.file, (places = new Map()));
    places.set(placeKey(place.line, place.column), value);
  }

  get(place: Place): T | undefined {
    return this.#byFile.get(place.file)?.get(placeKey(place.line, place.column));
  }

  has(place: Place): boolean {
    return this.#byFile.get(place.file)?.has(placeKey(place.line, place.column)) ?? false;
  }
}
