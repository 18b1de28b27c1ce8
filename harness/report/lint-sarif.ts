// `lint --format sarif`: the findings as one SARIF 2.1.0 run, for code-scanning views. Each rule is described
// once (tool.driver.rules); each finding (one cause: a rule, its message and fix, in one tree) is one result with
// a location at every place's directive, each location keeping that place's lint fingerprint (which --baseline
// reads) and, as its message, what the access model predicts there (the result's message is the cause's), the cause's fingerprint as the partial fingerprint, the include chains and the lines read with them as
// related locations, and one fix when the rule's fix is literal 2.4 config text that replaces the directives. A file of a tree inside the working
// directory is named relative to it (uriBaseId %SRCROOT%): code scanning reads relative URIs as relative to the
// repository's root and ignores originalUriBaseIds, so a URI relative to the tree would name the wrong file
// there. A tree outside it is named by absolute file URIs. Each result keeps the tree and the tree path.
import { hash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { DIRECTIVES } from "../rules/directive-knowledge.ts";
import { SARIF_CAUSE_FINGERPRINT_KEY } from "../rules/lint-baseline.ts";
import type { LintCause, LintedTree, LintOutcome } from "../rules/lint-outcome.ts";
import type { Rule } from "../rules/rule.ts";
import type { Severity } from "../rules/severity.ts";
import { literalFix } from "../rules/literal-fix.ts";
export { literalFix } from "../rules/literal-fix.ts";
import { TOOL_NAME } from "./lint-json.ts";

export const SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

type Level = "error" | "warning" | "note";

const LEVEL: Readonly<Record<Severity, Level>> = { blocking: "error", security: "error", behaviour: "warning", deprecated: "note", expected: "note" };

/** GitHub's ranking of security results (0.0 to 10.0; 7.0 and up is "high"): 2.4 grants or shows more. */
const SECURITY_SEVERITY = "7.5";

type Json = Record<string, unknown>;

/** An identifier from a title, as SARIF's reportingDescriptor.name asks ("MutexAndLockDirectives"). */
function ruleName(rule: Pick<Rule, "id" | "title">): string {
  const words = rule.title.replace(/\([^)]*\)/g, " ").replace(/(\d)\.(\d)/g, "$1$2").match(/[A-Za-z0-9]+/g) ?? [rule.id];
  return words.slice(0, 8).map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

function describeRule(rule: Rule): Json {
  const help = [rule.fix ? `Fix: ${rule.fix}` : null, rule.help ?? null].filter((text): text is string => text !== null);
  const tags = [...new Set(["httpd-2.4-upgrade", rule.severity, ...(rule.security ? ["security"] : []), ...rule.seed.map((seed) => `seed:${seed}`)])];
  return {
    id: rule.id,
    name: ruleName(rule),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.help ?? rule.title },
    help: { text: help.length > 0 ? help.join("\n\n") : rule.title },
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: {
      tags,
      severity: rule.severity,
      ...(rule.security ? { "security-severity": SECURITY_SEVERITY } : {}),
      "problem.severity": LEVEL[rule.severity] === "note" ? "recommendation" : LEVEL[rule.severity],
    },
  };
}

/** A rule the given list does not hold (a finding of a rule run elsewhere): described from the finding. */
export function ruleOfFinding(finding: Pick<LintCause, "rule" | "seed" | "severity" | "security">): Rule {
  return { id: finding.rule, seed: finding.seed, title: finding.rule, severity: finding.severity, security: finding.security };
}

/** How a tree's files are named: under a prefix relative to the working directory, or by absolute file URI. */
export type Naming = { prefix: string } | { root: string };

export function naming(tree: LintedTree, cwd: string): Naming {
  if (tree.root === cwd) return { prefix: "" };
  return tree.root.startsWith(`${cwd}/`) ? { prefix: `${tree.root.slice(cwd.length + 1)}/` } : { root: tree.root };
}

function artifact(file: string, named: Naming): Json {
  return "prefix" in named ? { uri: encodeURI(`${named.prefix}${file}`), uriBaseId: "%SRCROOT%" } : { uri: pathToFileURL(`${named.root}/${file}`).href };
}

export interface SarifOptions {
  toolVersion: string;
  /** The working directory (%SRCROOT%): files of trees inside it are named relative to it. */
  cwd: string;
}

type Place = LintCause["places"][number];

function region(place: Place): Json {
  return { startLine: place.line, startColumn: place.column, endLine: place.endLine, endColumn: place.endColumn + 1 };
}

/** What identifies a cause across edits (code scanning's alert): its tree-independent rule, message and fix. Each
 * place keeps its own fingerprint in its location's properties, which `--baseline` matches on. */
export function causeFingerprint(cause: Pick<LintCause, "rule" | "message" | "fix">): string {
  return hash("md5", `${cause.rule}\u0000${cause.message}\u0000${cause.fix ?? ""}`);
}

/** A result without its locations (an empty list where they go), and its locations, made one at a time: a cause
 * of a large tree has tens of thousands. */
export interface SarifResultParts {
  result: Json;
  locations: () => Iterable<Json>;
}

/** One cause as a SARIF result: a location for every place, its files named as its tree's are (`base`). */
export function sarifResult(cause: LintCause, base: Naming, ruleIndex: ReadonlyMap<string, number>): Json {
  const { result, locations } = sarifResultParts(cause, base, ruleIndex);
  // The key keeps its place in the result.
  return { ...result, locations: [...locations()] };
}

/** A place's location; where the access model made a claim for it, the location's own message says it (the
 * result's message is the cause's, the same at every location). */
function location(place: Place, base: Naming): Json {
  return {
    physicalLocation: { artifactLocation: artifact(place.file, base), region: { ...region(place), snippet: { text: place.directive } } },
    ...(place.predicted === undefined ? {} : { message: { text: place.predicted } }),
    properties: { file: place.file, fingerprint: place.fingerprint, sections: place.sections },
  };
}

export function sarifResultParts(cause: LintCause, base: Naming, ruleIndex: ReadonlyMap<string, number>): SarifResultParts {
  const first = cause.places[0]!;
  let id = 0;
  const related: Json[] = [];
  const seen = new Set<string>();
  const relate = (place: { file: string; line: number; column: number }, text: string): void => {
    const key = `${place.file}\u0000${place.line}\u0000${place.column}\u0000${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    related.push({
      id: ++id,
      physicalLocation: { artifactLocation: artifact(place.file, base), region: { startLine: place.line, startColumn: place.column } },
      message: { text },
    });
  };
  for (const place of cause.places) {
    place.includeChain.forEach((include, depth) => relate(include, depth === place.includeChain.length - 1 ? `${place.file} is included here` : "include chain"));
    for (const other of place.related) relate(other, "read together with the finding's line");
  }
  // One fix for every place whose fix is literal 2.4 configuration: the same text replaces each directive.
  const changes = new Map<string, Json[]>();
  let replacement: string | null = null;
  for (const place of cause.places) {
    const literal = literalFix(place);
    if (literal === null) continue;
    replacement = literal;
    const indent = " ".repeat(Math.max(0, place.column - 1));
    const list = changes.get(place.file) ?? [];
    list.push({ deletedRegion: region(place), insertedContent: { text: literal.split("\n").join(`\n${indent}`) } });
    changes.set(place.file, list);
  }
  const result = {
    ruleId: cause.rule,
    ruleIndex: ruleIndex.get(cause.rule)!,
    level: LEVEL[cause.severity],
    message: { text: cause.fix ? `${cause.message.replace(/\.$/, "")}. Fix: ${cause.fix}` : cause.message },
    locations: [],
    partialFingerprints: { [SARIF_CAUSE_FINGERPRINT_KEY]: causeFingerprint(cause) },
    ...(related.length > 0 ? { relatedLocations: related } : {}),
    ...(replacement === null
      ? {}
      : {
          fixes: [
            {
              description: { text: `Replace with: ${replacement}` },
              artifactChanges: [...changes].map(([file, replacements]) => ({ artifactLocation: artifact(file, base), replacements })),
            },
          ],
        }),
    properties: { tree: cause.tree, file: first.file, severity: cause.severity, security: cause.security, seed: cause.seed, places: cause.places.length },
  };
  return {
    result,
    locations: function* () {
      for (const place of cause.places) yield location(place, base);
    },
  };
}

/** Every rule given, then one for each rule of a finding the list does not hold, in the findings' order. */
export function describedRules(rules: readonly Rule[], causes: Iterable<LintCause>): Rule[] {
  const described: Rule[] = [...rules];
  for (const cause of causes) if (!described.some((rule) => rule.id === cause.rule)) described.push(ruleOfFinding(cause));
  return described;
}

export function lintSarif(outcome: LintOutcome, rules: readonly Rule[], options: SarifOptions): Json {
  return sarifRun(outcome, describedRules(rules, outcome.findings), options, resultsOf(outcome, rules, options));
}

function resultsOf(outcome: LintOutcome, rules: readonly Rule[], options: SarifOptions): Json[] {
  return [...lintSarifResults(outcome, describedRules(rules, outcome.findings), options)].map(({ result, locations }) => ({ ...result, locations: [...locations()] }));
}

function* lintSarifResults(outcome: LintOutcome, described: readonly Rule[], options: SarifOptions): Generator<SarifResultParts> {
  const names = new Map(outcome.trees.map((tree) => [tree.path, naming(tree, options.cwd)] as const));
  const ruleIndex = new Map(described.map((rule, index) => [rule.id, index] as const));
  for (const cause of outcome.findings) yield sarifResultParts(cause, names.get(cause.tree)!, ruleIndex);
}

/** `${JSON.stringify(lintSarif(outcome, rules, options), null, 2)}\n` in pieces, a result at a time. */
export function lintSarifChunks(outcome: LintOutcome, rules: readonly Rule[], options: SarifOptions): Generator<string> {
  const described = describedRules(rules, outcome.findings);
  return sarifChunks(sarifRun(outcome, described, options, []), lintSarifResults(outcome, described, options));
}

/** The run's results key: the only one at six spaces (runs[0]); string values hold no raw newline. */
const RESULTS_SLOT = '\n      "results": []';
/** A result's locations key, at two spaces of the result's own text. */
const LOCATIONS_SLOT = '\n  "locations": []';

/** `${JSON.stringify(log, null, 2)}\n` for a log whose one run's results are `results` (its own are empty), in
 * pieces: the head, each result's head, each of its locations, the rest of it, the tail. */
export function* sarifChunks(log: Json, results: Iterable<SarifResultParts>): Generator<string> {
  const head = JSON.stringify(log, null, 2);
  const at = head.indexOf(RESULTS_SLOT);
  if (at < 0) throw new Error("sarif: no results slot");
  yield head.slice(0, at + RESULTS_SLOT.length - 1);
  let first = true;
  for (const { result, locations } of results) {
    const text = JSON.stringify(result, null, 2);
    const slot = text.indexOf(LOCATIONS_SLOT);
    if (slot < 0) throw new Error("sarif: no locations slot");
    yield `${first ? "\n" : ",\n"}        ${text.slice(0, slot + LOCATIONS_SLOT.length - 1).replaceAll("\n", "\n        ")}`;
    first = false;
    let firstLocation = true;
    for (const location of locations()) {
      yield `${firstLocation ? "\n" : ",\n"}            ${JSON.stringify(location, null, 2).replaceAll("\n", "\n            ")}`;
      firstLocation = false;
    }
    const rest = text.slice(slot + LOCATIONS_SLOT.length).replaceAll("\n", "\n        ");
    yield firstLocation ? `]${rest}` : `\n          ]${rest}`;
  }
  yield first ? "]" : "\n      ]";
  yield `${head.slice(at + RESULTS_SLOT.length)}\n`;
}

/** The log of one run, with `results` as given. */
export function sarifRun(outcome: Pick<LintOutcome, "failOn" | "failing" | "baseline" | "ignored">, described: readonly Rule[], options: SarifOptions, results: Json[]): Json {
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: TOOL_NAME, version: options.toolVersion, semanticVersion: options.toolVersion, rules: described.map(describeRule) } },
        originalUriBaseIds: { "%SRCROOT%": { uri: pathToFileURL(`${options.cwd}/`).href } },
        // Where code scanning takes the repository root from, were a tree's file named by absolute URI.
        invocations: [{ executionSuccessful: true, workingDirectory: { uri: pathToFileURL(`${options.cwd}/`).href } }],
        columnKind: "utf16CodeUnits",
        results,
        properties: {
          failOn: outcome.failOn,
          failing: outcome.failing,
          known: outcome.baseline?.known ?? 0,
          ignored: outcome.ignored,
        },
      },
    ],
  };
}
