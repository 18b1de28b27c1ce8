// The pass behind most blocking findings: every line of the tree that the 2.4 target, with the modules the tree
// loads there, would refuse as "Invalid command" (AH00526), and every LoadModule of a module file 2.4 does not
// have. Which row explains it is data on the rules (Rule.owns); what no row owns falls to the generic rules
// (a module the target does not load: B4; a directive no 2.4 module has: V1 when 2.2 had none either).
import type { EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig, type WalkedConfig } from "../conf/queries/walk-config.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection, OwnedLine, Rule } from "./rule.ts";

// Read by the evaluator itself (conditional sections, Include, Define, ...), never "Invalid command" here.
const EVALUATOR_KEYS = new Set(["include", "includeoptional", "ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection", "macro", "use", "undefmacro", "define", "undefine", "serverroot", "loadmodule", "loadfile"]);

export interface OwnedDetection {
  rule: string;
  detection: Detection;
}

/** Rules owning each directive name and each module id, in the rules' order; made once per rule list (a large
 * tree asks for every one of its lines). */
const OWNERS = new WeakMap<readonly Rule[], { byName: Map<string, Rule[]>; byModule: Map<string, Rule[]> }>();
function owners(rules: readonly Rule[]): { byName: Map<string, Rule[]>; byModule: Map<string, Rule[]> } {
  let known = OWNERS.get(rules);
  if (!known) {
    known = { byName: new Map(), byModule: new Map() };
    for (const rule of rules) {
      for (const name of rule.owns?.directives ?? []) known.byName.set(name.toLowerCase(), [...(known.byName.get(name.toLowerCase()) ?? []), rule]);
      for (const id of rule.owns?.modules ?? []) known.byModule.set(id, [...(known.byModule.get(id) ?? []), rule]);
    }
    OWNERS.set(rules, known);
  }
  return known;
}

/** The rules that may own a line of this name: those owning the name, then those owning one of the 2.4
 * modules it needs (`homes`), in the rules' order. */
function candidatesOf(rules: readonly Rule[], key: string, homes: readonly string[]): Rule[] {
  const { byName, byModule } = owners(rules);
  const byHome = homes.flatMap((id) => byModule.get(id) ?? []);
  return [...(byName.get(key) ?? []), ...(byHome.length === 0 ? [] : rules.filter((rule) => byHome.includes(rule)))];
}

function claim(candidates: readonly Rule[], node: EffectiveDirective | EffectiveSection, context: LintContext): { rule: Rule; line: OwnedLine } | undefined {
  for (const rule of candidates) {
    const line = rule.ownedLine ? rule.ownedLine(node, context) : {};
    if (line !== null) return { rule, line };
  }
  return undefined;
}

function describe(node: EffectiveDirective | EffectiveSection, homes: readonly string[], existed22: boolean): { message: string; fix: string } {
  const name = node.kind === "section" ? `<${node.name}>` : node.name;
  if (homes.length > 0) {
    const module = homes[0]!;
    return {
      // Worded by the module, not the line, so that a module's lines are one finding with all their places (a
      // vhost's RewriteEngine, RewriteCond and RewriteRule): each place shows its own directive.
      message: `2.4 refuses to start: Invalid command (AH00526) for ${module.replace(/_module$/, "")}'s directives, a module this tree does not load on 2.4`,
      fix: `LoadModule ${module} modules/mod_${module.replace(/_module$/, "")}.so`,
    };
  }
  return existed22
    ? { message: `2.4 refuses to start: Invalid command '${name}' (AH00526): 2.4 has no such directive`, fix: `remove ${name}; see the rule for its 2.4 replacement` }
    : { message: `2.4 refuses to start: Invalid command '${name}' (AH00526): no module of httpd has it (a third-party module must be built for 2.4 and loaded)`, fix: `load a 2.4 build of the module that provides ${name}, or remove it` };
}

/** What a line's name alone decides: nothing when the target loads a module that has it; else the rules that
 * may own it and the generic rule's words. */
interface NameVerdict {
  candidates: Rule[];
  generic: string;
  message: string;
  fix: string;
}

/** `consider` of every directive, then every section, of a walk: what it does not return null for. Index loops,
 * not for-of: run once over every line of a large tree, mostly unoptimised, where for-of makes an iterator
 * result per element. */
export function* everyLine<T>(walked: WalkedConfig, consider: (node: EffectiveDirective | EffectiveSection, sections: readonly EffectiveSection[]) => T | null): Generator<T> {
  for (let at = 0; at < walked.directives.length; at++) {
    const entry = walked.directives[at]!;
    const found = consider(entry.directive, entry.sections);
    if (found !== null) yield found;
  }
  for (let at = 0; at < walked.sections.length; at++) {
    const entry = walked.sections[at]!;
    const found = consider(entry.section, entry.sections);
    if (found !== null) yield found;
  }
}

export function invalidCommands(context: LintContext, rules: readonly Rule[]): OwnedDetection[] {
  return [...invalidCommandLines(context, rules)];
}

/** invalidCommands one line at a time, in the same order: the engine makes each finding as its line comes, so
 * the pass's detections (90,000 on a large tree) die young instead of all living to the end of the pass. */
export function* invalidCommandLines(context: LintContext, rules: readonly Rule[]): Generator<OwnedDetection> {
  const { target, loaded, directives } = context;
  const walked = walkConfig(target);
  // By name as written (describe quotes it), once: a large tree repeats a few dozen names over hundreds of
  // thousands of lines.
  // Sections apart: no `<${name}` string made per section to tell them from directives.
  const verdicts = new Map<string, NameVerdict | null>();
  const sectionVerdicts = new Map<string, NameVerdict | null>();
  const verdictOf = (node: EffectiveDirective | EffectiveSection): NameVerdict | null => {
    const name = node.name;
    const known = node.kind === "section" ? sectionVerdicts : verdicts;
    let verdict = known.get(name);
    if (verdict !== undefined) return verdict;
    const homes24 = directives["2.4"].modulesOf(node.key);
    if (EVALUATOR_KEYS.has(node.key) || homes24.some((id) => loaded.target.has(id))) verdict = null;
    else {
      const homes22 = directives["2.2"].modulesOf(node.key);
      // A directive neither line knows, in a tree that loads a module 2.4 has no file for: that module's (V1).
      const candidates = candidatesOf(rules, node.key, homes24.length > 0 ? homes24 : homes22);
      const generic = homes24.length > 0 ? "B4" : homes22.length > 0 ? "removed-directive" : "V1";
      verdict = { candidates, generic, ...describe(node, homes24, homes22.length > 0) };
    }
    known.set(name, verdict);
    return verdict;
  };
  const consider = (node: EffectiveDirective | EffectiveSection, sections: readonly EffectiveSection[]): OwnedDetection | null => {
    const verdict = verdictOf(node);
    if (verdict === null) return null;
    const owner = claim(verdict.candidates, node, context);
    const { message, fix } = verdict;
    return { rule: owner?.rule.id ?? verdict.generic, detection: { node, sections, message: owner?.line.message ?? message, fix: owner?.line.fix !== undefined ? owner.line.fix : fix } };
  };
  yield* everyLine(walked, consider);

  // LoadModule of a file the 2.4 build does not install.
  for (const entry of walked.byKey.get("loadmodule") ?? []) {
    const file = entry.directive.args[1]?.split("/").pop();
    if (file === undefined || directives["2.4"].moduleFiles.has(file)) continue;
    const owner = claim(rules.filter((rule) => rule.owns?.moduleFiles?.includes(file)), entry.directive, context);
    const known22 = directives["2.2"].moduleFiles.has(file);
    const message = known22
      ? `2.4 refuses to start: 2.4 has no ${file} (Cannot load ... into server)`
      : `2.4 refuses to start: ${file} is not a module of httpd 2.4; a module built for 2.2 does not load into 2.4 (module magic number)`;
    const fix = known22 ? `remove this LoadModule line; see the rule for what replaces ${file}` : `load a build of this module made for 2.4, or remove it`;
    yield {
      rule: owner?.rule.id ?? "V1",
      detection: { node: entry.directive, sections: entry.sections, message: owner?.line.message ?? message, fix: owner?.line.fix !== undefined ? owner.line.fix : fix },
    };
  }
}
