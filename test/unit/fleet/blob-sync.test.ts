// The journal's entry lines reach the disk together within a second (one fsync for many configs), the manifest,
// sides and end line at once; every line is readable from the file as soon as it is written.
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

const synced = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  return {
    ...fs,
    fsyncSync: (fd: number) => {
      synced.count++;
      fs.fsyncSync(fd);
    },
  };
});

const { BlobWriter, readBlob } = await import("../../../harness/fleet/blob.ts");
const { sampleReport } = await import("../../fixtures/reports/sample-report.ts");
const { fleetFixture, manifestOf, SIDES, tempDir } = await import("./fleet-blobs.ts");

afterEach(() => {
  vi.useRealTimers();
});

describe("the journal's flushes", () => {
  it("put entry lines on disk together within a second, and the other lines at once", () => {
    vi.useFakeTimers();
    const fixture = fleetFixture(sampleReport.scenarios, 1);
    const path = join(tempDir(), "shard.blob");
    synced.count = 0;
    const writer = BlobWriter.create(path, manifestOf(fixture, 1));
    writer.writeSides(SIDES);
    expect(synced.count).toBe(2);
    for (const entry of fixture.entries) writer.writeEntry(entry);
    // Written, readable, not flushed yet.
    expect(synced.count).toBe(2);
    expect(readBlob(path).entries).toHaveLength(fixture.entries.length);
    vi.advanceTimersByTime(1_000);
    expect(synced.count).toBe(3);
    writer.writeEntry(fixture.entries[0]!);
    writer.finish({ durationMs: 1, engines: null });
    // The end line flushes what waited with it, once; nothing is left to flush after the close.
    expect(synced.count).toBe(4);
    vi.advanceTimersByTime(5_000);
    expect(synced.count).toBe(4);
    expect(readBlob(path).intact).toBe(true);
  });
});
