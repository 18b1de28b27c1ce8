// stock-module-not-loaded: a fragment (a tool's snippet, an application's file) runs on each image's own stock
// httpd.conf, and 2.4's loads far fewer modules than 2.2's. Every consequence of one such module missing is one
// cause, named after the module, with the successor to load on 2.4 (server/module-succession.ts):
//   - a script's handler not run, its source served (handler-not-loaded's knowledge, security);
//   - access rules inside <IfModule X> skipped (protection-module-not-loaded's knowledge, security);
//   - a handler name no loaded module serves (SetHandler server-info): 404 where 2.2 answered;
//   - response headers the module set on 2.2 and nothing sets on 2.4 (mod_expires' Expires and Cache-Control);
//   - any other difference on a request the module's guarded lines govern: lines in a <Directory>, <Files> or
//     <Location> the probe's path meets, or in an .htaccess its directory walk reads (the probe's region), as far as
//     the module can change that field (mod_expires never a status).
// Real servers (the configs/ fragments on 2.2.34's and 2.4.68's stock httpd.conf):
//   staging-lock: <IfModule mod_auth_digest.c> Digest lock: 2.2.34 401, 2.4.68 200; its ScriptAlias hook: 2.2
//   runs deploy.cgi, 2.4 sends its text (neither mod_cgi nor mod_cgid loaded).
//   queuewatch-cgi: AddHandler cgi-script .cgi: 2.2 runs index.cgi for /, 2.4 sends its text.
//   tool-status-alias: <IfModule mod_expires.c> ExpiresActive On / ExpiresDefault M310: 2.2 sends Expires and
//   Cache-Control: max-age=0 on /statgraph/ (the file is older than 310 s), 2.4 neither (no mod_expires).
//   docshelf-rewrite: <IfModule mod_rewrite.c> in its <Directory>: 2.2.34 301 to https:// on /docshelf/ and 403 on
//   /docshelf/index.html~, 2.4.68 200 for both; the same in archive/.htaccess: 302 on 2.2, 200 on 2.4.
// The sets are not kept here: a run reads both images' stock configs (the plan records each side's modules), lint
// reads its 2.2 stock set and the 2.4 target's (lint-context.ts, target-modules.ts).
import type { EffectiveConfig, Guard } from "../conf/effective-config.ts";
import type { SectionPlace } from "../scenario/probe-world.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { successorIds } from "../server/module-succession.ts";
import { moduleOfCondition, mayGovern, protects } from "./access-scope.ts";
import { accessFileConfig, accessFilePaths } from "./access-files.ts";
import { detection } from "./detection.ts";
import type { Evidence } from "./evidence.ts";
import type { LintFinding } from "./finding.ts";
import { handlerFindingModules } from "./handler-not-loaded.ts";
import type { LintContext } from "./lint-context.ts";
import { protectionFindingModules } from "./protection-module-not-loaded.ts";
import type { Claim, Detection, Rule } from "./rule.ts";
import type { Severity } from "./severity.ts";

export const STOCK_MODULE_RULE = "stock-module-not-loaded";

/** One module the baseline's stock config loads and the candidate does not (server/module-succession.ts). */
export interface ModuleGap {
  /** The 2.2 module id ("expires_module"). */
  module: string;
  /** The 2.4 module ids to load in its place that the candidate does not load. */
  successors: readonly string[];
}

/** Handler names served by a module whose absence leaves the name to the default handler (a 404, or the file):
 * the ones handler-not-loaded does not own (its are scripts, whose source 2.4 sends). */
const HANDLERS: Readonly<Record<string, string>> = {
  "server-info": "info_module",
  "server-status": "status_module",
  "send-as-is": "asis_module",
  "imap-file": "imagemap_module",
  "type-map": "negotiation_module",
  "ldap-status": "ldap_module",
  "balancer-manager": "proxy_balancer_module",
};

/** Response headers a module sets (2.2 sends them, 2.4 without the module does not). */
const HEADERS: Readonly<Record<string, readonly string[]>> = {
  expires_module: ["expires", "cache-control"],
  deflate_module: ["content-encoding", "vary"],
  usertrack_module: ["set-cookie"],
  negotiation_module: ["content-location", "vary", "tcn", "alternates"],
  cern_meta_module: [],
  unique_id_module: [],
};

/** The message of this rule's finding names its module in these words; the judge reads it back. */
const MODULE_WORDS = /^the 2\.4 target does not load (\S+), which 2\.2's stock httpd\.conf loads/;

function moduleName(id: string): string {
  return `mod_${id.replace(/_module$/, "")}`;
}

/** "LoadModule expires_module modules/mod_expires.so" for each successor. */
export function successorLines(successors: readonly string[]): string {
  return successors.map((id) => `LoadModule ${id} modules/${moduleName(id)}.so`).join("; ");
}

/** Whether a target loads every successor of a 2.2 module (or the module itself). */
function targetLoads(context: LintContext, id: string): boolean {
  if (context.loaded.target.has(id)) return true;
  const successors = successorIds(id, "2.2", "2.4");
  return successors.length === 0 || successors.every((successor) => context.loaded.target.has(successor));
}

type Walked = ReturnType<typeof walkConfig>["directives"][number];

/** Lines inside <IfModule X> for a module `dropped` names, one group per guard, in reading order. */
function guardGroups(config: EffectiveConfig, dropped: (id: string) => boolean): Array<{ guard: Guard; module: string; entries: Walked[]; protecting: boolean }> {
  const byGuard = new Map<string, { guard: Guard; module: string; entries: Walked[]; protecting: boolean }>();
  for (const entry of walkConfig(config).directives) {
    for (const guard of entry.directive.guards) {
      if (guard.name.toLowerCase() !== "ifmodule" || guard.condition.trim().startsWith("!")) continue;
      const module = moduleOfCondition(guard.condition.trim().split(/\s+/)[0]!.replace(/^"(.*)"$/, "$1"));
      if (!dropped(module)) continue;
      const key = `${guard.span.file}:${guard.span.line}:${guard.span.column}`;
      const group = byGuard.get(key) ?? { guard, module, entries: [], protecting: false };
      group.entries.push(entry);
      group.protecting ||= protects(entry.directive);
      byGuard.set(key, group);
      break;
    }
  }
  return [...byGuard.values()];
}

function detect(context: LintContext): Detection[] {
  if (context.tree.layout !== "fragment") return [];
  const found: Detection[] = [];
  const dropped = (id: string): boolean => context.loaded.source.has(id) && !targetLoads(context, id);
  const skipped = (group: ReturnType<typeof guardGroups>[number], extra: string, severity: Severity): Detection => {
    const first = group.entries[0]!;
    return detection(
      first,
      `the 2.4 target does not load ${group.module}, which 2.2's stock httpd.conf loads: <IfModule ${group.guard.condition}> (line ${group.guard.span.line}) and its ${group.entries.length === 1 ? "line are" : `${group.entries.length} lines are`} skipped on 2.4${extra}`,
      `Load ${successorIds(group.module, "2.2", "2.4").map(moduleName).join(" and ")} on 2.4 (${successorLines(successorIds(group.module, "2.2", "2.4"))}) where the distribution ships it, or drop the section`,
      { severity, related: [group.guard.span, ...group.entries.slice(1).map((entry) => entry.directive.span)] },
    );
  };
  // Lines inside <IfModule X> for such a module, one finding per guard; guards around access rules are
  // protection-module-not-loaded's (its finding says what 2.4 lets in).
  // The section says "when present": skipping it is what its author allowed for, so lint rates it expected; a run
  // rates what it changed by what the servers answered (a header lost is behaviour).
  for (const group of guardGroups(context.source, dropped)) if (!group.protecting) found.push(skipped(group, "", "expected"));
  // The same in the per-directory files (.htaccess) the tree ships, read as 2.2 reads them (a RewriteRule set in an
  // application's .htaccess). No other rule reads their guards: one whose lines protect (a RewriteRule [F]) is
  // this rule's too, rated security, as 2.4 lets in what 2.2 refused.
  for (const path of accessFilePaths(context)) {
    for (const group of guardGroups(accessFileConfig(context, path, "2.2"), dropped)) {
      found.push(group.protecting ? skipped(group, ", access lines among them: 2.4 lets in what 2.2 refused there", "security") : skipped(group, "", "expected"));
    }
  }
  // Handler names whose module the target does not load: read where 2.4 reads them.
  for (const entry of walkConfig(context.target).directives) {
    if (entry.directive.key !== "sethandler" && entry.directive.key !== "addhandler") continue;
    const module = HANDLERS[(entry.directive.args[0] ?? "").toLowerCase()];
    if (module === undefined || !dropped(module)) continue;
    found.push(
      detection(
        entry,
        `the 2.4 target does not load ${module}, which 2.2's stock httpd.conf loads: no module serves the handler "${entry.directive.args[0]}" on 2.4, so the default handler answers (404 where there is no file)`,
        `Load ${successorIds(module, "2.2", "2.4").map(moduleName).join(" and ")} on 2.4 (${successorLines(successorIds(module, "2.2", "2.4"))})`,
        { severity: "behaviour" },
      ),
    );
  }
  return found;
}

/** The 2.2 modules a lint finding stands for, when it is one of the stock-module findings (this rule's,
 * handler-not-loaded's, protection-module-not-loaded's); empty otherwise. */
export function lintFindingModules(finding: LintFinding): string[] {
  if (finding.rule === STOCK_MODULE_RULE) {
    const match = MODULE_WORDS.exec(finding.message);
    return match ? [match[1]!] : [];
  }
  if (finding.rule === "handler-not-loaded") return handlerFindingModules(finding);
  if (finding.rule === "protection-module-not-loaded") return protectionFindingModules(finding);
  return [];
}

/** The module a difference follows from, when another rule's claim or the outcome change did not already say
 * more: a 2.2 header of a missing module's that 2.4 does not send, or a difference on a request this rule's lines
 * govern: a handler's, or guarded lines in a per-directory section the request meets (a probe's region: a
 * RewriteRule in <Directory> that redirects or forbids on 2.2 and is skipped on 2.4), as far as the module's lines
 * can change that field. `current`: the kind of cause the difference has now ("unexplained", "outcome"). */
export function stockModuleClaim(evidence: Evidence, gap: readonly ModuleGap[], current: "unexplained" | "outcome"): { module: string; claim: Claim } | null {
  if (gap.length === 0) return null;
  const missing = new Set(gap.map((g) => g.module));
  if (current === "unexplained" && evidence.field.startsWith("header:") && evidence.baseline !== null && evidence.candidate === null) {
    const header = evidence.field.slice("header:".length);
    const module = gap.find((g) => HEADERS[g.module]?.includes(header))?.module;
    if (module !== undefined) {
      return { module, claim: { summary: `2.4 sent no ${header} header on ${evidence.request?.path ?? "the request"}, which ${moduleName(module)} set on 2.2`, severity: "behaviour" } };
    }
  }
  const request = evidence.request;
  if (request === null) return null;
  const path = request.path;
  // A handler line first (it decides the answer), then guarded lines skipped in a per-directory section the request
  // meets: a probe knows its sections (its region); a scenario's own request only a <Location>'s, by its path.
  // A guard that also holds access lines (a RewriteRule [F]) is protection-module-not-loaded's finding: its other
  // lines (a redirect beside it) are skipped just the same.
  const own = evidence.findings.filter((finding) => finding.rule === STOCK_MODULE_RULE || finding.rule === "protection-module-not-loaded");
  const handlers = own.filter((finding) => finding.rule === STOCK_MODULE_RULE && /^(Set|Add)Handler\b/i.test(finding.directive) && mayGovern(finding, path));
  const inRegion = own.filter((finding) => {
    if (handlers.includes(finding)) return false;
    if (request.sections !== undefined) return regionOf(finding, request.sections) !== null;
    return current !== "outcome" && finding.rule === STOCK_MODULE_RULE && finding.sections.some((label) => /^<Location(Match)?\s/i.test(label)) && mayGovern(finding, path);
  });
  // The section httpd merges last first: its lines are the ones in force where two sections hold guarded lines.
  if (request.sections !== undefined) {
    const order = (finding: LintFinding) => request.sections!.indexOf(regionOf(finding, request.sections!)!);
    inRegion.sort((a, b) => order(b) - order(a));
  }
  for (const finding of [...handlers, ...inRegion]) {
    const module = lintFindingModules(finding).find((id) => missing.has(id));
    if (module === undefined) continue;
    const handler = handlers.includes(finding);
    if (!handler && !reaches(module, evidence.field)) continue;
    const widened = evidence.status.baseline !== null && [401, 403].includes(evidence.status.baseline) && evidence.status.candidate !== null && evidence.status.candidate < 300;
    const severity: Severity = widened ? "security" : "behaviour";
    const region = handler ? null : (regionOf(finding, request.sections ?? []) ?? null);
    const what = handler
      ? `no module serves ${finding.directive.trim()} on 2.4`
      : `${finding.directive.trim()} and the lines with it${region ? ` in ${region.accessFile ? region.file : region.label}` : ""} are skipped on 2.4`;
    return { module, claim: { summary: `${evidence.field} differs on ${path}: ${what} (${moduleName(module)} is not loaded)`, lines: [{ file: finding.file, line: finding.line }], severity } };
  }
  return null;
}

/** Per-directory sections, as lint's findings label them ("<Directory /srv/www>"). */
const PER_DIRECTORY = /^<(Directory|DirectoryMatch|Files|FilesMatch|Location|LocationMatch)[\s>]/i;

/** The section a request meets that holds a finding's line as its innermost per-directory section, or the
 * per-directory file (.htaccess) it is in, when the request's directory walk reads that file (a <Files> inside one
 * counts as the file); null when the line is in none the request meets (or at server level, which this rule does
 * not tie to requests). */
function regionOf(finding: LintFinding, sections: readonly SectionPlace[]): SectionPlace | null {
  const file = sections.find((s) => s.accessFile === true && s.file === finding.file);
  if (file !== undefined) return file;
  const label = finding.sections.findLast((l) => PER_DIRECTORY.test(l));
  if (label === undefined) return null;
  return sections.find((s) => s.file === finding.file && s.label === label && s.line <= finding.line && finding.line <= s.endLine) ?? null;
}

/** What a module's skipped lines can change on a request they govern, where that is less than the whole answer:
 * mod_expires, mod_headers and their like set headers only (a refusal, a grant or another status is never
 * theirs), mod_deflate also the body's bytes. Any other module may change anything: mod_rewrite the status, a
 * Location, the file served; mod_speling a redirect where 2.4 answers 404. */
const REACH: Readonly<Record<string, "headers" | "encoding">> = {
  expires_module: "headers",
  headers_module: "headers",
  usertrack_module: "headers",
  unique_id_module: "headers",
  cern_meta_module: "headers",
  deflate_module: "encoding",
};

function reaches(module: string, field: string): boolean {
  const reach = REACH[module];
  if (reach === undefined || field.startsWith("header:")) return true;
  return reach === "encoding" && field === "body";
}

/** The cause's title for one module. */
export function stockModuleTitle(gap: ModuleGap): string {
  return `${moduleName(gap.module)} is loaded by 2.2's stock httpd.conf and not on 2.4: load ${gap.successors.map(moduleName).join(" and ")} (${successorLines(gap.successors)}), or run with --target-modules successors`;
}

export const STOCK_MODULE_NOT_LOADED: Rule = {
  id: STOCK_MODULE_RULE,
  seed: ["B4"],
  title: "a module the 2.2 stock httpd.conf loads is not loaded around a fragment on 2.4",
  severity: "behaviour",
  causeByTitle: true,
  detect,
  fix: "Load the module's 2.4 successor where the fragment is deployed (a distribution's package may load it), or run and lint with --target-modules naming what the 2.4 server loads.",
  help: "Guide: some LoadModule lines are commented out in the stock 2.4 httpd.conf; a fragment included into it loses what those modules did on 2.2.",
};
