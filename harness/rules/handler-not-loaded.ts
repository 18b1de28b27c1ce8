// handler-not-loaded: a script mapped to a handler (or filter) whose module 2.2 loads and the 2.4 target does
// not: 2.4's default handler sends the file itself, so the script's source text goes to the client.
// Real servers (this rule's sample; a fragment included at the end of each image's stock httpd.conf, with
// `Require all granted` for 2.4 under <IfModule mod_authz_core.c>):
//   ScriptAlias /tool-cgi/ DIR + DIR/report.sh:      2.2.34 200 text/plain "ran: ..." (the script ran);
//                                                    2.4.68 200 application/x-sh "#!/bin/sh ..." (its source).
//   AddHandler cgi-script .cgi + Options +ExecCGI:   2.2 200 script output; 2.4 200, no Content-Type, the source.
//   AddOutputFilter INCLUDES .shtml:                 2.2 200 the SSI evaluated; 2.4 200 the raw <!--#...--> text,
//                                                    and "AH00082: an unknown filter was not added: includes".
// The stock 2.4 httpd.conf loads neither mod_cgi nor mod_cgid nor mod_include (2.2's loads all it has).
//   <IfModule mod_actions.c> Action tpl-wrapper /wrap/wrapper.cgi </IfModule> + AddHandler tpl-wrapper .tpl
//                                                    (a PHP-through-CGI style wrapper): 2.2 200 the wrapper's
//                                                    output; 2.4 200 the .tpl file's text (no mod_actions).
// The PHP and mod_perl handlers work the same way (no module registers the handler name, so the default
// handler serves the file); neither image has those modules, so those rows rest on the mechanism.
// A 2.4 fragment without `Require all granted` is refused before any handler runs (403, AH01630: rule A5):
// ScriptAlias /tool-cgi/ to a directory with only Order allow,deny / Allow from all gave 200 (ran) on 2.2.34 and
// 403 on 2.4.68; such a finding is behaviour until the directory is granted.
import { candidateLogs } from "./evidence.ts";
import { eventFamily } from "../logs/message-map.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { admission24, directoryAccess24, stateAt24, type DirectoryAccess24 } from "../access/directory-state-24.ts";
import { parseAuthz } from "../access/model-24.ts";
import { mayGovern } from "./access-scope.ts";
import { CLAIM_WORDS, governingSection, outcomeClaim } from "./access-outcome.ts";
import type { LintFinding } from "./finding.ts";
import { detection, innermost, named } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection, Rule } from "./rule.ts";
import { stockGrantedRoots } from "./stock-access.ts";

interface Mapping {
  /** The handler name, or the filter name for AddOutputFilter/SetOutputFilter. */
  name: string;
  /** Any one of these modules serves it. */
  modules: readonly string[];
  what: string;
  fix: string;
}

const CGI: Mapping = { name: "cgi-script", modules: ["cgi_module", "cgid_module"], what: "CGI scripts", fix: "LoadModule cgid_module modules/mod_cgid.so (or cgi_module modules/mod_cgi.so with the prefork MPM)" };
const HANDLERS: readonly Mapping[] = [
  CGI,
  { name: "server-parsed", modules: ["include_module"], what: "server-side includes", fix: "LoadModule include_module modules/mod_include.so" },
  { name: "application/x-httpd-php", modules: ["php5_module", "php7_module", "php_module"], what: "PHP scripts", fix: "load the PHP module built for 2.4 (or hand .php to PHP-FPM with SetHandler \"proxy:unix:...|fcgi://localhost\")" },
  { name: "php5-script", modules: ["php5_module"], what: "PHP scripts", fix: "load the PHP module built for 2.4, or use PHP-FPM" },
  { name: "perl-script", modules: ["perl_module"], what: "mod_perl scripts", fix: "load mod_perl built for 2.4" },
];
const FILTERS: readonly Mapping[] = [{ name: "includes", modules: ["include_module"], what: "server-side includes", fix: "LoadModule include_module modules/mod_include.so" }];

function mappingOf(key: string, args: readonly string[], actions: ReadonlySet<string>): Mapping | null {
  const lower = args.map((arg) => arg.toLowerCase());
  // A handler name an `Action` line defines is mod_actions' (2.2's stock config loads it, 2.4's does not).
  if ((key === "addhandler" || key === "sethandler") && lower[0] !== undefined && actions.has(lower[0])) {
    return { name: lower[0], modules: ["actions_module"], what: `files for the Action handler "${args[0]}"`, fix: "LoadModule actions_module modules/mod_actions.so" };
  }
  switch (key) {
    case "scriptalias":
    case "scriptaliasmatch":
      return CGI;
    case "addhandler":
    case "sethandler":
      return HANDLERS.find((mapping) => mapping.name === lower[0]) ?? null;
    case "addtype":
      // mod_php registers its handler under the type's name: `AddType application/x-httpd-php .php`.
      return HANDLERS.find((mapping) => mapping.name === lower[0] && mapping.name.includes("/")) ?? null;
    case "addoutputfilter":
    case "setoutputfilter":
      return FILTERS.find((mapping) => lower[0]?.split(";").includes(mapping.name)) ?? null;
    default:
      return null;
  }
}

function detect(context: LintContext): Detection[] {
  const found: Detection[] = [];
  // What each plain <Directory> of the 2.4 view sets (after the stock config's around a fragment), made only when
  // a handler line needs it: most trees have none, and a large tree has tens of thousands of sections.
  let known: DirectoryAccess24[] | null = null;
  const directories = (): DirectoryAccess24[] => {
    if (known !== null) return known;
    known = [];
    if (context.target.layout === "fragment") {
      known.push({ path: "/", authz: parseAuthz(["Require all denied"]), compat: null, satisfy: null, authType: false });
      for (const root of stockGrantedRoots(context.targetModules.name)) known.push({ path: root, authz: parseAuthz(["Require all granted"]), compat: null, satisfy: null, authType: false });
    }
    for (const section of walkConfig(context.target).sections) {
      if (section.section.key !== "directory" || section.section.args[0] === "~") continue;
      known.push(directoryAccess24(section.section));
    }
    return known;
  };
  const actions = new Set(named(context.source, "Action").map((entry) => entry.directive.args[0]?.toLowerCase() ?? "").filter(Boolean));
  for (const entry of named(context.target, "ScriptAlias", "ScriptAliasMatch", "AddHandler", "SetHandler", "AddType", "AddOutputFilter", "SetOutputFilter")) {
    const mapping = mappingOf(entry.directive.key, entry.directive.args, actions);
    if (mapping === null) continue;
    if (!mapping.modules.some((id) => context.loaded.source.has(id))) continue;
    if (mapping.modules.some((id) => context.loaded.target.has(id))) continue;
    const missing = `the target does not load ${mapping.modules.join(" or ")}, which 2.2 loads`;
    // What each client gets where the line applies, on 2.2 and on 2.4, from the model prove checks (predictCells
    // over the tree's probes): the script run, its source sent, or refused first.
    const scriptAlias = entry.directive.key === "scriptalias";
    const { section, obstacle } = scriptAlias ? { section: null, obstacle: null } : governingSection(entry.sections);
    const claim = outcomeClaim(context, {
      section,
      view: "2.4",
      aspect: "handler",
      objects: mapping.name === "cgi-script" ? ["cgi"] : ["ssi"],
      ...(scriptAlias && entry.directive.args[0] !== undefined ? { urlPrefix: entry.directive.args[0] } : {}),
      obstacle: obstacle ?? (entry.directive.key === "scriptaliasmatch" ? "a ScriptAliasMatch maps URLs by a regular expression" : mapping.name === "cgi-script" || mapping.name === "server-parsed" || mapping.name === "includes" ? null : `the model runs only CGI and server-side includes, not ${mapping.what}`),
    });
    if (claim.kind === "differs") {
      const exposed = claim.cells.some((cell) => cell["2.4"].outcome === "source-served");
      const then = exposed ? "so the default handler sends the file itself" : "and once 2.4 lets a client in, the default handler sends the script's source text";
      found.push(detection(entry, `2.4 does not run ${mapping.what} here: ${missing}, ${then}; ${CLAIM_WORDS.differs}`, mapping.fix, { severity: claim.severity, outcome: claim, predicted: claim.text }));
      continue;
    }
    if (claim.kind === "same") {
      // Nothing changes for any client today (2.4 refuses them first, as 2.2 does): the source goes out once 2.4
      // lets a client in.
      found.push(detection(entry, `2.4 does not run ${mapping.what} here: ${missing}; ${CLAIM_WORDS.same}, but once a client is let in, the default handler sends the script's source text`, mapping.fix, { severity: "deprecated", outcome: claim, predicted: claim.text }));
      continue;
    }
    // Not predicted: who 2.4 lets reach the directory, from the 2.4 model's state at the path alone.
    const where = scriptAlias || entry.directive.key === "scriptaliasmatch" ? entry.directive.args[1] : innermost(entry.sections, "directory")?.args[0];
    const admitted = where === undefined ? null : admission24(stateAt24(directories(), where));
    if (admitted !== null && !admitted.anyone && admitted.clients.length === 0 && !admitted.users) {
      found.push(detection(entry, `2.4 does not run ${mapping.what} here: ${missing}. 2.4 refuses the directory (403); once it is granted, the default handler sends the script's source text (${CLAIM_WORDS.unpredicted})`, mapping.fix, { severity: "behaviour", outcome: claim, predicted: claim.text }));
      continue;
    }
    const who =
      admitted === null || admitted.anyone
        ? ""
        : admitted.clients.length > 0
          ? ` to clients from ${admitted.clients.join(", ")}${admitted.users ? " and to authenticated users" : ""}`
          : " to every user the directory admits once authenticated (2.4 asks for credentials first)";
    found.push(detection(entry, `2.4 serves ${mapping.what} here as plain files: ${missing}, so the default handler sends the script's source text${who} (${CLAIM_WORDS.unpredicted})`, mapping.fix, { outcome: claim, predicted: claim.text }));
  }
  return found;
}

/** The modules a finding of this rule names as missing ("the target does not load cgi_module or cgid_module"). */
export function handlerFindingModules(finding: LintFinding): string[] {
  const match = /the target does not load (.+?), which 2\.2 loads/.exec(finding.message);
  return match ? match[1]!.split(" or ") : [];
}

/** Whether a finding's handler line could have run the request's path: a name with one of the extensions it maps
 * (AddHandler, AddType), a directory (its index may be a script), anything under a ScriptAlias's URL or where a
 * SetHandler applies. A page of no known type (a backup, index.html~) is 2.2's DefaultType's, not a script's. */
function mayRun(finding: LintFinding, path: string): boolean {
  const words = finding.directive.trim().split(/\s+/);
  const key = (words[0] ?? "").toLowerCase();
  const plain = path.split("?")[0]!;
  if (plain.endsWith("/")) return true;
  if (key === "scriptalias") return plain.startsWith(words[1] ?? "/");
  if (key === "addhandler" || key === "addtype" || key === "addoutputfilter") {
    const name = plain.slice(plain.lastIndexOf("/") + 1).toLowerCase();
    return words.slice(2).some((ext) => name.includes(ext.startsWith(".") ? ext.toLowerCase() : `.${ext.toLowerCase()}`));
  }
  return mayGovern(finding, plain);
}

// What a script's or a page's source looks like when it was sent instead of run.
const SOURCE_TEXT = /^#!|<\?php|<!--#\s*(?:include|echo|exec|if|set|config|fsize|flastmod|printenv)\b/;

export const HANDLER_NOT_LOADED: Rule = {
  id: "handler-not-loaded",
  seed: ["B4"],
  title: "a script's handler module is loaded on 2.2 and not on the 2.4 target: 2.4 serves the script's source",
  severity: "security",
  security: true,
  detect,
  recognise: (evidence) => {
    const unknownFilter = candidateLogs(evidence, /AH00082|unknown filter was not added: includes/i);
    const own = evidence.findings.filter((finding) => finding.rule === "handler-not-loaded");
    const lines = own.map((finding) => ({ file: finding.file, line: finding.line }));
    // What 2.4 sends for a file its handler would have run (type, validators): only for a path the handler takes.
    const runnable = own.filter((finding) => mayRun(finding, evidence.request?.path ?? "/")).map((finding) => ({ file: finding.file, line: finding.line }));
    if (evidence.field === "body" && evidence.candidate !== null && SOURCE_TEXT.test(evidence.candidate) && !(evidence.baseline !== null && SOURCE_TEXT.test(evidence.baseline))) {
      return { summary: `2.4 sent the source text of ${evidence.request?.path ?? "a script"} that 2.2 ran: its handler's module is not loaded`, lines, severity: "security" };
    }
    // The same response's type: the file's own MIME type (application/x-sh, none for .cgi) where 2.2 sent the
    // script's output type. Only with this rule's finding on the tree: a type alone says little.
    if (evidence.field === "header:content-type" && runnable.length > 0 && evidence.status.baseline === evidence.status.candidate && (evidence.candidate === null || /x-(sh|csh|perl|php|httpd-php|python|cgi)\b/i.test(evidence.candidate))) {
      return { summary: `2.4 answered ${evidence.request?.path ?? "a script"} with the file's own type (${evidence.candidate ?? "none"}) where 2.2 sent the script's output: its handler's module is not loaded`, lines: runnable, severity: "security" };
    }
    // The file's own validators: 2.4's default handler sends Last-Modified and ETag for the file, where 2.2's
    // script output had none (queuewatch-cgi sample: both 200, only 2.4 with them). Only with this rule's finding.
    if ((evidence.field === "header:etag" || evidence.field === "header:last-modified") && runnable.length > 0 && evidence.status.baseline === evidence.status.candidate && evidence.baseline === null && evidence.candidate !== null) {
      return { summary: `2.4 sent ${evidence.request?.path ?? "a script"} as a file (with its ${evidence.field.slice("header:".length)}) where 2.2 sent the script's output: its handler's module is not loaded`, lines: runnable, severity: "security" };
    }
    // 2.2's CGI handler refused the request after access let it in (a directory under a ScriptAlias, ExecCGI off:
    // 403 with its own line); 2.4 has no CGI handler there, so the default handler answered instead (a directory
    // under a ScriptAlias: 404 on 2.4.68, recorded with the icinga-shaped fragment). Nothing was granted that
    // access refused: behaviour, unless 2.4 sent content.
    const cgiRefusal = evidence.log.baseline.find((record) => ["cgi-directory-as-script", "cgi-execcgi-off"].includes(eventFamily(record.event) ?? ""));
    if ((evidence.field === "status" || evidence.field === "errorLog") && cgiRefusal !== undefined && evidence.status.baseline === 403 && evidence.status.candidate !== 403 && runnable.length > 0) {
      const sent = evidence.status.candidate !== null && evidence.status.candidate < 300;
      return { summary: `2.2's CGI handler refused ${evidence.request?.path ?? "the request"} (403: ${cgiRefusal.message}); 2.4 runs no CGI handler there and answered ${evidence.status.candidate ?? "nothing"}: its handler's module is not loaded`, lines: runnable, severity: sent ? "security" : "behaviour" };
    }
    if (evidence.field === "errorLog" && unknownFilter.length > 0) {
      return { summary: "2.4 did not run server-side includes (AH00082: unknown filter includes): mod_include is not loaded", lines, severity: "security" };
    }
    return null;
  },
  fix: "Load the handler's module on 2.4 (mod_cgid or mod_cgi for CGI, mod_include for SSI, the PHP module or PHP-FPM), or remove the mapping and the scripts.",
  help: "Guide: some LoadModule lines are commented out in the stock 2.4 httpd.conf (mod_cgi, mod_cgid, mod_include among them); a ScriptAlias on the stock image serves the script's text (fixtures/real-httpd, facts of the official images).",
  sample: {
    // The sample's own 2.2 branch loads mod_cgi, as 2.2's stock config does; the 2.4 side does not load it.
    config: [
      "<IfModule !mod_authz_core.c>",
      "    LoadModule cgi_module modules/mod_cgi.so",
      "</IfModule>",
      "ScriptAlias /tool-cgi/ /usr/local/apache2/tool-cgi/",
      "<Directory /usr/local/apache2/tool-cgi>",
      "    <IfModule mod_authz_core.c>",
      "        Require all granted",
      "    </IfModule>",
      "    <IfModule !mod_authz_core.c>",
      "        Order allow,deny",
      "        Allow from all",
      "    </IfModule>",
      "</Directory>",
    ].join("\n"),
    modules: ["alias", "authz_host"],
    request: "/tool-cgi/report.sh",
    on24: "starts",
    files: { "tool-cgi/report.sh": '#!/bin/sh\necho "Content-Type: text/plain"\necho\necho "report ran"\n' },
  },
};
