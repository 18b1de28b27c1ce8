import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { BlobWriter, parseBlob, publishBlob, readBlob, scanJournal } from "../../../harness/fleet/blob.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, manifestOf, SIDES, tempDir, writeBlob } from "./fleet-blobs.ts";

const fixture = fleetFixture(sampleReport.scenarios, 1);
const manifest = manifestOf(fixture, 1);

function written(parts: { finish?: boolean } = {}): string {
  return writeBlob(join(tempDir(), "shard.blob"), { manifest, entries: fixture.entries, durationMs: 1234, ...parts });
}

function refusal(run: () => unknown): HarnessError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error("accepted");
}

describe("BlobWriter and parseBlob", () => {
  it("read back the manifest, the sides, every entry in order and the end, intact", () => {
    const path = written();
    const blob = readBlob(path);
    expect(blob.path).toBe(path);
    expect(blob.manifest).toEqual(manifest);
    expect(blob.sides).toEqual(SIDES);
    expect(blob.entries).toEqual(JSON.parse(JSON.stringify(fixture.entries)));
    expect(blob.entries.map((e) => e.config)).toEqual(["site-1", "site-2", "site-3", "site-4", "site-5", "site-6"]);
    expect(blob.end).toMatchObject({ entries: 6, durationMs: 1234, engines: null });
    expect(blob.end!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(blob.intact).toBe(true);
  });

  it("write one JSON line per record, each ending in a line end", () => {
    const text = readFileSync(written(), "utf8");
    const lines = text.split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((line) => (JSON.parse(line) as { kind: string }).kind)).toEqual(["manifest", "sides", ...fixture.entries.map(() => "entry"), "end"]);
  });

  it("keep the whole lines of a blob cut mid-line, and drop the half line: no end, not intact", () => {
    const path = written();
    truncateSync(path, statSync(path).size - 10);
    const blob = readBlob(path);
    expect(blob.entries).toHaveLength(6);
    expect(blob.end).toBeNull();
    expect(blob.intact).toBe(false);
    // Cut into the last entry: the five before it stay.
    const text = readFileSync(path, "utf8");
    const cut = parseBlob(text.slice(0, text.lastIndexOf('{"kind":"entry"') + 40), path);
    expect([cut.entries.length, cut.end]).toEqual([5, null]);
  });

  it("take a journal closed before its end line as a shard that did not finish", () => {
    const blob = readBlob(written({ finish: false }));
    expect([blob.entries.length, blob.end, blob.intact]).toEqual([6, null, false]);
  });

  it("see a changed entry line: its digest no longer matches the end line", () => {
    const path = written();
    const text = readFileSync(path, "utf8");
    const changed = text.replace('"verdict":"regression"', '"verdict":"same"');
    expect(changed).not.toBe(text);
    const blob = parseBlob(changed, path);
    expect(blob.end).not.toBeNull();
    expect(blob.intact).toBe(false);
    // An entry line taken out: the count no longer matches either.
    const lines = text.split("\n");
    expect(parseBlob(lines.filter((_, i) => i !== 3).join("\n"), path).intact).toBe(false);
  });

  it.each([
    ["a JSON report", `${JSON.stringify(sampleReport, null, 2)}\n`, 1, "not a JSON line"],
    ["a JSON line that is no manifest", '{"kind":"entry"}\n', 1, "not a fleet blob (its first line is no fleet manifest)"],
    ["an empty file", "", 1, "empty: not a fleet blob"],
  ])("refuse %s as HARNESS_BLOB naming file:line", (_what, text, line, why) => {
    const error = refusal(() => parseBlob(text, "/reports/x.blob"));
    expect(error.code).toBe("HARNESS_BLOB");
    expect(error.message).toBe(`/reports/x.blob:${line}: ${why}`);
    expect(error.position).toEqual({ file: "/reports/x.blob", line, column: 1 });
  });

  it("refuse a blob with a broken line, a record of unknown kind or a record after the end at that line", () => {
    const lines = readFileSync(written(), "utf8").split("\n");
    const broken = [...lines.slice(0, 3), "{not json", ...lines.slice(3)].join("\n");
    expect(refusal(() => parseBlob(broken, "b.blob")).message).toBe("b.blob:4: not a JSON line");
    const unknown = [...lines.slice(0, 2), '{"kind":"note"}', ...lines.slice(2)].join("\n");
    expect(refusal(() => parseBlob(unknown, "b.blob")).message).toBe('b.blob:3: an unknown record kind "note"');
    const after = [...lines.slice(0, -1), lines[2], ""].join("\n");
    expect(refusal(() => parseBlob(after, "b.blob")).message).toBe(`b.blob:${lines.length}: a record after the end line`);
  });

  it("refuse a file that is not there as HARNESS_BLOB", () => {
    const error = refusal(() => readBlob("/nonexistent/shard.blob"));
    expect([error.code, error.message]).toEqual(["HARNESS_BLOB", "/nonexistent/shard.blob: no such file"]);
  });

  it("go on from a journal read back: its lines are kept and the blob finishes whole", () => {
    const path = writeBlob(join(tempDir(), "journal.jsonl"), { manifest, entries: fixture.entries.slice(0, 2), finish: false });
    const writer = BlobWriter.resume(scanJournal(path));
    for (const entry of fixture.entries.slice(2)) writer.writeEntry(entry);
    writer.finish({ durationMs: 1234, engines: null });
    expect(readFileSync(path, "utf8")).toBe(readFileSync(written(), "utf8"));
  });

  it("go on from a journal cut mid-line, or finished: the half line and the end line are cut, the rest kept as it is", () => {
    const whole = readFileSync(written(), "utf8");
    const lines = whole.split("\n");
    // Three entries and half of the fourth (a crash), then the same journal finished (a resume of a run that ended).
    const cut = join(tempDir(), "cut.jsonl");
    writeFileSync(cut, `${lines.slice(0, 5).join("\n")}\n${lines[5]!.slice(0, 50)}`);
    const finished = written();
    for (const [path, kept] of [[cut, 3], [finished, 6]] as const) {
      const scan = scanJournal(path);
      expect(scan.manifest).toEqual(manifest);
      expect(scan.sides).toEqual(SIDES);
      expect([...scan.places.keys()]).toEqual(fixture.entries.slice(0, kept).map((entry) => entry.config));
      const writer = BlobWriter.resume(scan);
      for (const entry of fixture.entries.slice(kept)) writer.writeEntry(entry);
      writer.finish({ durationMs: 1234, engines: null });
      expect(readFileSync(path, "utf8")).toBe(whole);
    }
  });

  it("refuse to go on from a journal with a broken line, naming file:line", () => {
    const lines = readFileSync(written({ finish: false }), "utf8").split("\n");
    const path = join(tempDir(), "broken.jsonl");
    writeFileSync(path, [...lines.slice(0, 3), "{not json", ...lines.slice(3)].join("\n"));
    const error = refusal(() => scanJournal(path));
    expect([error.code, error.message, error.position]).toEqual(["HARNESS_BLOB", `${path}:4: not a JSON line`, { file: path, line: 4, column: 1 }]);
    expect(refusal(() => scanJournal("/nonexistent/journal.jsonl")).message).toBe("/nonexistent/journal.jsonl: no such file");
  });
});

describe("publishBlob", () => {
  it("copies the journal whole to the target, making its directory, leaving no temporary file", () => {
    const journal = written();
    const dir = tempDir();
    const target = join(dir, "blobs", "shard-1.blob");
    publishBlob(journal, target);
    expect(readFileSync(target)).toEqual(readFileSync(journal));
    expect(readdirSync(join(dir, "blobs"))).toEqual(["shard-1.blob"]);
  });

  it("replaces an older blob at the target", () => {
    const dir = tempDir();
    const target = join(dir, "shard.blob");
    writeFileSync(target, "old\n");
    publishBlob(written(), target);
    expect(readBlob(target).intact).toBe(true);
  });

  it("refuses as HARNESS_REPORT_WRITE when the target cannot be written, and leaves nothing behind", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "taken.blob"));
    const error = refusal(() => publishBlob(written(), join(dir, "taken.blob")));
    expect(error.code).toBe("HARNESS_REPORT_WRITE");
    expect(readdirSync(dir)).toEqual(["taken.blob"]);
    expect(existsSync(join(dir, "taken.blob"))).toBe(true);
  });
});
