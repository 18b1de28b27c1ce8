// `lint --baseline FILE`: an earlier lint's output (`--format json` or `--format sarif`) names the findings a
// fleet already knows about; lint then reports only the new ones. Places are matched by their tree and
// fingerprint (rule, file, normalised directive and section path: not the line, so moved lines stay known). The
// output of a lint that wrote one finding per place (JSON schemaVersion 1.0) is read too.
// A file that is neither output is bad input, named by file and line.
import { readFile } from "node:fs/promises";
import { HarnessError } from "../errors.ts";
import { yaml } from "./yaml-on-demand.ts";

/** The key of a place's lint fingerprint in a SARIF result's `partialFingerprints`, as lint wrote it when a result
 * was one place (schemaVersion 1.0 of the JSON): such files are still read as baselines. */
export const SARIF_FINGERPRINT_KEY = "httpdUpgradeHarness/v1";
/** The key of a cause's fingerprint in a SARIF result's `partialFingerprints` (a result per cause, each place's
 * fingerprint in its location's `properties.fingerprint`). */
export const SARIF_CAUSE_FINGERPRINT_KEY = "httpdUpgradeHarness/cause/v1";

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
  const { LineCounter, parseDocument } = yaml();
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
      if (!isObject(finding) || typeof finding.tree !== "string") {
        return { at: ["findings", index], message: `findings[${index}] has no "tree" (is it lint output?)` };
      }
      // A finding with its places (schemaVersion 2.x), or one place (1.0).
      const places = Array.isArray(finding.places) ? finding.places : [finding];
      for (const [placeIndex, place] of places.entries()) {
        if (!isObject(place) || typeof place.fingerprint !== "string") {
          const at = place === finding ? ["findings", index] : ["findings", index, "places", placeIndex];
          return { at, message: `${place === finding ? `findings[${index}]` : `findings[${index}].places[${placeIndex}]`} has no "fingerprint" (is it lint output?)` };
        }
        keys.add(baselineKey(finding.tree, place.fingerprint));
      }
    }
    return { keys };
  }
  if (Array.isArray(data.runs)) {
    for (const [runIndex, run] of data.runs.entries()) {
      const results = isObject(run) ? run.results : undefined;
      if (!Array.isArray(results)) return { at: ["runs", runIndex], message: `runs[${runIndex}] has no "results" list` };
      for (const [index, result] of results.entries()) {
        const at = ["runs", runIndex, "results", index];
        const tree = isObject(result) && isObject(result.properties) ? result.properties.tree : undefined;
        // A result per cause: each location's properties.fingerprint; a result per place (older): its partial one.
        const locations = isObject(result) && Array.isArray(result.locations) ? result.locations : [];
        const placed = locations.map((location) => (isObject(location) && isObject(location.properties) ? location.properties.fingerprint : undefined));
        const own = isObject(result) && isObject(result.partialFingerprints) ? result.partialFingerprints[SARIF_FINGERPRINT_KEY] : undefined;
        const fingerprints = placed.length > 0 && placed.every((fingerprint) => typeof fingerprint === "string") ? placed : [own];
        if (fingerprints.some((fingerprint) => typeof fingerprint !== "string") || typeof tree !== "string") {
          return {
            at,
            message: `runs[${runIndex}].results[${index}] has no partialFingerprints "${SARIF_FINGERPRINT_KEY}" (nor a properties.fingerprint in each location) and properties.tree (is it this tool's SARIF?)`,
          };
        }
        for (const fingerprint of fingerprints) keys.add(baselineKey(tree, fingerprint as string));
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
    const { LineCounter, parseDocument } = yaml();
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
