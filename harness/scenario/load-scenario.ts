// Scenario files → Scenario values. parseScenario is the pure core (text in, value or HarnessError out);
// loadScenarioFile and loadScenarios add the file system: reading, finding *.scenario.yaml under directories,
// and ids that must be unique across files.
// Errors: YAML syntax → HARNESS_SCENARIO_PARSE; schema and meaning → HARNESS_SCENARIO_INVALID (all problems of a
// file in one error, positioned at the first); a missing path or nothing found → HARNESS_SCENARIO_NOT_FOUND.
import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { HarnessError, isHarnessError } from "../errors.ts";
import { buildScenario } from "./build-scenario.ts";
import { FORMAT_HINT, type ScenarioIssue, scenarioIssuesError } from "./scenario-issue.ts";
import { scenarioFileSchema } from "./scenario-schema.ts";
import type { Scenario } from "./scenario.ts";
import { schemaIssues } from "./schema-issues.ts";
import { readSeedIds, readSeedIdsSync } from "./seed-rows.ts";
import { hasUnquotedVariable, UNQUOTED_VARIABLE_HINT } from "./unquoted-variable.ts";
import { YamlLocator } from "./yaml-locator.ts";

export const SCENARIO_FILE_SUFFIX = ".scenario.yaml";
const MAX_ALIAS_COUNT = 100;

export interface ParseScenarioOptions {
  /** The seed ids `seed:` may use. Default: read (once, cached) from `seedRowsPath`. */
  seedIds?: ReadonlySet<string>;
  /** The seed-rows table. Default: spec/seed-rows.tsv of the repository, else ../shared/spec/seed-rows.tsv. */
  seedRowsPath?: string | URL;
}

export type LoadScenarioOptions = ParseScenarioOptions;

/** Parses one scenario file's text. `file` is used in positions and messages only. Pure apart from reading the
 * seed-rows table once when `seedIds` is not given. */
export function parseScenario(text: string, file: string, options: ParseScenarioOptions = {}): Scenario {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error): ScenarioIssue => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return {
        position: { file, line, column: col },
        path: null,
        problem: `YAML syntax error: ${error.message}`,
        expected: "valid YAML (two-space indentation, no tabs, quotes closed)",
        received: { value: lineAt(source, line) },
        ...(hasUnquotedVariable(lineAt(source, line)) ? { hint: UNQUOTED_VARIABLE_HINT } : {}),
      };
    });
    throw scenarioIssuesError("HARNESS_SCENARIO_PARSE", file, issues);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw new HarnessError("HARNESS_SCENARIO_PARSE", `${file}: ${(error as Error).message}`, {
      cause: error,
      position: { file, line: 1, column: 1 },
      hint: FORMAT_HINT,
    });
  }
  const locator = new YamlLocator(source, doc, lineCounter, file);
  const parsed = scenarioFileSchema.safeParse(data);
  if (!parsed.success) {
    const issues = schemaIssues(parsed.error.issues, data, locator).map((issue) =>
      hasUnquotedVariable(lineAt(source, issue.position.line)) ? { ...issue, hint: issue.hint ?? UNQUOTED_VARIABLE_HINT } : issue,
    );
    throw scenarioIssuesError("HARNESS_SCENARIO_INVALID", file, issues);
  }
  const seedIds = options.seedIds ?? readSeedIdsSync(options.seedRowsPath);
  const { scenario, issues } = buildScenario(parsed.data, { file, locator, seedIds, input: data });
  if (issues.length > 0) throw scenarioIssuesError("HARNESS_SCENARIO_INVALID", file, issues);
  return scenario;
}

/** Reads and parses one scenario file; the path is kept as given. */
export async function loadScenarioFile(path: string, options: LoadScenarioOptions = {}): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw notFound(path, error);
  }
  const seedIds = options.seedIds ?? (await readSeedIds(options.seedRowsPath));
  return parseScenario(text, path, { seedIds });
}

/** Loads files and directories (searched recursively for *.scenario.yaml, sorted, dot-directories and
 * node_modules skipped), in the order given. Every file is parsed before anything is thrown, so one error can
 * name the problems of several files; scenario ids must be unique across all of them. */
export async function loadScenarios(pathsOrDirs: readonly string[], options: LoadScenarioOptions = {}): Promise<Scenario[]> {
  if (pathsOrDirs.length === 0) {
    throw new HarnessError("HARNESS_SCENARIO_NOT_FOUND", "no scenario files or directories were given", {
      hint: `Pass scenario files or directories holding *${SCENARIO_FILE_SUFFIX} files.`,
    });
  }
  const files = await findScenarioFiles(pathsOrDirs);
  const seedIds = options.seedIds ?? (await readSeedIds(options.seedRowsPath));
  const scenarios: Scenario[] = [];
  const errors: HarnessError[] = [];
  for (const file of files) {
    try {
      scenarios.push(await loadScenarioFile(file, { seedIds }));
    } catch (error) {
      if (!isHarnessError(error)) throw error;
      errors.push(error as HarnessError);
    }
  }
  errors.push(...duplicateIds(scenarios));
  if (errors.length > 0) throw combine(errors);
  return scenarios;
}

/** The scenario files a list of paths names, without duplicates, each directory's files sorted. */
export async function findScenarioFiles(pathsOrDirs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const seen = new Set<string>();
  // One file spelled two ways (a.yaml, ./a.yaml, a link to it) is one file: compared by its resolved path.
  const add = async (file: string): Promise<void> => {
    const key = await realpath(file).catch(() => resolve(file));
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const given of pathsOrDirs) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(given)).isDirectory();
    } catch (error) {
      throw notFound(given, error);
    }
    if (!isDirectory) {
      await add(given);
      continue;
    }
    const found = (await walk(given, "")).sort();
    if (found.length === 0) {
      throw new HarnessError("HARNESS_SCENARIO_NOT_FOUND", `no *${SCENARIO_FILE_SUFFIX} files under ${given}`, {
        hint: `Scenario files are found by their name ending in ${SCENARIO_FILE_SUFFIX}.`,
      });
    }
    for (const relative of found) await add(join(given, relative));
  }
  return files;
}

async function walk(root: string, relative: string): Promise<string[]> {
  const entries: Dirent[] = await readdir(join(root, relative), { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    const name = join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && entry.name !== "node_modules") found.push(...(await walk(root, name)));
    } else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(SCENARIO_FILE_SUFFIX)) {
      found.push(name);
    }
  }
  return found;
}

function duplicateIds(scenarios: readonly Scenario[]): HarnessError[] {
  const first = new Map<string, Scenario>();
  const errors: HarnessError[] = [];
  for (const scenario of scenarios) {
    const earlier = first.get(scenario.id);
    if (earlier === undefined) {
      first.set(scenario.id, scenario);
      continue;
    }
    errors.push(
      new HarnessError(
        "HARNESS_SCENARIO_INVALID",
        `${scenario.file}:${scenario.at.line}:${scenario.at.column}: scenario id "${scenario.id}" is also used by ${earlier.file}:${earlier.at.line}:${earlier.at.column}`,
        { position: scenario.at, hint: "Scenario ids must be unique across all loaded files; rename one of them." },
      ),
    );
  }
  return errors;
}

function combine(errors: readonly HarnessError[]): HarnessError {
  const [first] = errors;
  if (errors.length === 1 && first !== undefined) return first;
  const message = `${errors.length} problems in the scenario files:\n\n${errors.map((error) => error.message).join("\n\n")}`;
  const options: { position?: NonNullable<HarnessError["position"]>; hint?: string } = {};
  if (first?.position !== undefined) options.position = first.position;
  if (first?.hint !== undefined) options.hint = first.hint;
  return new HarnessError(first?.code ?? "HARNESS_SCENARIO_INVALID", message, options);
}

function notFound(path: string, cause: unknown): HarnessError {
  const code = (cause as NodeJS.ErrnoException).code;
  const reason = code === "ENOENT" ? "does not exist" : code === "EISDIR" ? "is a directory (use loadScenarios)" : `cannot be read (${(cause as Error).message})`;
  return new HarnessError("HARNESS_SCENARIO_NOT_FOUND", `scenario path ${path} ${reason}`, {
    cause,
    hint: `Pass scenario files or directories holding *${SCENARIO_FILE_SUFFIX} files.`,
  });
}

function lineAt(text: string, line: number): string {
  return text.split(/\r?\n/)[line - 1] ?? "";
}
