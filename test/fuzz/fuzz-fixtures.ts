// The fuzzer's fixtures: one directory per shrunk disagreement under test/fixtures/fuzz/<id>/, with the minimal
// fragment (fragment.conf, as a batch of one under the prefix fz0), and record.json: how it was found (seed, batch),
// its signature, the real answer per cell on both sides, the prediction per cell, migrate's verdict per cell, and
// its status: open (a bug not yet fixed), fixed (the models or migrate were changed; the unit test holds them to
// the real answers), or explained (the reason, and the guide row or real fact).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Prediction } from "../../harness/rules/predict-cells.ts";
import type { Disagreement } from "./disagreements.ts";
import type { BatchRun } from "./run-batch.ts";

export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/fuzz/", import.meta.url));

export interface FixtureCell {
  cell: string;
  path: string;
  client: string;
  credentials: string;
  user: string | null;
  prediction: { "2.2": Prediction; "2.4": Prediction };
  real: { "2.2": string | null; "2.4": string | null };
  /** The proof's class of the cell (original on 2.2, migrate's port on 2.4). */
  migrated: string | null;
}

export interface FuzzFixture {
  id: string;
  signature: string;
  kind: Disagreement["kind"];
  found: { seed: number; batch: number; fragment: string };
  status: "open" | "fixed" | "explained";
  /** For an explained one: why the answers differ, and the guide row or the real fact it rests on. */
  explanation: { reason: string; row: string } | null;
  /** For a fixed one: what was changed, and where. */
  fix?: string;
  /** For a migrate disagreement: the changes migrate made, with their status. */
  changes: Array<{ rule: string; status: string; line: number; after: string[] }>;
  cells: FixtureCell[];
}

export function fixtureId(kind: string, text: string): string {
  return `${kind}-${createHash("sha256").update(text).digest("hex").slice(0, 10)}`;
}

export function fixtureCells(run: BatchRun): FixtureCell[] {
  return run.cells.map((c) => ({
    cell: c.probe.cell,
    path: c.probe.path,
    client: c.probe.client,
    credentials: c.probe.credentials,
    user: c.probe.user,
    prediction: c.prediction,
    real: { "2.2": c.real["2.2"]?.outcome ?? null, "2.4": c.real["2.4"]?.outcome ?? null },
    migrated: c.migrated?.class ?? null,
  }));
}

export function saveFixture(fixture: FuzzFixture, text: string): string {
  const dir = join(FIXTURES_DIR, fixture.id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "fragment.conf"), text);
  writeFileSync(join(dir, "record.json"), `${JSON.stringify(fixture, null, 2)}\n`);
  return dir;
}

export function loadFixtures(): Array<{ dir: string; fixture: FuzzFixture; text: string }> {
  if (!existsSync(FIXTURES_DIR)) return [];
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(FIXTURES_DIR, entry.name))
    .filter((dir) => existsSync(join(dir, "record.json")))
    .map((dir) => ({ dir, fixture: JSON.parse(readFileSync(join(dir, "record.json"), "utf8")) as FuzzFixture, text: readFileSync(join(dir, "fragment.conf"), "utf8") }))
    .sort((a, b) => a.fixture.id.localeCompare(b.fixture.id));
}
