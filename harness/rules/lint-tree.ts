// Pure: every rule's detect face over one tree, at once. The engine turns detections into findings: the rule's
// id and severity, the include chain, the section path, a fingerprint that survives moved lines, and drops what
// sits in a dual-syntax config's 2.2 branch. Sorted by file (in reading order), line, column.
import { hash } from "node:crypto";
import type { EffectiveConfig, EffectiveSection } from "../conf/effective-config.ts";
import type { ConfProblem } from "../conf/syntax-tree.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { sectionLabel } from "../conf/queries/walk-config.ts";
import type { LintFinding, SourcePlace } from "./finding.ts";
import { accessFileDetections, accessFilePaths } from "./access-files.ts";
import { invalidCommands } from "./invalid-commands.ts";
import { lintContext, type LintContext, type LintContextOptions } from "./lint-context.ts";
import { RULES, ruleById } from "./all-rules.ts";
import { SEVERITIES, type Detection, type Rule } from "./rule.ts";
import { targetRefusals } from "./target-refusals.ts";

export interface LintResult {
  findings: LintFinding[];
  /** Every file the tree's configuration reads (on 2.2, then those only 2.4 reads), then the per-directory
   * files (.htaccess) lint read, as tree paths. */
  files: string[];
  /** What the configuration model found wrong with the input itself (severity "error": bad input). */
  problems: ConfProblem[];
  context: LintContext;
}

function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return (end < 0 ? text : text.slice(0, end)).replace(/\r$/, "").trim();
}

function includeChain(config: EffectiveConfig, other: EffectiveConfig, file: string): SourcePlace[] {
  const chain: SourcePlace[] = [];
  const seen = new Set<string>();
  let current = file;
  for (;;) {
    const span = config.includedBy.get(current) ?? other.includedBy.get(current);
    if (span === undefined || seen.has(span.file)) break;
    seen.add(current);
    chain.unshift({ file: span.file, line: span.line, column: span.column });
    current = span.file;
  }
  return chain;
}

function normalised(text: string): string {
  const trimmed = text.trim();
  // Most lines have single spaces only: no second replace pass, no callback (the lead `<` or `</` lower-cases
  // to itself, so the whole first word is lower-cased).
  const spaced = /\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
  return spaced.replace(/^(<?\/?)(\S+)/, (_, lead: string, name: string) => lead + name.toLowerCase());
}

/** `normals`: directive lines normalised, by text, for one lint: a tree repeats its lines (every vhost's
 * `Order deny,allow`), and the regular expressions cost more than the lookup over 90,000 findings. */
function fingerprint(rule: string, file: string, sections: readonly string[], directive: string, normals: Map<string, string>): string {
  let normal = normals.get(directive);
  if (normal === undefined) normals.set(directive, (normal = normalised(directive)));
  // crypto.hash, not createHash: one call, no Hash object per finding.
  return hash("sha256", [rule, file, ...sections, normal].join("\u0000"), "hex").slice(0, 32);
}

/** A section's label as written, and normalised for fingerprints: made once per section (a vhost's lines all
 * share its sections). */
const LABELS = new WeakMap<EffectiveSection, { label: string; normal: string }>();
function labelOf(section: EffectiveSection): { label: string; normal: string } {
  let known = LABELS.get(section);
  if (!known) {
    const label = sectionLabel(section);
    known = { label, normal: normalised(label) };
    LABELS.set(section, known);
  }
  return known;
}

/** Include chains by file, per context: every finding of a file shares its file's chain (90,000 findings of a
 * 10,000-vhost tree walk a few thousand chains). */
const CHAINS = new WeakMap<LintContext, Map<string, SourcePlace[]>>();
function chainOf(context: LintContext, file: string): SourcePlace[] {
  let chains = CHAINS.get(context);
  if (!chains) CHAINS.set(context, (chains = new Map()));
  let chain = chains.get(file);
  if (!chain) chains.set(file, (chain = includeChain(context.source, context.target, file)));
  return chain.slice();
}

function toFinding(rule: Rule, detection: Detection, context: LintContext, normals: Map<string, string>): LintFinding {
  const { node } = detection;
  const span = node.span;
  const directive = firstLine(node.kind === "section" ? node.node.openRaw : node.node.raw);
  const labels = detection.sections.map(labelOf);
  const sections = labels.map((label) => label.label);
  return {
    rule: rule.id,
    severity: detection.severity ?? rule.severity,
    security: rule.security ?? false,
    seed: [...rule.seed],
    file: span.file,
    line: span.line,
    column: span.column,
    endLine: node.kind === "section" ? span.line : span.endLine,
    endColumn: node.kind === "section" ? span.column + directive.length - 1 : span.endColumn,
    directive,
    message: detection.message,
    fix: detection.fix,
    fingerprint: fingerprint(rule.id, span.file, labels.map((label) => label.normal), directive, normals),
    sections,
    includeChain: chainOf(context, span.file),
    related: (detection.related ?? []).map((s) => ({ file: s.file, line: s.line, column: s.column })),
  };
}

/** Line and column as one number while both fit exactly (columns to 2^24: 2.4 reads lines up to 16 MB). */
function placeKey(line: number, column: number): number | string {
  return column < 2 ** 24 && line < 2 ** 28 ? line * 2 ** 24 + column : `${line}:${column}`;
}

export function lintContextFindings(context: LintContext, rules: readonly Rule[] = RULES): LintFinding[] {
  const detections: Array<{ rule: Rule; detection: Detection }> = [];
  // By id, the first of each as rules.find gives it: the passes own tens of thousands of lines.
  const byId = new Map<string, Rule>();
  for (const rule of rules) if (!byId.has(rule.id)) byId.set(rule.id, rule);
  for (const owned of [...invalidCommands(context, rules), ...targetRefusals(context, rules), ...accessFileDetections(context, rules)]) {
    const rule = byId.get(owned.rule) ?? ruleById(owned.rule);
    if (rule) detections.push({ rule, detection: owned.detection });
  }
  for (const rule of rules) for (const detection of rule.detect?.(context) ?? []) detections.push({ rule, detection });

  // One finding per rule and place (a line found twice, as a macro's body used twice, is reported once): places
  // by rule, then file, then line and column as one number, not a string key made and hashed per detection.
  const placed = new Map<string, Map<string, Set<number | string>>>();
  const made: LintFinding[] = [];
  const normals = new Map<string, string>();
  for (const { rule, detection } of detections) {
    if (context.legacyBranch(detection.node.guards)) continue;
    const span = detection.node.span;
    let files = placed.get(rule.id);
    if (!files) placed.set(rule.id, (files = new Map()));
    let places = files.get(span.file);
    if (!places) files.set(span.file, (places = new Set()));
    const place = placeKey(span.line, span.column);
    if (places.has(place)) continue;
    places.add(place);
    made.push(toFinding(rule, detection, context, normals));
  }
  // Reading order: where a file is first read (on 2.2, then what only the 2.4 view reads); looked up once per
  // finding, not twice per comparison.
  const order = new Map<string, number>();
  for (const file of [...context.source.files, ...context.target.files]) if (!order.has(file)) order.set(file, order.size);
  const rank = new Map<LintFinding, number>();
  for (const finding of made) rank.set(finding, order.get(finding.file) ?? Infinity);
  // Every key of the sort told apart by the dedupe above: the order made does not show through.
  const findings = made.sort(
    (a, b) =>
      rank.get(a)! - rank.get(b)! ||
      // Most pairs share a file: equal strings compare as 0 without a locale comparison.
      (a.file === b.file ? 0 : a.file.localeCompare(b.file)) ||
      a.line - b.line ||
      a.column - b.column ||
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      a.rule.localeCompare(b.rule),
  );
  // The same directive twice in one section path: the second keeps a fingerprint of its own.
  const seen = new Map<string, number>();
  for (const finding of findings) {
    const count = seen.get(finding.fingerprint) ?? 0;
    seen.set(finding.fingerprint, count + 1);
    if (count > 0) finding.fingerprint = `${finding.fingerprint}:${count + 1}`;
  }
  return findings;
}

export function lintTree(tree: ConfigTree, options: LintContextOptions, rules: readonly Rule[] = RULES): LintResult {
  const context = lintContext(tree, options);
  const findings = lintContextFindings(context, rules);
  const files = [...new Set([...context.source.files, ...context.target.files, ...accessFilePaths(context)])];
  // The first of each file, line and message, by lookup: a tree with thousands of problems (an undefined
  // variable on every vhost) made findIndex and includes quadratic.
  const onSource = new Set(context.source.problems);
  const seen = new Map<string, Map<number, Set<string>>>();
  const problems = [...context.source.problems, ...context.target.problems.filter((p) => !onSource.has(p))].filter((problem) => {
    let lines = seen.get(problem.file);
    if (!lines) seen.set(problem.file, (lines = new Map()));
    let messages = lines.get(problem.line);
    if (!messages) lines.set(problem.line, (messages = new Set()));
    if (messages.has(problem.message)) return false;
    messages.add(problem.message);
    return true;
  });
  return { findings, files, problems, context };
}
