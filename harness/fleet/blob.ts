// A fleet's results as they come: one JSON line per record. A run writes its journal line by line while it runs
// (so an interrupted run keeps what finished, and `--resume` goes on from it); the same file, once its end line
// is written, is the shard's blob (`--report blob:PATH`) that `merge-reports` reads.
//
//   {"kind":"manifest", ...FleetManifest}
//   {"kind":"sides", "sides": [...], "startedAt": "..."}        the images as the engine resolved them (ids)
//   {"kind":"entry", "config": "id", "scenario": {...}, ...}   one per config of the shard, as each finishes
//   {"kind":"end", "entries": N, "digest": "sha256 of the entry lines", "durationMs": ...}
//
// A blob without its end line is a shard that did not finish; one whose digest does not match was changed.
import { createHash, type Hash } from "node:crypto";
import { closeSync, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { HarnessError } from "../errors.ts";
import type { MatrixAxis } from "../plan/side.ts";
import type { ReportScenario, ReportSide } from "../report/report-model.ts";
import type { LintedTree } from "../rules/lint-outcome.ts";
import type { LintFinding } from "../rules/finding.ts";
import { fileLines, type LinePlace } from "./file-lines.ts";
import { FLEET_FORMAT, type FleetManifest } from "./manifest.ts";

/** The sides of the run with the image ids the engine resolved (a resumed run or a merge checks they match),
 * and a version matrix's label and axis for each candidate. */
export interface BlobSide extends ReportSide {
  imageId: string | null;
  label?: string;
  axis?: MatrixAxis | null;
}

export interface BlobSides {
  sides: BlobSide[];
  startedAt: string;
}

/** One config's result: its judged scenario as the report shows it, and lint's findings on its tree (SARIF). */
export interface FleetEntry {
  config: string;
  scenario: ReportScenario;
  lint: { tree: LintedTree; findings: LintFinding[] } | null;
}

export interface BlobEnd {
  entries: number;
  digest: string;
  durationMs: number;
  /** The engines that ran the shard (null: the environment's one). */
  engines: Array<{ name: string; concurrency: number; scenarios: number; lost: string | null }> | null;
}

export interface ParsedBlob {
  path: string;
  manifest: FleetManifest;
  sides: BlobSides | null;
  entries: FleetEntry[];
  /** Null when the blob was cut short (its run did not finish). */
  end: BlobEnd | null;
  /** The end line's digest matches the entry lines. */
  intact: boolean;
}

/** How long entry lines may wait to reach the disk. */
const ENTRY_SYNC_MS = 1_000;

/** Appends records to a journal. Each line is in the kernel once written, so a crash of the process loses nothing
 * but the line being written (a half line is dropped on reading). Entry lines reach the disk together within
 * ENTRY_SYNC_MS, the others at once: an fsync per config held up the run's event loop (about 9 ms a config), and a
 * crash of the machine loses at most that last second's entries, which --resume runs again. */
export class BlobWriter {
  readonly path: string;
  #fd: number;
  #digest = createHash("sha256");
  #entries = 0;
  /** The flush of entry lines written since the last one. */
  #sync: NodeJS.Timeout | null = null;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
  }

  /** A new journal (an existing one at `path` is replaced). */
  static create(path: string, manifest: FleetManifest): BlobWriter {
    mkdirSync(dirname(path), { recursive: true });
    const writer = new BlobWriter(path, openSync(path, "w"));
    writer.#line({ kind: "manifest", ...manifest });
    return writer;
  }

  /** Goes on from a journal read back (`--resume`): its whole lines are kept as they are, an end line and a line a
   * crash cut short are cut off, and the entries it holds count towards the end line. */
  static resume(scan: JournalScan): BlobWriter {
    truncateSync(scan.path, scan.keep);
    const writer = new BlobWriter(scan.path, openSync(scan.path, "a"));
    writer.#digest = scan.digest;
    writer.#entries = scan.entries;
    return writer;
  }

  writeSides(sides: BlobSides): void {
    this.#line({ kind: "sides", ...sides });
  }

  writeEntry(entry: FleetEntry): void {
    const line = this.#line({ kind: "entry", ...entry }, false);
    this.#digest.update(line);
    this.#entries++;
    this.#sync ??= setTimeout(() => this.#flush(), ENTRY_SYNC_MS).unref();
  }

  /** Writes the end line: from now on the file is a whole blob. */
  finish(end: Omit<BlobEnd, "entries" | "digest">): void {
    this.#line({ kind: "end", entries: this.#entries, digest: this.#digest.digest("hex"), ...end });
    this.close();
  }

  close(): void {
    if (this.#fd >= 0) {
      // Entry lines still waiting for their flush get it now.
      if (this.#sync !== null) this.#flush();
      closeSync(this.#fd);
    }
    this.#fd = -1;
  }

  #flush(): void {
    if (this.#sync !== null) clearTimeout(this.#sync);
    this.#sync = null;
    if (this.#fd >= 0) fsyncSync(this.#fd);
  }

  #line(record: object, now = true): string {
    const line = `${JSON.stringify(record)}\n`;
    writeSync(this.#fd, line);
    if (now) this.#flush();
    return line;
  }
}

/** Reads a blob's records in order, line by line, as parseBlob and scanJournal need them: the manifest first, the
 * sides, entries (given to `onEntry` with the line they came from), the end line last; anything else is refused
 * with its line number. */
class RecordReader {
  manifest: FleetManifest | null = null;
  sides: BlobSides | null = null;
  end: BlobEnd | null = null;
  readonly digest = createHash("sha256");
  entries = 0;

  constructor(
    private readonly path: string,
    private readonly onEntry: (entry: FleetEntry, line: string) => void,
  ) {}

  bad(line: number, why: string): HarnessError {
    return new HarnessError("HARNESS_BLOB", `${this.path}:${line}: ${why}`, { position: { file: this.path, line, column: 1 }, hint: "Give the blobs that `fleet --report blob:PATH` wrote, unchanged." });
  }

  /** The record of line `number` (1-based); its kind. */
  take(line: string, number: number): string {
    let record: { kind?: unknown } & Record<string, unknown>;
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      throw this.bad(number, "not a JSON line");
    }
    const { kind, ...rest } = record;
    if (number === 1) {
      if (kind !== "manifest" || record.format !== FLEET_FORMAT) throw this.bad(1, "not a fleet blob (its first line is no fleet manifest)");
      this.manifest = rest as unknown as FleetManifest;
      return "manifest";
    }
    if (this.end) throw this.bad(number, "a record after the end line");
    switch (kind) {
      case "sides":
        this.sides = rest as unknown as BlobSides;
        break;
      case "entry":
        this.onEntry(rest as unknown as FleetEntry, line);
        this.digest.update(`${line}\n`);
        this.entries++;
        break;
      case "end":
        this.end = rest as unknown as BlobEnd;
        break;
      default:
        throw this.bad(number, `an unknown record kind ${JSON.stringify(kind)}`);
    }
    return kind;
  }

  /** The manifest, once every line is read. */
  finished(): FleetManifest {
    if (!this.manifest) throw this.bad(1, "empty: not a fleet blob");
    return this.manifest;
  }
}

export function parseBlob(text: string, path: string): ParsedBlob {
  // Every record ends with a newline: the last piece is "" after a whole line, or a record a crash cut short,
  // which is dropped.
  const lines = text.split("\n");
  lines.pop();
  const entries: FleetEntry[] = [];
  const reader = new RecordReader(path, (entry) => entries.push(entry));
  lines.forEach((line, index) => reader.take(line, index + 1));
  const manifest = reader.finished();
  const { sides, end } = reader;
  const intact = end !== null && end.entries === entries.length && end.digest === reader.digest.digest("hex");
  return { path, manifest, sides, entries, end, intact };
}

/** What `--resume` needs of an earlier journal, read line by line, none of its entries held: its manifest and
 * sides, which configs have an entry, and where its last whole record before any end line ends. */
export interface JournalScan {
  path: string;
  manifest: FleetManifest;
  sides: BlobSides | null;
  /** The configs with an entry, and where its line is. */
  places: Map<string, LinePlace>;
  /** The bytes of the lines kept (every whole record but an end line). */
  keep: number;
  /** The entry lines so far, for the end line's digest. */
  digest: Hash;
  entries: number;
}

/** An earlier journal for `--resume`, read a line at a time (a thousand configs' journal is tens of MB). */
export function scanJournal(path: string): JournalScan {
  const places = new Map<string, LinePlace>();
  let place: LinePlace = { offset: 0, length: 0 };
  const reader = new RecordReader(path, (entry) => places.set(entry.config, place));
  let keep = 0;
  try {
    let number = 0;
    for (const read of fileLines(path)) {
      place = read.place;
      if (reader.take(read.line, ++number) !== "end") keep = place.offset + place.length + 1;
    }
  } catch (cause) {
    if (cause instanceof HarnessError) throw cause;
    throw new HarnessError("HARNESS_BLOB", `${path}: ${(cause as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (cause as Error).message}`, { cause });
  }
  return { path, manifest: reader.finished(), sides: reader.sides, places, keep, digest: reader.digest, entries: reader.entries };
}

export function readBlob(path: string): ParsedBlob {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new HarnessError("HARNESS_BLOB", `${path}: ${(cause as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (cause as Error).message}`, { cause });
  }
  return parseBlob(text, path);
}

/** Copies a finished journal to where `--report blob:PATH` asks, whole or not at all; the file system copies it
 * (a fleet's journal can be tens of MB). */
export function publishBlob(journal: string, target: string): void {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(journal, temporary);
    const fd = openSync(temporary, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (cause) {
    rmSync(temporary, { force: true });
    throw new HarnessError("HARNESS_REPORT_WRITE", `Could not write the blob to ${target}.`, { cause, hint: "Check that the directory is writable." });
  }
}
