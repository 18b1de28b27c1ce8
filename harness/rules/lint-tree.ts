// Pure: every rule's detect face over one tree, at once. The engine turns detections into findings: the rule's
// id and severity, the include chain, the section path, a fingerprint that survives moved lines, and drops what
// sits in a dual-syntax config's 2.2 branch. Sorted by file (in reading order), line, column.
import { hash } from "node:crypto";
import type { EffectiveConfig, EffectiveSection } from "../conf/effective-config.ts";
import type { ConfProblem, Span } from "../conf/syntax-tree.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { sectionLabel } from "../conf/queries/walk-config.ts";
import type { LintFinding, SourcePlace } from "./finding.ts";
import { accessFileDetections, accessFilePaths } from "./access-files.ts";
import { contextRefusalLines } from "./context-refused.ts";
import { invalidCommandLines } from "./invalid-commands.ts";
import { lintContext, type LintContext, type LintContextOptions } from "./lint-context.ts";
import { RULES, ruleById } from "./all-rules.ts";
import { placeKey } from "./places.ts";
import { SEVERITIES, type Detection, type Rule, type Severity } from "./rule.ts";
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

/** Trimmed, each run of white space one space, the first word (with its lead `<` or `</`) lower-cased. */
function normalised(text: string): string {
  const trimmed = text.trim();
  // Most lines have single spaces only: no second replace pass. After it, a space ends the first word.
  const spaced = /\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
  // Sliced, not a replace with a callback: the lead `<` or `</` lower-cases to itself.
  const end = spaced.indexOf(" ");
  const word = end < 0 ? spaced : spaced.slice(0, end);
  const lower = word.toLowerCase();
  return lower === word ? spaced : lower + spaced.slice(word.length);
}

/** A line as findings quote it (its first line) and as fingerprints read it (normalised). */
interface Quoted {
  directive: string;
  normal: string;
}

/** A section path as findings show it (labels as written) and as fingerprints read it (each label normalised,
 * each after a NUL, as the fingerprint's text joins them). */
interface Path {
  labels: string[];
  normals: string;
}


/** What one lint makes once and every finding it concerns shares (findings are read, never changed in place,
 * past this module: their arrays may be shared). On a 10,000-vhost tree 90,000 findings come from a few dozen
 * distinct lines, one section path per vhost, one include chain per file and a handful of rules. */
class Shared {
  /** By a line's raw text: a tree repeats its lines (every vhost's `Order deny,allow`), and the regular
   * expressions cost more than the lookup. */
  readonly #quoted = new Map<string, Quoted>();
  #lastRaw: string | undefined;
  #lastQuoted: Quoted | undefined;
  /** Section labels normalised, by label: 10,000 vhosts may all be `<VirtualHost *:80>`. */
  readonly #labels = new Map<string, string>();
  /** Each section's label and its normal form, by section: a section is in the paths of all the lines below it,
   * and its label, made again for each, was a string built and hashed per path. */
  readonly #sectionLabels = new Map<EffectiveSection, { label: string; normal: string }>();
  /** By the walk's array of enclosing sections, which all lines of one section share. */
  readonly #paths = new WeakMap<readonly EffectiveSection[], Path>();
  /** The last path asked: detections come in reading order, and a section's lines share its array. */
  #lastSections: readonly EffectiveSection[] | undefined;
  #lastPath: Path | undefined;
  readonly #chains = new Map<string, SourcePlace[]>();
  #chainFile: string | undefined;
  #chain: SourcePlace[] | undefined;
  /** A copy per rule, not per finding: findings do not hand out the rule's own array. */
  readonly #seeds = new Map<Rule, string[]>();
  #seedRule: Rule | undefined;
  #seed: string[] | undefined;
  /** The fingerprints of one file (`#fingerprintFile`), by the other parts of the text they hash: rule, section
   * path, line. A file's text is in every one of its fingerprints, so no other file's can be the same: the maps go
   * when detections move on to another file (a file met again later hashes its texts again, to the same values).
   * Kept for the whole lint they were one map per rule, file and section path, some 70,000 on 10,000 vhosts (12 MB
   * that outlived the young generation and stayed in the heap to the end). */
  #fingerprints = new Map<string, Map<string, Map<string, string>>>();
  #fingerprintFile: string | undefined;
  #lastRule = "";
  #lastFile = "";
  #lastNormals = "";
  #byLine: Map<string, string> | undefined;
  readonly #context: LintContext;

  constructor(context: LintContext) {
    this.#context = context;
  }

  quoted(raw: string): Quoted {
    // A rule's detections come in runs of the same line (every vhost's `Order deny,allow`), whose nodes share
    // one raw string: the last one is kept.
    if (raw === this.#lastRaw) return this.#lastQuoted!;
    let known = this.#quoted.get(raw);
    if (!known) {
      const directive = firstLine(raw);
      known = { directive, normal: normalised(directive) };
      this.#quoted.set(raw, known);
    }
    this.#lastRaw = raw;
    this.#lastQuoted = known;
    return known;
  }

  path(sections: readonly EffectiveSection[]): Path {
    if (sections === this.#lastSections) return this.#lastPath!;
    let known = this.#paths.get(sections);
    if (!known) {
      // At its exact length: every finding of the section keeps it (grown by push, it kept room for 17).
      const labels = new Array<string>(sections.length);
      let normals = "";
      for (let at = 0; at < sections.length; at++) {
        const section = sections[at]!;
        let known = this.#sectionLabels.get(section);
        if (known === undefined) {
          const label = sectionLabel(section);
          let normal = this.#labels.get(label);
          if (normal === undefined) this.#labels.set(label, (normal = normalised(label)));
          this.#sectionLabels.set(section, (known = { label, normal }));
        }
        labels[at] = known.label;
        normals += `\u0000${known.normal}`;
      }
      known = { labels, normals };
      this.#paths.set(sections, known);
    }
    this.#lastSections = sections;
    this.#lastPath = known;
    return known;
  }

  /** The Include lines that reached a file: every finding of a file shares its file's chain. */
  chain(file: string): SourcePlace[] {
    // Findings come in runs of one file: the last one's chain is kept.
    if (file === this.#chainFile) return this.#chain!;
    let chain = this.#chains.get(file);
    if (!chain) this.#chains.set(file, (chain = includeChain(this.#context.source, this.#context.target, file)));
    this.#chainFile = file;
    this.#chain = chain;
    return chain;
  }

  seed(rule: Rule): string[] {
    // Findings come in runs of one rule: the last one's seed is kept.
    if (rule === this.#seedRule) return this.#seed!;
    let seed = this.#seeds.get(rule);
    if (!seed) this.#seeds.set(rule, (seed = [...rule.seed]));
    this.#seedRule = rule;
    this.#seed = seed;
    return seed;
  }

  /** Stable across moved lines: the rule, the file, the section path and the line, normalised, NUL-separated.
   * crypto.hash, not createHash: one call, no Hash object per finding. Each text hashed once per lint: the
   * vhosts of one file often read alike (90,000 findings of a 10,000-vhost tree hash 36,000 texts). Looked up
   * by its parts, strings made once per lint whose hashes the maps keep; the text is made only to be hashed
   * (as a key, it was a string built, flattened and hashed by the map for each of the 90,000 findings). */
  fingerprint(rule: string, file: string, path: Path, quoted: Quoted): string {
    // Findings come in runs of one rule, file and section path: the lines' map of the last run is kept.
    if (this.#byLine === undefined || rule !== this.#lastRule || file !== this.#lastFile || path.normals !== this.#lastNormals) {
      if (file !== this.#fingerprintFile) {
        this.#fingerprints = new Map();
        this.#fingerprintFile = file;
      }
      this.#byLine = inner(inner(this.#fingerprints, rule), path.normals);
      this.#lastRule = rule;
      this.#lastFile = file;
      this.#lastNormals = path.normals;
    }
    const byLine: Map<string, string> = this.#byLine;
    let known = byLine.get(quoted.normal);
    // The first 16 bytes in hex, made as a string of its own: a slice of the whole digest's hex kept all 64
    // characters alive for each of the 36,000 fingerprints a 10,000-vhost tree keeps.
    if (known === undefined) byLine.set(quoted.normal, (known = hash("sha256", `${rule}\u0000${file}${path.normals}\u0000${quoted.normal}`, "buffer").toString("hex", 0, 16)));
    return known;
  }
}

/** The map under `key` in `outer`, made when missing. */
function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}

const NOTHING_RELATED: SourcePlace[] = [];

/** Whether a finding is a security change: its severity's, whoever set it (a detection rated on its own from the
 * outcome it predicts, an .htaccess line's 500, the rule's own), or the rule's flag where the rule's own rating
 * stands and the rule says its construct widens access at another severity. */
export function findingSecurity(rule: Pick<Rule, "security">, detection: Pick<Detection, "severity">, severity: Severity): boolean {
  return severity === "security" || (detection.severity === undefined && rule.security === true);
}

/** `span` is the detection's node's (a Span made per ask: asked once per detection). */
function toFinding(rule: Rule, detection: Detection, span: Span, shared: Shared): LintFinding {
  const { node } = detection;
  const quoted = shared.quoted(node.kind === "section" ? node.node.openRaw : node.node.raw);
  const directive = quoted.directive;
  const path = shared.path(detection.sections);
  const severity = detection.severity ?? rule.severity;
  const finding: LintFinding = {
    rule: rule.id,
    severity,
    security: findingSecurity(rule, detection, severity),
    seed: shared.seed(rule),
    file: span.file,
    line: span.line,
    column: span.column,
    endLine: node.kind === "section" ? span.line : span.endLine,
    endColumn: node.kind === "section" ? span.column + directive.length - 1 : span.endColumn,
    directive,
    message: detection.message,
    fix: detection.fix,
    fingerprint: shared.fingerprint(rule.id, span.file, path, quoted),
    sections: path.labels,
    includeChain: shared.chain(span.file),
    related: detection.related === undefined || detection.related.length === 0 ? NOTHING_RELATED : detection.related.map((s) => ({ file: s.file, line: s.line, column: s.column })),
  };
  if (detection.predicted !== undefined) finding.predicted = detection.predicted;
  return finding;
}

/** Within one file: line, column, severity, rule. */
function inFile(a: LintFinding, b: LintFinding): number {
  return a.line - b.line || a.column - b.column || SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.rule.localeCompare(b.rule);
}

/** Among files no view reads (rank Infinity): by file name, then as within one file. */
function unread(a: LintFinding, b: LintFinding): number {
  // Most pairs share a file: equal strings compare as 0 without a locale comparison.
  return (a.file === b.file ? 0 : a.file.localeCompare(b.file)) || inFile(a, b);
}

export function lintContextFindings(context: LintContext, rules: readonly Rule[] = RULES): LintFinding[] {
  // One finding per rule and place (a line found twice, as a macro's body used twice, is reported once): places
  // by rule, then file, then line and column as one number, not a string key made and hashed per detection.
  // Findings go straight into their file's list (the sort below is by file first), in the order made.
  const placed = new Map<string, Map<string, Set<number | string>>>();
  const byFile = new Map<string, LintFinding[]>();
  const made: LintFinding[] = [];
  const shared = new Shared(context);
  // Detections come in runs of one rule and one file: the last lookup is kept.
  let lastRule = "";
  let lastFile = "";
  let lastPlaces: Set<number | string> | undefined;
  let lastList: LintFinding[] | undefined;
  const add = (rule: Rule, detection: Detection): void => {
    if (context.legacyBranch(detection.node.guards)) return;
    const span = detection.node.span;
    if (lastPlaces === undefined || rule.id !== lastRule || span.file !== lastFile) {
      let files = placed.get(rule.id);
      if (!files) placed.set(rule.id, (files = new Map()));
      lastPlaces = files.get(span.file);
      if (!lastPlaces) files.set(span.file, (lastPlaces = new Set()));
      lastList = byFile.get(span.file);
      if (!lastList) byFile.set(span.file, (lastList = []));
      lastRule = rule.id;
      lastFile = span.file;
    }
    // One set operation: a place already there leaves the size as it was.
    const size = lastPlaces.size;
    if (lastPlaces.add(placeKey(span.line, span.column)).size === size) return;
    const finding = toFinding(rule, detection, span, shared);
    lastList!.push(finding);
    made.push(finding);
  };
  // By id, the first of each as rules.find gives it: the passes own tens of thousands of lines.
  const byId = new Map<string, Rule>();
  for (const rule of rules) if (!byId.has(rule.id)) byId.set(rule.id, rule);
  // Each pass read as it goes (the invalid-command pass a line at a time), in the same order as before.
  const passes = [() => invalidCommandLines(context, rules), () => contextRefusalLines(context, rules), () => targetRefusals(context, rules), () => accessFileDetections(context, rules)];
  for (const pass of passes) {
    // The passes credit lines in runs of one rule: the last one looked up is kept.
    let id: string | undefined;
    let rule: Rule | undefined;
    for (const owned of pass()) {
      if (owned.rule !== id) {
        id = owned.rule;
        rule = byId.get(id) ?? ruleById(id);
      }
      if (rule) add(rule, owned.detection);
    }
  }
  for (const rule of rules) for (const detection of rule.detect?.(context) ?? []) add(rule, detection);

  // Reading order: where a file is first read (on 2.2, then what only the 2.4 view reads), then the files
  // neither view reads (.htaccess) by name. Each file's findings sorted alone: no rank looked up per comparison.
  const findings: LintFinding[] = [];
  const read = new Set<string>();
  for (const files of [context.source.files, context.target.files]) {
    for (const file of files) {
      if (read.has(file)) continue;
      read.add(file);
      const list = byFile.get(file);
      if (list) for (const finding of list.sort(inFile)) findings.push(finding);
    }
  }
  // Sorted together, in the order made: names localeCompare finds equal keep the order one sort of all gave.
  const readPart = findings.length;
  if (findings.length < made.length) for (const finding of made.filter((finding) => !read.has(finding.file)).sort(unread)) findings.push(finding);

  // The same directive twice in one section path: the second keeps a fingerprint of its own. Counted by file
  // (a fingerprint hashes its file: equal ones share it), in small maps. A read file's findings come together (its
  // list above), so its map goes once the next file begins; the unread files' (sorted by a locale comparison, which
  // may find two names equal) keep theirs to the end.
  const byFileSeen = new Map<string, Map<string, number>>();
  let file: string | undefined;
  let seen = new Map<string, number>();
  // An index loop: once over 90,000 findings, mostly unoptimised (for-of makes an iterator result each).
  for (let at = 0; at < findings.length; at++) {
    const finding = findings[at]!;
    if (finding.file !== file) {
      file = finding.file;
      if (at < readPart) seen = new Map();
      else {
        const known = byFileSeen.get(file);
        if (known) seen = known;
        else byFileSeen.set(file, (seen = new Map()));
      }
    }
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
