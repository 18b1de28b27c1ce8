// The seed rows of the upgrade guide (spec/seed-rows.tsv): their ids (first column), which `seed:` lists must
// use, and the whole rows, for the catalogue's coverage. Only the repository's own copy is read.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { HarnessError } from "../errors.ts";
import { parseSeedTable, type SeedRow } from "./seed-coverage.ts";
import { REPO_ROOT_URL } from "../repo-paths.ts";

/** The table read when no path is given: the repository's own. */
export const DEFAULT_SEED_ROWS_URL = new URL("spec/seed-rows.tsv", REPO_ROOT_URL);

/** The ids in a seed-rows table: the first column of every line after the header. */
export function parseSeedRows(text: string): ReadonlySet<string> {
  return new Set(parseSeedTable(text).flatMap((row) => (row.id === "" ? [] : [row.id])));
}

export function defaultSeedRowsPath(): string {
  return fileURLToPath(DEFAULT_SEED_ROWS_URL);
}

const cache = new Map<string, ReadonlySet<string>>();

function toPath(path: string | URL | undefined): string {
  if (path === undefined) return defaultSeedRowsPath();
  return path instanceof URL ? fileURLToPath(path) : path;
}

function unreadable(path: string, cause: unknown): HarnessError {
  const missing = (cause as NodeJS.ErrnoException).code === "ENOENT";
  return new HarnessError("HARNESS_CONFIG_FILE", missing ? `the seed-rows table ${path} is missing` : `cannot read the seed-rows table ${path}: ${(cause as Error).message}`, {
    cause,
    hint: "Scenario `seed:` ids are checked against spec/seed-rows.tsv of this repository (no copy outside it is read); restore that file or pass its path.",
  });
}

/** The seed ids of a table, read once per path and cached. */
export function readSeedIdsSync(path?: string | URL): ReadonlySet<string> {
  const file = toPath(path);
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw unreadable(file, error);
  }
  const ids = parseSeedRows(text);
  cache.set(file, ids);
  return ids;
}

export async function readSeedIds(path?: string | URL): Promise<ReadonlySet<string>> {
  const file = toPath(path);
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw unreadable(file, error);
  }
  const ids = parseSeedRows(text);
  cache.set(file, ids);
  return ids;
}

/** The whole rows of a table (default: the repository's). */
export async function readSeedRows(path?: string | URL): Promise<SeedRow[]> {
  const file = toPath(path);
  try {
    return parseSeedTable(await readFile(file, "utf8"));
  } catch (error) {
    throw unreadable(file, error);
  }
}
