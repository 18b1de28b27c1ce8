// The JSON report: the contract of report-model.ts, pretty-printed with its keys in the contract's order, so that
// files from different runs diff cleanly whatever order the producing code built the objects in.
import type { Difference } from "../judge/difference.ts";
import type { SideWitness } from "../judge/outcome/probe-outcome.ts";
import type {
  Report,
  ReportFinding,
  ReportFleetConfig,
  ReportIgnored,
  ReportCandidate,
  ReportConfigTest,
  ReportMatrixEntry,
  ReportMatrixRequest,
  ReportProbeCell,
  ReportProbes,
  ReportEngine,
  ReportErrorLogLine,
  ReportExpectationResult,
  ReportFailure,
  ReportRequest,
  ReportScenario,
  ReportSide,
  ReportSideRequest,
  ReportSideServer,
  ReportSummary,
  ReportTree,
} from "./report-model.ts";

/** How to order one value: an object's keys (each with the order of its value), or an array's items. */
type Shape = { keys: ReadonlyArray<readonly [string, Shape | null]> } | { items: Shape };

/**
 * Every key of T, in order, each paired with the shape of its value. Type-checked to name every key of T
 * exactly, so a field added to the contract fails to compile here until it is placed.
 */
function keysOf<T>() {
  return <const K extends ReadonlyArray<readonly [keyof T & string, Shape | null]>>(
    keys: K & ([Exclude<keyof T, K[number][0]>] extends [never] ? unknown : { missingKeys: Exclude<keyof T, K[number][0]> }),
  ): Shape => ({ keys });
}

const items = (shape: Shape): Shape => ({ items: shape });

const errorLogLine = keysOf<ReportErrorLogLine>()([
  ["code", null],
  ["level", null],
  ["module", null],
  ["message", null],
  ["event", null],
  ["raw", null],
]);

const difference = keysOf<Difference>()([
  ["field", null],
  ["baseline", null],
  ["candidate", null],
  ["class", null],
  ["seed", null],
  ["reason", null],
]);

const findingDifference = keysOf<ReportFinding["differences"][number]>()([
  ["request", null],
  ["field", null],
  ["baseline", null],
  ["candidate", null],
  ["class", null],
  ["seed", null],
  ["reason", null],
]);

const configLine = keysOf<ReportFinding["config"][number]>()([
  ["file", null],
  ["line", null],
  ["directive", null],
]);

const finding = keysOf<ReportFinding>()([
  ["rule", null],
  ["severity", null],
  ["security", null],
  ["title", null],
  ["candidate", null],
  ["config", items(configLine)],
  ["requests", keysOf<ReportFinding["requests"]>()([
    ["count", null],
    ["examples", null],
  ])],
  ["evidence", null],
  ["confirmed", null],
  ["predicted", null],
  ["gating", null],
  ["differences", items(findingDifference)],
]);

const ignored = keysOf<ReportIgnored>()([
  ["byRule", null],
  ["differences", items(keysOf<ReportIgnored["differences"][number]>()([
    ["request", null],
    ["rule", null],
    ["entry", null],
    ["because", null],
    ["field", null],
    ["baseline", null],
    ["candidate", null],
    ["class", null],
    ["seed", null],
    ["reason", null],
  ]))],
]);

const sideRequest = keysOf<ReportSideRequest>()([
  ["outcome", null],
  ["status", null],
  ["httpVersion", null],
  ["headers", null],
  ["body", null],
  ["bodyBytes", null],
  ["bodySha256", null],
  ["transportError", null],
  ["exec", keysOf<NonNullable<ReportSideRequest["exec"]>>()([
    ["exitCode", null],
    ["stdout", null],
    ["stderr", null],
  ])],
  ["errorLog", items(errorLogLine)],
]);

const request = keysOf<ReportRequest>()([
  ["name", null],
  ["client", null],
  ["sent", null],
  ["baseline", sideRequest],
  ["candidate", sideRequest],
  ["differences", items(difference)],
]);

const FAILURE_KEYS = [
  ["kind", null],
  ["request", null],
  ["field", null],
  ["expected", null],
  ["actual", null],
  ["at", null],
  ["message", null],
] as const;

const failure = keysOf<ReportFailure>()(FAILURE_KEYS);

const guideFailure = keysOf<ReportScenario["guide"]["failures"][number]>()([...FAILURE_KEYS, ["side", null], ["version", null]]);

const expectationResult = keysOf<ReportExpectationResult>()([
  ["ok", null],
  ["stated", null],
  ["failures", items(failure)],
  ["skipped", null],
]);

const configTest = keysOf<ReportConfigTest>()([
  ["ok", null],
  ["exitCode", null],
  ["messages", null],
  ["syntaxError", keysOf<NonNullable<ReportConfigTest["syntaxError"]>>()([
    ["file", null],
    ["line", null],
    ["reason", null],
  ])],
]);

const sideServer = keysOf<ReportSideServer>()([
  ["image", null],
  ["version", null],
  ["family", null],
  ["started", null],
  ["startFailure", keysOf<NonNullable<ReportSideServer["startFailure"]>>()([
    ["exitCode", null],
    ["logTail", null],
  ])],
  ["missingModules", null],
  ["startupLog", items(errorLogLine)],
  ["trailingLog", items(errorLogLine)],
  ["renderedConfig", null],
  ["tree", keysOf<ReportTree>()([
    ["origin", null],
    ["layout", null],
    ["mount", null],
    ["mainFile", null],
    ["defines", null],
    ["files", null],
    ["adaptations", null],
    ["stubs", null],
    ["problems", null],
  ])],
]);

type BySide<T> = { baseline: T; candidate: T };
const bySide = (shape: Shape | null) =>
  keysOf<BySide<unknown>>()([
    ["baseline", shape],
    ["candidate", shape],
  ]);

const byVerdict = keysOf<ReportSummary["byVerdict"]>()([
  ["same", null],
  ["expected-change", null],
  ["regression", null],
  ["noise", null],
  ["error", null],
  ["unverified", null],
  ["broken-on-both", null],
]);

const matrixEntry = keysOf<ReportMatrixEntry>()([
  ["side", null],
  ["label", null],
  ["image", null],
  ["version", null],
  ["verdict", null],
  ["expectations", expectationResult],
  ["configTest", configTest],
  ["differences", items(difference)],
  ["requests", items(keysOf<ReportMatrixRequest>()([
    ["name", null],
    ["outcome", null],
    ["status", null],
    ["differences", items(difference)],
  ]))],
]);

const witness = keysOf<SideWitness>()([
  ["outcome", null],
  ["answer", null],
  ["credentials", null],
  ["object", null],
  ["marker", null],
  ["evidence", null],
  ["handlerRefusal", null],
]);

const probes = keysOf<ReportProbes>()([
  ["classes", keysOf<ReportProbes["classes"]>()([
    ["equal", null],
    ["vacuous", null],
    ["widened", null],
    ["source-exposed", null],
    ["narrowed", null],
    ["changed", null],
    ["accepted", null],
    ["unprobed", null],
  ])],
  ["proven", null],
  ["cells", items(keysOf<ReportProbeCell>()([
    ["request", null],
    ["cell", null],
    ["vhost", null],
    ["region", null],
    ["client", null],
    ["credentials", null],
    ["user", null],
    ["method", null],
    ["path", null],
    ["class", null],
    ["reason", null],
    ["proven", null],
    ["baseline", witness],
    ["candidate", witness],
  ]))],
]);

const scenario = keysOf<ReportScenario>()([
  ["id", null],
  ["title", null],
  ["file", null],
  ["seed", null],
  ["verdict", null],
  ["coverage", null],
  ["durationMs", null],
  ["engine", null],
  ["error", keysOf<NonNullable<ReportScenario["error"]>>()([
    ["code", null],
    ["message", null],
  ])],
  ["findings", items(finding)],
  ["ignored", ignored],
  ["expectations", bySide(expectationResult)],
  ["guide", keysOf<ReportScenario["guide"]>()([
    ["claim", null],
    ["holds", null],
    ["notes", null],
    ["failures", items(guideFailure)],
  ])],
  ["configTest", bySide(configTest)],
  ["servers", bySide(sideServer)],
  ["differences", items(difference)],
  ["requests", items(request)],
  ["matrix", items(matrixEntry)],
  ["probes", probes],
]);

const summary = keysOf<ReportSummary>()([
  ["scenarios", null],
  ["byVerdict", byVerdict],
  ["expectationsMet", bySide(null)],
  ["expectationsFailed", bySide(null)],
  ["guideWrong", items(keysOf<ReportSummary["guideWrong"][number]>()([
    ["id", null],
    ["seed", null],
    ["notes", null],
  ]))],
  ["guideHolds", null],
  ["rows", keysOf<ReportSummary["rows"]>()([
    ["covered", null],
    ["guideHolds", null],
    ["differ", null],
    ["guideWrong", items(keysOf<ReportSummary["rows"]["guideWrong"][number]>()([
      ["row", null],
      ["scenarios", null],
      ["note", null],
    ]))],
  ])],
  ["regressions", null],
  ["findings", items(keysOf<ReportSummary["findings"][number]>()([
    ["rule", null],
    ["severity", null],
    ["security", null],
    ["title", null],
    ["scenarios", null],
    ["requests", null],
    ["config", items(configLine)],
    ["gating", null],
  ]))],
  ["ignored", keysOf<ReportSummary["ignored"]>()([["byRule", null]])],
  ["durationMs", null],
]);

const report = keysOf<Report>()([
  ["schemaVersion", null],
  ["tool", keysOf<Report["tool"]>()([
    ["name", null],
    ["version", null],
  ])],
  ["startedAt", null],
  ["sides", items(keysOf<ReportSide>()([
    ["id", null],
    ["role", null],
    ["image", null],
    ["version", null],
    ["missing", null],
  ]))],
  ["baseline", keysOf<Report["baseline"]>()([
    ["image", null],
    ["version", null],
    ["missing", null],
  ])],
  ["candidate", keysOf<Report["candidate"]>()([
    ["image", null],
    ["version", null],
  ])],
  ["candidates", items(keysOf<ReportCandidate>()([
    ["side", null],
    ["label", null],
    ["axis", null],
    ["image", null],
    ["version", null],
    ["byVerdict", byVerdict],
  ]))],
  ["engines", items(keysOf<ReportEngine>()([
    ["name", null],
    ["concurrency", null],
    ["scenarios", null],
    ["lost", null],
  ]))],
  ["scenarios", items(scenario)],
  ["summary", summary],
  ["fleet", keysOf<NonNullable<Report["fleet"]>>()([
    ["inputsHash", null],
    ["configs", items(keysOf<ReportFleetConfig>()([
      ["id", null],
      ["path", null],
      ["verdict", null],
      ["findings", null],
      ["sameAs", null],
      ["engine", null],
      ["durationMs", null],
      ["error", null],
    ]))],
    ["duplicates", null],
    ["passed", items(keysOf<NonNullable<Report["fleet"]>["passed"][number]>()([
      ["label", null],
      ["reason", null],
    ]))],
  ])],
]);

/** Rebuilds `value` with its keys in `shape`'s order; keys the contract does not name (yet) follow, as found. */
function ordered(value: unknown, shape: Shape | null): unknown {
  if (shape === null || value === null || typeof value !== "object") return value;
  if ("items" in shape) return Array.isArray(value) ? value.map((item) => ordered(item, shape.items)) : value;
  if (Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of shape.keys) {
    if (Object.hasOwn(source, key)) result[key] = ordered(source[key], inner);
  }
  for (const key of Object.keys(source)) {
    if (!Object.hasOwn(result, key)) result[key] = source[key];
  }
  return result;
}

export function renderJsonReport(value: Report): string {
  return [...jsonReportChunks(value, value.scenarios)].join("");
}

/** The report in pieces, for a writer that streams it (a fleet's, scenario by scenario from its journal): the
 * same bytes as renderJsonReport. `frame` gives everything but the scenarios, which come from `scenarios`. */
export function* jsonReportChunks(frame: Report, scenarios: Iterable<ReportScenario>): Generator<string> {
  const whole = JSON.stringify(ordered({ ...frame, scenarios: [] }, report), null, 2);
  // The top-level key is the only one at two spaces (string values hold no raw newline).
  const at = whole.indexOf(SCENARIOS_SLOT);
  if (at < 0) throw new Error("json report: no scenarios slot");
  yield whole.slice(0, at + SCENARIOS_SLOT.length - 1);
  let first = true;
  for (const one of scenarios) {
    // A scenario in groups of lines, each indented as the whole would be: a fleet's scenario is some 100 KB of
    // text, and as one string (twice: written, then indented) a large object that only a full collection frees.
    let group = 0;
    for (const lines of prettyLineGroups(ordered(one, scenario), SCENARIO_SPLIT_DEPTH)) {
      yield `${group++ > 0 ? "\n" : first ? "\n" : ",\n"}${lines.replace(/^/gm, "    ")}`;
    }
    first = false;
  }
  yield first ? "]" : "\n  ]";
  yield `${whole.slice(at + SCENARIOS_SLOT.length)}\n`;
}

const SCENARIOS_SLOT = '\n  "scenarios": []';

/** A scenario is split into its keys and their arrays' items (a request, a finding, a cell). */
const SCENARIO_SPLIT_DEPTH = 2;

/** `value` as `JSON.stringify(value, null, 2)` writes it, in groups of whole lines (joined with "\n" they are that
 * very text), split `depth` levels of objects and arrays deep; below that, or at a value with its own toJSON, one
 * group. */
export function* prettyLineGroups(value: unknown, depth: number): Generator<string> {
  if (depth === 0 || value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    yield JSON.stringify(value, null, 2);
    return;
  }
  const array = Array.isArray(value);
  // JSON.stringify leaves out an object's undefined, function and symbol values, and writes null for them in an array.
  const members: Array<[string | null, unknown]> = array
    ? (value as unknown[]).map((item): [null, unknown] => [null, item === undefined || typeof item === "function" || typeof item === "symbol" ? null : item])
    : Object.entries(value).filter(([, inner]) => inner !== undefined && typeof inner !== "function" && typeof inner !== "symbol");
  if (members.length === 0) {
    yield array ? "[]" : "{}";
    return;
  }
  yield array ? "[" : "{";
  for (const [index, [key, inner]] of members.entries()) {
    const groups = [...prettyLineGroups(inner, depth - 1)];
    for (const [at, lines] of groups.entries()) {
      const head = at === 0 && key !== null ? `${JSON.stringify(key)}: ` : "";
      const tail = at === groups.length - 1 && index < members.length - 1 ? "," : "";
      yield `  ${head}${lines.replace(/\n/g, "\n  ")}${tail}`;
    }
  }
  yield array ? "]" : "}";
}
