// Pure: the LoadModule lines of a tree, carried to one side's image. Paths are pointed at the image's module
// directory; on a newer line than the tree was written for, renamed modules take their successor's name, gone
// ones are commented out, and what the older core did is loaded with -C (before the config is read, so the
// tree's own <IfModule> sections see it and no line of the tree moves). Every change is an Adaptation.
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { resolveServerPath } from "../../conf/queries/server-root.ts";
import { directivesNamed } from "../../conf/queries/walk-config.ts";
import { moduleBinding } from "../../server/module-map.ts";
import { succession } from "../../server/module-succession.ts";
import type { Family } from "../../versions/httpd-version.ts";
import type { LineEdit } from "./line-edit.ts";
import type { Adaptation } from "./tree-side-plan.ts";

export interface ImageModules {
  family: Family;
  /** .so file names in the image's module directory. */
  files: ReadonlySet<string>;
  /** Logical names compiled into the image's httpd. */
  builtin: ReadonlySet<string>;
  modulesDir: string;
}

export interface ModuleAdaptation {
  edits: LineEdit[];
  /** Directives for httpd's -C option. */
  startDirectives: string[];
  adaptations: Adaptation[];
}

/** `mod_rewrite.so` → `rewrite`; null for files outside the mod_*.so convention (libphp5.so). */
function logicalName(file: string): string | null {
  return /^mod_(.+)\.so$/.exec(file)?.[1] ?? null;
}

/** @param compiledIn modules the tree's own distribution builds into httpd, loaded here when the image has
 *  them as files (layoutCompiledIn) */
export function adaptModules(config: EffectiveConfig, image: ImageModules, writtenFor: Family, compiledIn: readonly string[] = []): ModuleAdaptation {
  const carry = succession(writtenFor, image.family);
  const edits: LineEdit[] = [];
  const adaptations: Adaptation[] = [];
  const loaded = new Set<string>(image.builtin);
  // Successors beyond the one that takes the line, loaded with -C once every line is read.
  const extra: Array<{ name: string; reason: string }> = [];

  const lineFor = (name: string): string | null => {
    const binding = moduleBinding(name, image.family);
    if (typeof binding === "string") return null;
    return image.files.has(binding.file) ? `LoadModule ${binding.id} ${image.modulesDir}/${binding.file}` : null;
  };

  for (const { directive, index } of directivesNamed(config, "loadmodule")) {
    const [id = "", path = ""] = directive.args;
    const file = path.split("/").pop() ?? "";
    const name = logicalName(file);
    const was = directive.node.raw.trim();
    const at = { file: directive.span.file, line: directive.span.line, endLine: directive.span.endLine };
    const indent = /^\s*/.exec(directive.node.raw)?.[0] ?? "";
    const change = (kind: Adaptation["kind"], now: string, reason: string): void => {
      edits.push({ ...at, text: indent + now });
      adaptations.push({ kind, file: at.file, line: at.line, was, now, reason });
    };
    const successors = name === null ? undefined : carry?.modules[name];
    if (name !== null && successors !== undefined) {
      const reason = carry?.reasons[name] ?? "";
      for (const next of successors.slice(1)) extra.push({ name: next, reason });
      if (successors.length === 0) {
        change("module-absent", `# ${was}  (httpd-upgrade-harness: no such module in ${image.family})`, reason);
        continue;
      }
      if (successors[0] !== name) {
        const line = lineFor(successors[0]!);
        // Two 2.2 modules can have one successor (authn_alias and authn_default): it is loaded once.
        if (loaded.has(successors[0]!)) change("module-absent", `# ${was}  (httpd-upgrade-harness: ${successors[0]} is loaded already)`, reason);
        else if (line === null) change("module-absent", `# ${was}  (httpd-upgrade-harness: ${successors[0]} is not in this image)`, reason);
        else {
          change("module-renamed", line, reason);
          loaded.add(successors[0]!);
        }
        continue;
      }
    }
    if (!image.files.has(file)) {
      change("module-absent", `# ${was}  (httpd-upgrade-harness: ${file} is not in this image)`, `the image has no ${file}; the module's directives will be refused`);
      continue;
    }
    if (name !== null) loaded.add(name);
    const target = `${image.modulesDir}/${file}`;
    if (resolveServerPath(config, path, { readAt: index }) !== target) change("module-path", `LoadModule ${id} ${target}`, `the image keeps its modules in ${image.modulesDir}`);
  }

  const startDirectives: string[] = [];
  const add = (name: string, reason: string): void => {
    if (loaded.has(name)) return;
    const line = lineFor(name);
    if (line === null) return;
    loaded.add(name);
    startDirectives.push(line);
    adaptations.push({ kind: "module-added", file: null, line: null, was: null, now: line, reason });
  };
  for (const name of compiledIn) add(name, `the tree's distribution builds ${name} into httpd, so the tree never loads it`);
  for (const next of extra) add(next.name, next.reason);
  if (carry) {
    const hasMpm = [...loaded].some((name) => name.startsWith("mpm_"));
    for (const name of carry.core) {
      if (name.startsWith("mpm_") && hasMpm) continue;
      add(name, carry.reasons[name] ?? "");
    }
  }
  return { edits, startDirectives, adaptations };
}
