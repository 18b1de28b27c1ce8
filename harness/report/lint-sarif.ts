// `lint --format sarif`: the findings as one SARIF 2.1.0 run, for code-scanning views. Each rule is described
// once (tool.driver.rules); each finding is a result at its directive's region, with the lint fingerprint as a
// partial fingerprint, the include chain and the lines read with it as related locations, and a fix when the
// rule's fix is literal 2.4 config text that replaces the directive. A file of a tree inside the working
// directory is named relative to it (uriBaseId %SRCROOT%): code scanning reads relative URIs as relative to the
// repository's root and ignores originalUriBaseIds, so a URI relative to the tree would name the wrong file
// there. A tree outside it is named by absolute file URIs. Each result keeps the tree and the tree path.
import { pathToFileURL } from "node:url";
import { DIRECTIVES } from "../rules/directive-knowledge.ts";
import { SARIF_FINGERPRINT_KEY } from "../rules/lint-baseline.ts";
import type { LintedTree, LintOutcome, TreeFinding } from "../rules/lint-outcome.ts";
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
export function ruleOfFinding(finding: TreeFinding): Rule {
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

/** One finding as a SARIF result, its files named as its tree's are (`base`). */
export function sarifResult(finding: TreeFinding, base: Naming, ruleIndex: ReadonlyMap<string, number>): Json {
  const region = { startLine: finding.line, startColumn: finding.column, endLine: finding.endLine, endColumn: finding.endColumn + 1 };
  let id = 0;
  const related = [
    ...finding.includeChain.map((place, depth) => ({
      id: ++id,
      physicalLocation: { artifactLocation: artifact(place.file, base), region: { startLine: place.line, startColumn: place.column } },
      message: { text: depth === finding.includeChain.length - 1 ? `${finding.file} is included here` : "include chain" },
    })),
    ...finding.related.map((place) => ({
      id: ++id,
      physicalLocation: { artifactLocation: artifact(place.file, base), region: { startLine: place.line, startColumn: place.column } },
      message: { text: "read together with the finding's line" },
    })),
  ];
  const replacement = literalFix(finding);
  const indent = " ".repeat(Math.max(0, finding.column - 1));
  return {
    ruleId: finding.rule,
    ruleIndex: ruleIndex.get(finding.rule)!,
    level: LEVEL[finding.severity],
    message: { text: finding.fix ? `${finding.message.replace(/\.$/, "")}. Fix: ${finding.fix}` : finding.message },
    locations: [{ physicalLocation: { artifactLocation: artifact(finding.file, base), region: { ...region, snippet: { text: finding.directive } } } }],
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: finding.fingerprint },
    ...(related.length > 0 ? { relatedLocations: related } : {}),
    ...(replacement === null
      ? {}
      : {
          fixes: [
            {
              description: { text: `Replace with: ${replacement}` },
              artifactChanges: [
                {
                  artifactLocation: artifact(finding.file, base),
                  replacements: [{ deletedRegion: region, insertedContent: { text: replacement.split("\n").join(`\n${indent}`) } }],
                },
              ],
            },
          ],
        }),
    properties: { tree: finding.tree, file: finding.file, severity: finding.severity, security: finding.security, seed: finding.seed, sections: finding.sections },
  };
}

export function lintSarif(outcome: LintOutcome, rules: readonly Rule[], options: SarifOptions): Json {
  const names = new Map(outcome.trees.map((tree) => [tree.path, naming(tree, options.cwd)] as const));
  const described: Rule[] = [...rules];
  for (const finding of outcome.findings) if (!described.some((rule) => rule.id === finding.rule)) described.push(ruleOfFinding(finding));
  const ruleIndex = new Map(described.map((rule, index) => [rule.id, index] as const));

  const results = outcome.findings.map((finding) => sarifResult(finding, names.get(finding.tree)!, ruleIndex));

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
