// A journal's entries read from disk a chunk at a time: lines longer than a chunk and lines across chunks come
// back whole, each entry's place reads it back alone, and the manifest, sides and end lines are passed over.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FleetEntry } from "../../../harness/fleet/blob.ts";
import { entriesAt, journalEntries } from "../../../harness/fleet/journal-entries.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, manifestOf, tempDir, writeBlob } from "./fleet-blobs.ts";

describe("journalEntries and entriesAt", () => {
  const fixture = fleetFixture(sampleReport.scenarios, 1);
  // Entries of 0.3 to 2.5 MB (past the 1 MiB chunk), with multi-byte text, among small ones.
  const entries: FleetEntry[] = fixture.entries.map((entry, i) => ({
    ...entry,
    scenario: { ...entry.scenario, title: i % 2 === 0 ? `${"é→".repeat(150_000 * (i + 1))} ${i}` : entry.scenario.title },
  }));
  const journal = writeBlob(join(tempDir("journal-entries-"), "journal.jsonl"), { manifest: manifestOf(fixture, 1), entries });

  it("reads every entry in file order, whole", () => {
    expect([...journalEntries(journal)].map(({ entry }) => entry)).toEqual(entries);
  });

  it("reads entries back by their places, in any order", () => {
    const places = [...journalEntries(journal)].map(({ place }) => place).reverse();
    expect([...entriesAt(journal, places)]).toEqual([...entries].reverse());
  });
});
