// The `config` command's text output, laid out the way operators read httpd's own dumps: the files read
// (`httpd -t -D DUMP_INCLUDES`), the modules (`-M`), the listeners and virtual hosts with the run settings
// (`-S`, whose vhost lines follow server/vhost.c dump_a_vhost), then every line with file:line:column,
// indented by its sections, and the problems found.
import type { EffectiveConfig } from "../effective-config.ts";
import type { ConfProblem } from "../syntax-tree.ts";
import { effectiveMpm } from "./effective-mpm.ts";
import { listeners } from "./listeners.ts";
import { loadedModules } from "./loaded-modules.ts";
import { hostLogTargets } from "./log-targets.ts";
import { mutexPaths } from "./mutex-paths.ts";
import { pidFile } from "./pid-file.ts";
import { runAs } from "./run-as.ts";
import { effectiveServerRoot } from "./server-root.ts";
import { type DumpVhost, vhostDump } from "./vhost-dump.ts";
import { mainServer } from "./virtual-hosts.ts";
import { sectionLabel, walkConfig } from "./walk-config.ts";

const where = (span: { file: string; line: number }): string => `${span.file}:${span.line}`;

/** An argument as it would be written back: quoted when it holds spaces or is empty. */
function quoteArg(arg: string): string {
  return arg === "" || /[\s"]/.test(arg) ? `"${arg.replace(/(["\\])/g, "\\$1")}"` : arg;
}

/** A vhost's name as -S prints it; without one (and none inherited) httpd looks its address up in DNS. */
function hostName(vhost: DumpVhost): string {
  return vhost.name ?? "(no ServerName)";
}

/** dump_a_vhost's lines (server/vhost.c), from the grouping -S makes on this version (vhost-dump.ts). */
function vhostLines(config: EffectiveConfig): string[] {
  const lines: string[] = [];
  const tls = (vhost: DumpVhost): string => (vhost.host.tls.on ? " [TLS]" : "");
  for (const { address, nameBased, defaultServer, vhosts } of vhostDump(config)) {
    if (!nameBased) {
      lines.push(`${address.padEnd(22)} ${hostName(defaultServer)} (${where(defaultServer.span)})${tls(defaultServer)}`);
      continue;
    }
    lines.push(`${address.padEnd(22)} is a NameVirtualHost`);
    lines.push(`${"".padEnd(8)} default server ${hostName(defaultServer)} (${where(defaultServer.span)})`);
    for (const vhost of vhosts) {
      lines.push(`${"".padEnd(8)} port ${vhost.port ?? "*"} namevhost ${hostName(vhost)} (${where(vhost.span)})${tls(vhost)}`);
      for (const alias of vhost.aliases) lines.push(`${"".padEnd(16)} alias ${alias}`);
      for (const alias of vhost.wildAliases) lines.push(`${"".padEnd(16)} wild alias ${alias}`);
    }
  }
  return lines;
}

function runSettings(config: EffectiveConfig): string[] {
  const lines = [`ServerRoot: "${effectiveServerRoot(config).path}"`];
  const main = mainServer(config);
  lines.push(`Main DocumentRoot: ${main.documentRoot ? `"${main.documentRoot.path}" (${where(main.documentRoot.span)})` : "(the build's default)"}`);
  const errorLog = hostLogTargets(config, null).errorLog;
  // DEFAULT_ERRORLOG of the official builds (httpd -V); a fragment runs in them too.
  const officialBuild = config.layout === "official" || config.layout === "fragment";
  lines.push(
    `Main ErrorLog: ${errorLog ? `"${errorLog.path ?? errorLog.value}" ${errorLog.kind} (${where(errorLog.span)})` : officialBuild ? "(the build's default, logs/error_log)" : "(the build's default)"}`,
  );
  for (const mutex of mutexPaths(config)) {
    const what = mutex.directive === "Mutex" ? `Mutex ${mutex.types.join(" ")}` : mutex.directive;
    const parts = [mutex.path === null ? null : `path="${mutex.path}"`, mutex.mechanism === null ? null : `mechanism=${mutex.mechanism}`];
    lines.push(`${what}: ${parts.filter((part) => part !== null).join(" ")} (${where(mutex.span)})`);
  }
  const pid = pidFile(config);
  lines.push(`PidFile: ${pid ? `"${pid.path}"${pid.span ? ` (${where(pid.span)})` : " (default)"}` : "(the build's default)"}`);
  for (const name of Object.keys(config.defines)) {
    const value = config.defines[name];
    lines.push(`Define: ${name}${value ? `=${value}` : ""}`);
  }
  const { user, group } = runAs(config);
  lines.push(`User: ${user ? `name="${user.value}" (${where(user.span)})` : "(not set)"}`);
  lines.push(`Group: ${group ? `name="${group.value}" (${where(group.span)})` : "(not set)"}`);
  return lines;
}

function directiveLines(config: EffectiveConfig): string[] {
  const walked = walkConfig(config);
  const entries = [
    ...walked.directives.map((e) => ({ index: e.index, depth: e.sections.length, span: e.directive.span, text: [e.directive.name, ...e.directive.args.map(quoteArg)].join(" ") })),
    ...walked.sections.map((e) => ({ index: e.index, depth: e.sections.length, span: e.section.span, text: sectionLabel(e.section) })),
  ].sort((a, b) => a.index - b.index);
  const positions = entries.map((e) => `${e.span.file}:${e.span.line}:${e.span.column}`);
  const width = Math.max(0, ...positions.map((p) => p.length));
  return entries.map((e, i) => `${positions[i]!.padEnd(width)}  ${"  ".repeat(e.depth)}${e.text}`);
}

export function renderConfigText(config: EffectiveConfig, builtinModules: readonly string[], problems: readonly ConfProblem[]): string {
  const out: string[] = [];
  out.push(`httpd ${config.version.text}, layout ${config.layout}, main file ${config.mainFile}`, "");
  out.push("Included configuration files:");
  config.files.forEach((file, i) => out.push(`  ${i === 0 ? "(*)" : "   "} ${file}`));
  out.push("", "Loaded Modules:");
  for (const module of loadedModules(config, builtinModules)) {
    out.push(` ${module.id} (${module.origin})${module.span ? `  ${where(module.span)}` : ""}`);
  }
  const mpm = effectiveMpm(config, builtinModules);
  // 2.4 refuses to start without one (mpm_common.c ap_check_mpm: "No MPM loaded.").
  const none = config.version.family === "2.2" ? "(none)" : '(none loaded: httpd refuses to start, "No MPM loaded.")';
  out.push(`Server MPM: ${mpm ? `${mpm.name}${mpm.span ? ` (${where(mpm.span)})` : " (compiled in)"}` : none}`);
  for (const other of mpm?.others ?? []) out.push(`  also loaded: ${other.id} (${where(other.span!)}); httpd refuses to start, "More than one MPM loaded."`);
  out.push("", "Listen:");
  for (const listener of listeners(config)) {
    out.push(` ${listener.address ?? "*"}:${listener.port} ${listener.protocol} (${where(listener.span)})`);
  }
  out.push("", "VirtualHost configuration:", ...vhostLines(config), ...runSettings(config));
  out.push("", "Directives:", ...directiveLines(config));
  if (problems.length > 0) {
    out.push("", "Problems:");
    for (const problem of problems) {
      out.push(`${problem.file}:${problem.line}:${problem.column}: ${problem.severity}: ${problem.message}`);
      if (problem.hint) out.push(`    ${problem.hint}`);
    }
  }
  return `${out.join("\n")}\n`;
}
