// A finished journal's entries read from disk as a report needs them, so no list of them is held: one pass in
// file order (the order they finished) noting where each entry's line is, then any entry read again by that
// place. Used by `fleet` to write its reports from the journal entry by entry; the journal is whole (its end
// line was written by this process), so its lines are trusted.
import { closeSync, openSync, readSync } from "node:fs";
import { HarnessError } from "../errors.ts";
import { fileLines, type LinePlace } from "./file-lines.ts";
import type { FleetEntry } from "./blob.ts";

/** Where an entry's line is in the journal. */
export type EntryPlace = LinePlace;

/** Each entry of the journal in file order, with the place of its line. */
export function* journalEntries(path: string): Generator<{ entry: FleetEntry; place: EntryPlace }> {
  for (const { line, place } of fileLines(path)) {
    if (!line.startsWith('{"kind":"entry"')) continue;
    const { kind: _kind, ...entry } = JSON.parse(line) as FleetEntry & { kind: string };
    yield { entry, place };
  }
}

/** The entries at these places, in this order, each read when the caller gets to it. */
export function* entriesAt(path: string, places: readonly EntryPlace[]): Generator<FleetEntry> {
  const fd = openSync(path, "r");
  try {
    for (const place of places) {
      const buffer = Buffer.alloc(place.length);
      if (readSync(fd, buffer, 0, place.length, place.offset) !== place.length) {
        throw new HarnessError("HARNESS_BLOB", `${path}: cut short while its reports were written (an entry at byte ${place.offset} is gone).`);
      }
      const { kind: _kind, ...entry } = JSON.parse(buffer.toString("utf8")) as FleetEntry & { kind: string };
      yield entry;
    }
  } finally {
    closeSync(fd);
  }
}
