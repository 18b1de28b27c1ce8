import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { type BlobSides, type ParsedBlob, parseBlob, readBlob } from "../../../harness/fleet/blob.ts";
import type { FleetManifest } from "../../../harness/fleet/manifest.ts";
import { mergeBlobs } from "../../../harness/fleet/merge-blobs.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { entriesOfShard, fleetFixture, manifestOf, SIDES, tempDir, writeBlob, writeShardBlobs } from "./fleet-blobs.ts";

// Seven configs on three shards: site-1, site-4 and site-copy (the same tree as site-1) on 1; site-2, site-5 on
// 2; site-3, site-6 on 3.
const fixture = fleetFixture(sampleReport.scenarios, 3, { copy: true });

function shards(): ParsedBlob[] {
  return writeShardBlobs(fixture).map((path) => readBlob(path));
}

/** A shard's blob written with its manifest, sides or entries changed. */
function shardBlob(index: number, change: { manifest?: (m: FleetManifest) => void; sides?: BlobSides | null; entries?: ParsedBlob["entries"]; finish?: boolean; name?: string } = {}): ParsedBlob {
  const path = join(tempDir(), change.name ?? `shard-${index}.blob`);
  writeBlob(path, { manifest: manifestOf(fixture, index, change.manifest), sides: change.sides, entries: change.entries ?? entriesOfShard(fixture, index), finish: change.finish });
  return readBlob(path);
}

/** The problems merge-reports lists, one a line, from its single HARNESS_BLOB refusal. */
function problems(blobs: readonly ParsedBlob[]): string[] {
  try {
    mergeBlobs(blobs);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    const { code, message } = error as HarnessError;
    expect(code).toBe("HARNESS_BLOB");
    const [head, ...lines] = message.split("\n");
    expect(head).toBe(`merge-reports refuses these blobs (${lines.length} problem${lines.length > 1 ? "s" : ""}):`);
    return lines.map((line) => line.replace(/^ {2}/, ""));
  }
  throw new Error("the blobs were merged");
}

describe("mergeBlobs", () => {
  it("puts the entries of every shard back in the fleet's order, whatever order the blobs come in", () => {
    const [one, two, three] = shards();
    const merged = mergeBlobs([three!, one!, two!]);
    expect(merged.entries.map((e) => e.config)).toEqual(["site-1", "site-2", "site-3", "site-4", "site-5", "site-6", "site-copy"]);
    expect(merged.entries).toEqual(JSON.parse(JSON.stringify(fixture.entries)));
    expect(merged.manifest).toEqual(manifestOf(fixture, 1));
    expect(merged.sides).toEqual(SIDES);
    expect([merged.durationMs, merged.engines]).toEqual([42_000, null]);
  });

  it("takes the earliest start, the longest shard's duration and every engine's scenarios", () => {
    const dir = tempDir();
    const paths = [1, 2, 3].map((index) => {
      const sides = { ...SIDES, startedAt: `2026-11-21T22:4${index}:00.000Z` };
      const path = join(dir, `shard-${index}.blob`);
      writeBlob(path, { manifest: manifestOf(fixture, index), sides, entries: entriesOfShard(fixture, index), durationMs: [5_000, 9_000, 7_000][index - 1] });
      return path;
    });
    // Engines are written by a run that spread over several; set them by hand on the parsed blobs.
    const blobs = paths.map((p) => readBlob(p));
    blobs[0]!.end!.engines = [{ name: "local", concurrency: 2, scenarios: 2, lost: null }];
    blobs[1]!.end!.engines = [
      { name: "local", concurrency: 2, scenarios: 1, lost: null },
      { name: "remote", concurrency: 4, scenarios: 1, lost: "connection reset" },
    ];
    const merged = mergeBlobs(blobs);
    expect([merged.sides.startedAt, merged.durationMs]).toEqual(["2026-11-21T22:41:00.000Z", 9_000]);
    expect(merged.engines).toEqual([
      { name: "local", concurrency: 2, scenarios: 3, lost: null },
      { name: "remote", concurrency: 4, scenarios: 1, lost: "connection reset" },
    ]);
  });

  it("refuses no blobs at all as a usage error", () => {
    expect(() => mergeBlobs([])).toThrow(expect.objectContaining({ code: "HARNESS_USAGE" }));
  });

  it("refuses a missing shard", () => {
    const [one, , three] = shards();
    expect(problems([one!, three!])).toEqual(["shard 2/3 is missing"]);
  });

  it("refuses a shard given twice, naming both blobs", () => {
    const [one, two, three] = shards();
    const again = shardBlob(2, { name: "again.blob" });
    expect(problems([one!, two!, three!, again])).toEqual([`shard 2/3 is given 2 times (${two!.path}, ${again.path})`]);
  });

  it("refuses a shard that did not finish, and does not also call its configs unreported", () => {
    const [one, , three] = shards();
    const cut = shardBlob(2, { entries: entriesOfShard(fixture, 2).slice(0, 1), finish: false });
    expect(problems([one!, cut, three!])).toEqual([`${cut.path}: shard 2/3 did not finish (1 entries, no end line): rerun that shard`]);
  });

  it("refuses a blob whose entries were changed after it was written", () => {
    const [one, two, three] = shards();
    const text = readFileSync(two!.path, "utf8");
    const changed = text.replace(/("kind":"entry".*?"title":")/, "$1changed: ");
    expect(changed).not.toBe(text);
    writeFileSync(two!.path, changed);
    expect(problems([one!, readBlob(two!.path), three!])).toEqual([`${two!.path}: its entries do not match its end line (changed after it was written, or cut)`]);
  });

  it("refuses a shard without its sides line", () => {
    const [one, , three] = shards();
    const noSides = shardBlob(2, { sides: null });
    expect(problems([one!, noSides, three!])).toEqual([`${noSides.path}: no sides line (the shard stopped before its images were resolved)`]);
  });

  it.each([
    ["other inputs", (m: FleetManifest) => (m.inputsHash = "0".repeat(64)), /: inputs \(configs or options; hash [0-9a-f]{12} \/ 000000000000\)$/],
    ["other images", (m: FleetManifest) => (m.images.candidates = ["httpd:2.4.68"]), /: images \(.* \/ httpd:2\.2\.34, httpd:2\.4\.68\)$/],
    ["another tool version", (m: FleetManifest) => (m.tool = "0.2.0"), /: tool version \(0\.1\.0 \/ 0\.2\.0\)$/],
    ["another shard count", (m: FleetManifest) => (m.shard.count = 4), /: shard count \(3 \/ 4\)$/],
  ])("refuses a blob of a run with %s, naming it once", (_what, change, why) => {
    const [one, , three] = shards();
    const foreign = shardBlob(2, { manifest: change });
    const listed = problems([one!, foreign, three!]);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatch(new RegExp(`^${foreign.path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is of another run than ${one!.path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: `));
    expect(listed[0]).toMatch(why);
    // Its shard is not counted: shard 2 of this run is missing.
    expect(listed[1]).toBe("shard 2/3 is missing");
  });

  it("refuses a shard that ran other images than the others, by their ids", () => {
    const [one, , three] = shards();
    const sides: BlobSides = { ...SIDES, sides: SIDES.sides.map((s) => (s.role === "candidate" ? { ...s, imageId: "sha256:9999" } : s)) };
    const rebuilt = shardBlob(2, { sides });
    expect(problems([one!, rebuilt, three!])).toEqual([
      `${rebuilt.path} ran other images than ${one!.path} (baseline=sha256:2222, candidate=sha256:9999 / baseline=sha256:2222, candidate=sha256:2424)`,
    ]);
  });

  it("refuses an entry in a shard that does not own its config, and an entry for no config of the run", () => {
    const [one, , three] = shards();
    const site3 = fixture.entries.find((e) => e.config === "site-3")!;
    const stray = { ...site3, config: "site-99" };
    const wrong = shardBlob(2, { entries: [...entriesOfShard(fixture, 2), site3, stray] });
    expect(problems([one!, wrong, three!])).toEqual([`${wrong.path}: site-3 belongs to shard 3, not 2`, `${wrong.path}: an entry for site-99, which is not a config of the run`]);
  });

  it("refuses a config reported twice by its shard", () => {
    const [one, , three] = shards();
    const twice = shardBlob(2, { entries: [...entriesOfShard(fixture, 2), entriesOfShard(fixture, 2)[0]!] });
    expect(problems([one!, twice, three!])).toEqual([`${twice.path}: site-2 is reported twice`]);
  });

  it("refuses a config no shard reported, by its label", () => {
    const [one, , three] = shards();
    const short = shardBlob(2, { entries: entriesOfShard(fixture, 2).slice(1) });
    expect(short.intact).toBe(true);
    expect(problems([one!, short, three!])).toEqual(["no shard reported fleet/site-2"]);
  });

  it("lists every problem at once in one refusal", () => {
    const [one, , three] = shards();
    const cut = shardBlob(3, { finish: false, name: "cut.blob" });
    const foreign = shardBlob(2, { manifest: (m) => (m.tool = "0.2.0") });
    const wrong = shardBlob(1, { entries: [...entriesOfShard(fixture, 1).slice(1), fixture.entries.find((e) => e.config === "site-6")!], name: "wrong.blob" });
    const listed = problems([one!, three!, cut, foreign, wrong]);
    expect(listed).toEqual([
      `${cut.path}: shard 3/3 did not finish (2 entries, no end line): rerun that shard`,
      expect.stringMatching(new RegExp(`^${foreign.path.replace(/[/.]/g, "\\$&")} is of another run than .*: tool version \\(0\\.1\\.0 / 0\\.2\\.0\\)$`)),
      `shard 1/3 is given 2 times (${one!.path}, ${wrong.path})`,
      "shard 2/3 is missing",
      `shard 3/3 is given 2 times (${three!.path}, ${cut.path})`,
    ]);
  });

  it("names a blob of another run once, also when it is given first", () => {
    const [one, two, three] = shards();
    const foreign = shardBlob(2, { manifest: (m) => (m.inputsHash = "0".repeat(64)), name: "old-run.blob" });
    for (const order of [
      [one!, two!, three!, foreign],
      [foreign, one!, two!, three!],
    ]) {
      const listed = problems(order);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatch(new RegExp(`^${foreign.path.replace(/[/.]/g, "\\$&")} is of another run than `));
    }
  });

  it("merges against the first given's run when as many blobs are of each", () => {
    const [one, two] = shards();
    const otherOne = shardBlob(1, { manifest: (m) => (m.tool = "0.2.0"), name: "other-1.blob" });
    const otherTwo = shardBlob(2, { manifest: (m) => (m.tool = "0.2.0"), name: "other-2.blob" });
    const listed = problems([otherOne, one!, two!, otherTwo]);
    expect(listed.slice(0, 2)).toEqual([
      `${one!.path} is of another run than ${otherOne.path}: tool version (0.2.0 / 0.1.0)`,
      `${two!.path} is of another run than ${otherOne.path}: tool version (0.2.0 / 0.1.0)`,
    ]);
  });

  it("keeps what it was given: merging the parsed blobs of one run twice gives the same", () => {
    const blobs = shards();
    expect(mergeBlobs(blobs)).toEqual(mergeBlobs(blobs.map((b) => parseBlob(readFileSync(b.path, "utf8"), b.path))));
  });
});
