// A 2.2 tree rewritten for 2.4, every change with the rule that asked for it. Three kinds of change:
// - access sections: translated by meaning (access/plan-access-rewrites.ts), or kept with mod_access_compat;
// - modules: LoadModule lines of renamed or gone modules (server/module-succession.ts), and the modules lint says
//   the 2.4 target lacks for what the tree uses (its MPM, unixd, filter, the CGI or Digest module a fragment
//   needs), written where the tree loads its modules (Debian: a .load file in mods-enabled);
// - directives: a rule's literal fix replaces a directive 2.4 does not have (LockFile → Mutex), or is added
//   beside one whose default moved (EnableSendfile On); "remove it" removes it; any other advice is a change
//   that needs action.
// Nothing is evaluated twice for the rewrite: every edit is anchored at a syntax node of the shared parse, and
// the files are printed from new node lists (migrate/node-edits.ts).
import { posix } from "node:path";
import { directoryAccess24 } from "../access/directory-state-24.ts";
import { planAccessRewrites } from "../access/plan-access-rewrites.ts";
import { ACCESS_SECTION_KEYS, sectionAccess } from "../access/section-access.ts";
import { parseCached } from "../conf/evaluate-tree.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { printFile } from "../conf/print-file.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import type { SourceTree } from "../conf/source-tree.ts";
import type { EffectiveSection } from "../conf/effective-config.ts";
import type { DirectiveNode, SectionNode, Span } from "../conf/syntax-tree.ts";
import { placeOf, whereText } from "../rules/context-knowledge.ts";
import { DIRECTIVES } from "../rules/directive-knowledge.ts";
import type { LintFinding } from "../rules/finding.ts";
import { legacyBranch, lintContext } from "../rules/lint-context.ts";
import { lintContextFindings } from "../rules/lint-tree.ts";
import { messageAtPlace } from "../rules/access-outcome.ts";
import { literalFix } from "../rules/literal-fix.ts";
import { missingCompanions, START_COMPANIONS } from "../rules/start-companion.ts";
import { defaultTargetModules, TARGET_PROFILES, type TargetModules } from "../rules/target-modules.ts";
import { moduleBinding } from "../server/module-map.ts";
import { succession } from "../server/module-succession.ts";
import type { MigrateOptions, Migration, MigrationChange } from "./migration.ts";
import { refusedLines, type RefusedLine } from "./emitted-context.ts";
import { applyNodeEdits, type NodeEdit } from "./node-edits.ts";

/** Rules whose lines the access translation rewrites as a whole section. */
const ACCESS_RULES = new Set(["M2", "order-allow-deny-to-require", "A5", "satisfy-any-grants", "A3"]);
/** Renamed directives whose fix replaces them although 2.4 still reads the old name (with a warning). */
const RENAMES = new Set(["maxclients", "maxrequestsperchild"]);

interface Anchor {
  file: string;
  node: DirectiveNode | SectionNode;
  span: Span;
  /** The sections enclosing it, outermost first: where a line written beside it lands. */
  sections: readonly EffectiveSection[];
}

export function migrateTree(tree: ConfigTree, options: MigrateOptions & { target?: TargetModules }): Migration {
  const target = options.target ?? TARGET_PROFILES[defaultTargetModules(tree.layout)];
  const context = lintContext(tree, { defines: options.defines, target });
  const source = context.source;
  const walked = walkConfig(source);
  const edits = new Map<string, NodeEdit[]>();
  const newFiles = new Map<string, string>();
  const changes: MigrationChange[] = [];
  const edit = (file: string, e: NodeEdit): void => {
    edits.set(file, [...(edits.get(file) ?? []), e]);
  };
  const note = (rule: string, why: string): string[] => (options.annotate ? [`# migrated (${rule}): ${why}`] : []);

  const anchors = new Map<string, Anchor>();
  for (const d of walked.directives) anchors.set(`${d.directive.span.file}:${d.directive.span.line}`, { file: d.directive.span.file, node: d.directive.node, span: d.directive.span, sections: d.sections });
  for (const s of walked.sections) {
    const key = `${s.section.span.file}:${s.section.span.line}`;
    if (!anchors.has(key)) anchors.set(key, { file: s.section.span.file, node: s.section.node, span: s.section.span, sections: s.sections });
  }
  const anchorOf = (f: LintFinding): Anchor | undefined => anchors.get(`${f.file}:${f.line}`);

  // ---- modules ------------------------------------------------------------------------------------------
  const carry = succession("2.2", "2.4")!;
  const loaded = new Set<string>(context.loaded.target);
  const loadLines = walked.byKey.get("loadmodule")?.filter((d) => !legacyBranch(d.directive.guards)) ?? [];
  const firstPath = loadLines[0]?.directive.args[1];
  const moduleDir = tree.layout === "fragment" || firstPath === undefined ? "modules" : posix.dirname(firstPath);
  const lineFor = (name: string): string => {
    const binding = moduleBinding(name, "2.4");
    const { id, file } = typeof binding === "string" ? { id: `${name}_module`, file: `mod_${name}.so` } : binding;
    return `LoadModule ${id} ${moduleDir}/${file}`;
  };
  const nameOfId = (id: string): string => id.replace(/_module$/, "");
  // Where new LoadModule lines go: after the last LoadModule line of the file that holds most of them.
  const byFile = new Map<string, typeof loadLines>();
  for (const d of loadLines) byFile.set(d.directive.span.file, [...(byFile.get(d.directive.span.file) ?? []), d]);
  const moduleBlock = [...byFile.values()].sort((a, b) => b.length - a.length)[0]?.at(-1);
  let needCompat: string | null = null;

  const ensureModule = (name: string, rule: string, why: string, near: Anchor | undefined): void => {
    const id = `${name}_module`;
    if (loaded.has(id)) return;
    loaded.add(id);
    // A module 2.4 exits without at start-up brings its companion (recorded pairs: rules/start-companion.ts).
    for (const pair of START_COMPANIONS) {
      if (pair.module === name) ensureModule(pair.companion, "start-companion", `mod_${name} exits at start-up on 2.4 without mod_${pair.companion} (${pair.code})`, near);
    }
    const line = lineFor(name);
    let span: Span;
    if (tree.layout === "debian") {
      const path = `mods-enabled/${name}.load`;
      newFiles.set(path, `${line}\n`);
      span = { file: path, line: 1, column: 1, endLine: 1, endColumn: line.length };
    } else if (tree.layout !== "fragment" && moduleBlock !== undefined) {
      edit(moduleBlock.directive.span.file, { anchor: moduleBlock.directive.node, after: [...note(rule, why), line] });
      span = moduleBlock.directive.span;
    } else {
      const file = near?.file ?? source.mainFile;
      const parsed = parsedOf(file);
      const first = parsed?.nodes.find((n) => n.kind === "directive" || n.kind === "section");
      if (parsed === undefined || first === undefined) return;
      edit(file, { anchor: first, before: [...note(rule, why), `<IfModule !${id}>`, `    ${line}`, "</IfModule>", ""] });
      span = first.span;
    }
    changes.push({ id: `module:${name}`, rule, span, before: [], after: [line], status: "fixed", why, proven: null });
  };

  const parsedOf = (file: string) => {
    const resolved = tree.source.links.get(file) ?? file;
    const bytes = tree.source.files.get(resolved);
    return bytes === undefined ? undefined : parseCached(file, bytes);
  };

  for (const { directive } of loadLines) {
    const name = /mod_(.+)\.so$/.exec(directive.args[1] ?? "")?.[1];
    const successors = name === undefined ? undefined : carry.modules[name];
    if (name === undefined || successors === undefined) {
      if (name !== undefined) loaded.add(`${name}_module`);
      continue;
    }
    const why = carry.reasons[name] ?? "";
    const rule = name === "disk_cache" || name === "mem_cache" ? "B2" : name === "authn_alias" ? "N3" : name.endsWith("_default") ? "M4" : name === "proxy_balancer" ? "B3" : name === "ssl" ? "ssl-session-cache-provider" : "M2";
    const first = successors[0];
    if (first === undefined || first !== name) {
      let now: string;
      if (first === undefined) now = `# ${directive.node.raw.trim()}    # ${why}`;
      else if (loaded.has(`${first}_module`)) now = `# ${directive.node.raw.trim()}    # ${first} is loaded already`;
      else {
        now = lineFor(first);
        loaded.add(`${first}_module`);
      }
      edit(directive.span.file, { anchor: directive.node, replace: [...note(rule, why), now] });
      changes.push({ id: `module:${directive.span.file}:${directive.span.line}`, rule, span: directive.span, before: [directive.node.raw.trim()], after: [now], status: first === undefined ? "needs inspection" : "fixed", why, proven: null });
    } else loaded.add(`${name}_module`);
    for (const next of successors.slice(1)) {
      if (next === "access_compat") continue; // only when a section keeps 2.2's lines (below)
      if (loaded.has(`${next}_module`)) continue;
      loaded.add(`${next}_module`);
      const line = lineFor(next);
      edit(directive.span.file, { anchor: directive.node, after: [...note(rule, why), line] });
      changes.push({ id: `module:${next}`, rule, span: directive.span, before: [], after: [line], status: "fixed", why, proven: null });
    }
  }

  // ---- findings: modules the target lacks, directives it refuses or reads otherwise -----------------------
  const findings = lintContextFindings(context).filter((f) => f.severity !== "expected" && !ACCESS_RULES.has(f.rule));
  const handled = new Set<string>();
  for (const found of findings) {
    // Each change is about one place: its reason says what the access model predicts there.
    const f = { ...found, message: messageAtPlace(found) };
    const anchor = anchorOf(f);
    if (/^\s*LoadModule\b/i.test(f.directive)) continue; // module lines: above
    const moduleId = /\bLoadModule\s+(\w+_module)\b/.exec(f.fix ?? "")?.[1] ?? /^Load (\w+_module)\b/.exec(f.fix ?? "")?.[1];
    if (moduleId !== undefined) {
      ensureModule(nameOfId(moduleId), f.rule, f.message, anchor);
      continue;
    }
    const key = `${f.file}:${f.line}:${f.rule}`;
    if (handled.has(key)) continue;
    handled.add(key);
    const fix = f.fix?.trim() ?? "";
    const base = { id: `${f.rule}:${f.file}:${f.line}`, rule: f.rule, span: { file: f.file, line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn }, before: [f.directive.trim()], proven: null };
    const literal = literalFix(f);
    if (anchor !== undefined && literal !== null) {
      const lines = unwrapIfVersion(literal.split("\n"));
      const anchorName = anchor.node.name.toLowerCase();
      // A directive 2.4 does not have is replaced; beside one it reads (DocumentRoot, SSLOptions) the fix is added.
      const replaces = RENAMES.has(anchorName) || DIRECTIVES["2.4"].modulesOf(anchor.node.name).length === 0;
      // Never a line 2.4 refuses where it lands: a server-level line out of the per-directory section it was
      // found in; a per-directory line at server level has no one right place, so the operator places it.
      const refused = refusedLines(lines, anchor.sections);
      const outer = anchor.sections.find((section) => placeOf([section]) !== "server");
      if (refused.length > 0 && !(outer !== undefined && refused.every((line) => line.where === "outside"))) {
        changes.push({ ...base, after: [], status: "needs action", why: `${f.message}; ${lines.join(" / ")} cannot be written here: ${refusalText(refused)}: write it into each section it applies to` });
        continue;
      }
      if (refused.length > 0 && outer !== undefined) {
        if (replaces) edit(anchor.file, { anchor: anchor.node, replace: [] });
        edit(outer.span.file, { anchor: outer.node, before: [...note(f.rule, f.message), ...lines] });
        changes.push({ ...base, after: lines, status: "fixed", why: `${f.message} (written before <${outer.name}>: ${refusalText(refused)})` });
        continue;
      }
      edit(anchor.file, replaces ? { anchor: anchor.node, replace: [...note(f.rule, f.message), ...lines] } : { anchor: anchor.node, after: [...note(f.rule, f.message), ...lines] });
      changes.push({ ...base, after: lines, status: "fixed", why: f.message });
      continue;
    }
    if (anchor !== undefined && /^remove\b/i.test(fix)) {
      const advice = /^remove[^;]*;\s*(.+)$/is.exec(fix)?.[1] ?? null;
      edit(anchor.file, { anchor: anchor.node, replace: note(f.rule, f.message) });
      changes.push({ ...base, after: [], status: advice === null ? "fixed" : "needs inspection", why: advice === null ? f.message : `${f.message}; ${advice}` });
      continue;
    }
    changes.push({ ...base, after: [], status: f.severity === "deprecated" ? "needs inspection" : "needs action", why: fix === "" ? f.message : `${f.message}; ${fix}` });
  }

  // ---- access ---------------------------------------------------------------------------------------------
  const rewrites = planAccessRewrites(tree, source, { rollback: options.rollback, skip: (d) => legacyBranch(d.guards) });
  let translated = false;
  for (const r of rewrites) {
    if (r.compat !== null) {
      needCompat ??= `${r.span.file}:${r.span.line} keeps 2.2's access lines`;
      changes.push({ id: r.id, rule: "M2", span: r.span, before: [], after: [], status: "needs action", why: `kept as 2.2 wrote it, with mod_access_compat: ${r.compat.reason}`, proven: options.rollback.has(r.id) ? false : null });
      continue;
    }
    const before = r.remove.map((n) => n.raw.trim());
    if (same(before, r.insert)) continue; // already 2.4's form (a lone Require valid-user)
    // A per-directory file's lines (.htaccess: no anchor in the config's walk) take Require like 2.2's Order.
    const at = anchors.get(`${r.file}:${r.remove[0]!.span.line}`);
    const refused = at === undefined ? [] : refusedLines(r.insert, at.sections);
    if (refused.length > 0) {
      changes.push({ id: r.id, rule: "M2", span: r.span, before, after: [], status: "needs action", why: `${r.meaning}; ${r.insert.join(" / ")} cannot be written here: ${refusalText(refused)}`, proven: null });
      continue;
    }
    translated = true;
    const [first, ...rest] = r.remove;
    edit(r.file, { anchor: first!, replace: [...note("M2", r.meaning), ...r.insert] });
    for (const node of rest) edit(r.file, { anchor: node, replace: [] });
    changes.push({ id: r.id, rule: "M2", span: r.span, before, after: r.insert, status: "fixed", why: r.meaning, proven: null });
  }
  // An AuthType whose module 2.2 loads and the 2.4 target does not: 2.4 answers 500 wherever it authenticates
  // ("AuthType Digest configured without corresponding module"; real 2.4.68, the differential fuzzer's fixtures).
  for (const entry of walkConfig(context.target).byKey.get("authtype") ?? []) {
    const kind = entry.directive.args[0]?.toLowerCase();
    const module = kind === "digest" ? "auth_digest" : kind === "basic" ? "auth_basic" : null;
    if (module === null || !context.loaded.source.has(`${module}_module`) || context.loaded.target.has(`${module}_module`)) continue;
    ensureModule(module, "auth-type-module", `AuthType ${entry.directive.args[0]} needs mod_${module}, which the 2.4 target does not load`, anchors.get(`${entry.directive.span.file}:${entry.directive.span.line}`));
  }
  // A 2.2 branch (<IfModule !mod_authz_core.c>, <IfVersion < 2.3>) is how 2.2 ran the section, and is left alone
  // for its 2.4 branch; where the section has none, 2.4 skips the lines and applies no access rule of the section's
  // own: what 2.2 denied there, 2.4 grants (the differential fuzzer's fixtures, real 2.2.34 and 2.4.68).
  const target24 = new Map(walkConfig(context.target).sections.map((e) => [`${e.section.span.file}:${e.section.span.line}`, e.section]));
  for (const entry of walked.sections) {
    if (!ACCESS_SECTION_KEYS.has(entry.section.key)) continue;
    const legacy = sectionAccess(entry.section).directives.filter((d) => legacyBranch(d.guards));
    if (legacy.length === 0) continue;
    const on24 = target24.get(`${entry.section.span.file}:${entry.section.span.line}`);
    const own24 = on24 === undefined ? null : directoryAccess24(on24);
    if (own24 !== null && (own24.authz !== null || own24.compat !== null)) continue;
    changes.push({
      id: `access-legacy:${entry.section.span.file}:${entry.section.span.line}`,
      rule: "M2",
      span: entry.section.span,
      before: legacy.map((d) => d.node.raw.trim()),
      after: [],
      status: "needs action",
      why: `${legacy.map((d) => d.node.raw.trim()).join(" / ")} sit in a 2.2-only branch and the section has no 2.4 branch: 2.4 applies none of its access lines; write the section's Require lines for 2.4 (outside the 2.2 branch)`,
      proven: null,
    });
  }
  // The other way round: 2.2 host lines (and Satisfy) in a branch only 2.4 reads (<IfModule mod_access_compat.c>, <IfVersion >=
  // 2.4>): 2.2 never applied them, 2.4 does: it refuses what 2.2 let through, or (Satisfy Any) lets through what 2.2 asked a
  // password for (the differential fuzzer's fixtures).
  const read22 = new Set(walked.directives.map((d) => `${d.directive.span.file}:${d.directive.span.line}`));
  for (const entry of walkConfig(context.target).sections) {
    if (!ACCESS_SECTION_KEYS.has(entry.section.key)) continue;
    const only24 = sectionAccess(entry.section).directives.filter((d) => (d.key === "order" || d.key === "allow" || d.key === "deny" || d.key === "satisfy") && !read22.has(`${d.span.file}:${d.span.line}`));
    if (only24.length === 0) continue;
    changes.push({
      id: `access-only-24:${entry.section.span.file}:${entry.section.span.line}`,
      rule: "M2",
      span: only24[0]!.span,
      before: only24.map((d) => d.node.raw.trim()),
      after: [],
      status: "needs action",
      why: `${only24.map((d) => d.node.raw.trim()).join(" / ")} sit in a branch 2.2 skipped and 2.4 reads: 2.2 never applied them, 2.4 will (with mod_access_compat), and refuses or grants what 2.2 did not; remove them unless 2.4 is meant to decide differently`,
      proven: null,
    });
  }
  if (translated && tree.layout !== "fragment") ensureModule("authz_core", "M2", "Require is mod_authz_core's in 2.4", undefined);
  if (needCompat !== null) ensureModule("access_compat", "M2", `Order/Allow/Deny need mod_access_compat in 2.4: ${needCompat}`, undefined);
  // Modules carried over from 2.2's LoadModule lines bring their start-up companions too.
  for (const pair of missingCompanions(loaded)) ensureModule(pair.companion, "start-companion", `mod_${pair.module} exits at start-up on 2.4 without mod_${pair.companion} (${pair.code})`, undefined);

  // ---- print --------------------------------------------------------------------------------------------
  const files = new Map(tree.source.files);
  for (const [file, fileEdits] of edits) {
    const parsed = parsedOf(file);
    if (parsed === undefined) continue;
    files.set(tree.source.links.get(file) ?? file, printFile(applyNodeEdits(parsed, fileEdits)));
  }
  const directories = new Set(tree.source.directories);
  for (const [path, text] of newFiles) {
    files.set(path, Buffer.from(text, "utf8"));
    directories.add(posix.dirname(path) === "." ? "" : posix.dirname(path));
  }
  const migratedSource: SourceTree = { ...tree.source, files, directories };
  return { original: tree, migrated: { ...tree, source: migratedSource }, changes: changes.sort(byPlace) };
}

/** "2.4 takes AllowOverride only inside <Directory>, ...", for each refused line. */
function refusalText(refused: readonly RefusedLine[]): string {
  return refused.map((line) => `2.4 takes ${line.name} ${whereText(line.where)}`).join("; ");
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line.replace(/\s+/g, " ") === b[i]!.replace(/\s+/g, " "));
}

function byPlace(a: MigrationChange, b: MigrationChange): number {
  return a.span.file.localeCompare(b.span.file) || a.span.line - b.span.line || a.id.localeCompare(b.id);
}

/** A fix written for dual-syntax configs (`<IfVersion >= 2.4>` ... `</IfVersion>`) is plain 2.4 lines here. */
function unwrapIfVersion(lines: readonly string[]): string[] {
  if (lines.length >= 2 && /^<IfVersion\b/i.test(lines[0]!.trim()) && /^<\/IfVersion>/i.test(lines.at(-1)!.trim())) {
    return lines.slice(1, -1).map((line) => line.replace(/^ {4}/, ""));
  }
  return [...lines];
}
