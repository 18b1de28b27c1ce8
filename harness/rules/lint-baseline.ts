// `lint --baseline FILE`: an earlier lint's output (`--format json` or `--format sarif`) names the findings a
// fleet already knows about; lint then reports only the new ones. Findings are matched by their tree and
// fingerprint (rule, file, normalised directive and section path: not the line, so moved lines stay known).
// A file that is neither output is bad input, named by file and line.
import { readFile } from "node:fs/promises";
import { LineCounter, parseDocument } from "yaml";
import { HarnessError } from "../errors.ts";

/** The key of a lint fingerprint in a SARIF result's `partialFingerprints`. */
export const SARIF_FINGERPRINT_KEY = "httpdUpgradeHarness/v1";

export interface LintBaseline {
  path: string;
  /** baselineKey(tree, fingerprint) of every finding the earlier lint reported. */
  keys: ReadonlySet<string>;
}

export function baselineKey(tree: string, fingerprint: string): string {
  return `${tree}\u0000${fingerprint}`;
}

const HINT = "Give --baseline the file an earlier `httpd-upgrade-harness lint --format json` (or --format sarif) wrote, unchanged.";

type Pointer = ReadonlyArray<string | number>;

/** The 1-based line of the value at `pointer` in the file's text (JSON is YAML, whose parser keeps ranges). */
function lineAt(text: string, pointer: Pointer): number {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  for (let length = pointer.length; length >= 0; length--) {
    const node = document.getIn(pointer.slice(0, length), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
  }
  return 1;
}

function fail(path: string, line: number, message: string): never {
  throw new HarnessError("HARNESS_USAGE", `--baseline ${path}:${line}: ${message}`, { hint: HINT });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The keys an output holds, or where it breaks the shape. */
function collect(data: unknown): { keys: Set<string> } | { at: Pointer; message: string } {
  const keys = new Set<string>();
  if (!isObject(data)) return { at: [], message: "the file is not a JSON object" };
  if (Array.isArray(data.findings)) {
    for (const [index, finding] of data.findings.entries()) {
      if (!isObject(finding) || typeof finding.fingerprint !== "string" || typeof finding.tree !== "string") {
        return { at: ["findings", index], message: `findings[${index}] has no "fingerprint" and "tree" (is it lint output?)` };
      }
      keys.add(baselineKey(finding.tree, finding.fingerprint));
    }
    return { keys };
  }
  if (Array.isArray(data.runs)) {
    for (const [runIndex, run] of data.runs.entries()) {
      const results = isObject(run) ? run.results : undefined;
      if (!Array.isArray(results)) return { at: ["runs", runIndex], message: `runs[${runIndex}] has no "results" list` };
      for (const [index, result] of results.entries()) {
        const at = ["runs", runIndex, "results", index];
        const fingerprint = isObject(result) && isObject(result.partialFingerprints) ? result.partialFingerprints[SARIF_FINGERPRINT_KEY] : undefined;
        const tree = isObject(result) && isObject(result.properties) ? result.properties.tree : undefined;
        if (typeof fingerprint !== "string" || typeof tree !== "string") {
          return { at, message: `runs[${runIndex}].results[${index}] has no partialFingerprints "${SARIF_FINGERPRINT_KEY}" and properties.tree (is it this tool's SARIF?)` };
        }
        keys.add(baselineKey(tree, fingerprint));
      }
    }
    return { keys };
  }
  return { at: [], message: 'the file has neither "findings" (lint --format json) nor "runs" (lint --format sarif)' };
}

export function parseBaseline(text: string, path: string): LintBaseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Node names the offset ("at position 38") or the line itself ("(line 3 column 20)"), by version.
    const message = (error as Error).message;
    const line = /\(line (\d+) column \d+\)/.exec(message)?.[1];
    const offset = /position (\d+)/.exec(message)?.[1];
    // Else where YAML (of which JSON is a subset) stops reading it.
    const lineCounter = new LineCounter();
    const at = line === undefined ? (offset !== undefined ? Number(offset) : parseDocument(text, { lineCounter }).errors[0]?.pos[0]) : undefined;
    if (line === undefined && offset !== undefined) parseDocument(text, { lineCounter });
    fail(path, line !== undefined ? Number(line) : at !== undefined ? lineCounter.linePos(at).line : 1, `not JSON: ${message}`);
  }
  const collected = collect(data);
  if ("at" in collected) fail(path, lineAt(text, collected.at), collected.message);
  return { path, keys: collected.keys };
}

export async function loadBaseline(path: string): Promise<LintBaseline> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new HarnessError("HARNESS_USAGE", `--baseline ${path}: ${reason}`, { hint: HINT });
  }
  return parseBaseline(text, path);
}
