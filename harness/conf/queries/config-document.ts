// The `config` command's JSON contract (schema/config.schema.json, schemaVersion 1.0): what the evaluated tree
// holds for one httpd version, as `httpd -t -D DUMP_INCLUDES`, `-M` and `-S` would tell it, plus every directive
// with its position and the sections around it. Pure: built from an EffectiveConfig and the problems found.
import type { EffectiveConfig, LayoutId } from "../effective-config.ts";
import type { ConfProblem, ProblemSeverity } from "../syntax-tree.ts";
import { effectiveMpm } from "./effective-mpm.ts";
import { loadedModules } from "./loaded-modules.ts";
import { hostNames, virtualHosts } from "./virtual-hosts.ts";
import { sectionLabel, walkConfig } from "./walk-config.ts";

export const CONFIG_SCHEMA_VERSION = "1.0";

export interface ConfigDocumentVhost {
  /** ServerName's host (the main server's when the vhost inherits it), then the ServerAlias names. */
  names: string[];
  /** One address of `<VirtualHost ...>` as written without its port (`*`, `_default_`, `192.0.2.7`, `[::1]`). */
  address: string;
  /** Its port; null for `*` or none. */
  port: number | null;
  tls: boolean;
  /** Where the `<VirtualHost>` opens. */
  file: string;
  line: number;
}

export interface ConfigDocumentDirective {
  name: string;
  /** After ${VAR} substitution. */
  args: string[];
  file: string;
  line: number;
  column: number;
  /** The enclosing sections as written, outermost first (`["<VirtualHost *:80>", "<Directory /var/www>"]`). */
  context: string[];
}

export interface ConfigDocumentProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  severity: ProblemSeverity;
  hint?: string;
}

export interface ConfigDocument {
  schemaVersion: typeof CONFIG_SCHEMA_VERSION;
  /** The httpd version evaluated for ("2.4.68"). */
  version: string;
  layout: LayoutId;
  /** Every file read, in httpd's reading order, as tree paths. */
  files: string[];
  /** Module ids, compiled-in first, then in LoadModule order. */
  modules: string[];
  /** prefork, worker or event; null when no MPM is loaded. */
  mpm: string | null;
  /** One entry per address of each `<VirtualHost>`, in reading order. */
  vhosts: ConfigDocumentVhost[];
  directives: ConfigDocumentDirective[];
  problems: ConfigDocumentProblem[];
}

/** Problems of the tree and of the evaluation, each once, in the order found. */
export function mergeProblems(...lists: readonly (readonly ConfProblem[])[]): ConfProblem[] {
  const seen = new Set<string>();
  const merged: ConfProblem[] = [];
  for (const problem of lists.flat()) {
    const key = JSON.stringify([problem.severity, problem.file, problem.line, problem.column, problem.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(problem);
  }
  return merged;
}

export function configDocument(config: EffectiveConfig, builtinModules: readonly string[], problems: readonly ConfProblem[]): ConfigDocument {
  return {
    schemaVersion: CONFIG_SCHEMA_VERSION,
    version: config.version.text,
    layout: config.layout,
    files: [...config.files],
    modules: loadedModules(config, builtinModules).map((module) => module.id),
    mpm: effectiveMpm(config, builtinModules)?.name ?? null,
    vhosts: virtualHosts(config).flatMap((host) =>
      host.addresses.map((address) => ({
        names: hostNames(host),
        address: address.host ?? "*",
        port: address.port,
        tls: host.tls.on,
        file: host.span!.file,
        line: host.span!.line,
      })),
    ),
    directives: walkConfig(config).directives.map(({ directive, sections }) => ({
      name: directive.name,
      args: [...directive.args],
      file: directive.span.file,
      line: directive.span.line,
      column: directive.span.column,
      context: sections.map(sectionLabel),
    })),
    problems: problems.map((problem) => ({
      file: problem.file,
      line: problem.line,
      column: problem.column,
      message: problem.message,
      severity: problem.severity,
      ...(problem.hint === undefined ? {} : { hint: problem.hint }),
    })),
  };
}
