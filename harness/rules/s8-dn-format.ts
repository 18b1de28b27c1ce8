// S8: the *_DN variables (SSL_CLIENT_S_DN, SSL_CLIENT_I_DN, SSL_SERVER_S_DN, SSL_SERVER_I_DN) are RFC 2253 on
// 2.4 ("CN=server.test,OU=Web,O=Example\, Inc.,C=DE") where 2.2 wrote OpenSSL's oneline form
// ("/C=DE/O=Example, Inc./OU=Web/CN=server.test"); the _CN-style parts are the same. SSLOptions
// +LegacyDNStringFormat (2.4 only) restores the old form (ssl-dn-format-default, ssl-dn-format-legacy).
import { walkConfig } from "../conf/queries/walk-config.ts";
import { detection, named } from "./detection.ts";
import type { Detection, Rule } from "./rule.ts";

const DN_VARIABLE = /SSL_(?:CLIENT|SERVER)_[SI]_DN(?![_A-Za-z])/;
const ONELINE_DN = /\/[A-Za-z][\w.]*=[^/\n"<]*(?:\/[A-Za-z][\w.]*=[^/\n"<]*)*/g;

/** 2.2's oneline DN in 2.4's RFC 2253 form: parts reversed, comma-separated, commas in values escaped. */
export function rfc2253(oneline: string): string {
  return oneline
    .slice(1)
    .split(/\/(?=[A-Za-z][\w.]*=)/)
    .reverse()
    .map((part) => part.replace(/,/g, "\\,"))
    .join(",");
}

/** Whether an argument names a DN variable. A loop, not `args.some` with a callback: it runs once over every
 * argument of every line (mostly unoptimised, where each callback call costs more than the test), and every match
 * holds "SSL_", so most arguments are rejected without running the expression. */
function namesDnVariable(args: readonly string[]): boolean {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if (arg.includes("SSL_") && DN_VARIABLE.test(arg)) return true;
  }
  return false;
}

function legacyFormat(args: readonly string[]): boolean {
  return args.some((arg) => arg.replace(/^\+/, "").toLowerCase() === "legacydnstringformat");
}

export const S8: Rule = {
  id: "S8",
  seed: ["S8"],
  title: "the *_DN variables are RFC 2253 strings on 2.4; SSLOptions +LegacyDNStringFormat restores 2.2's",
  severity: "behaviour",
  detect: (context) => {
    const config = context.target;
    const options = named(config, "SSLOptions");
    if (options.some((entry) => legacyFormat(entry.directive.args))) return [];
    const fix = "<IfVersion >= 2.4>\n    SSLOptions +LegacyDNStringFormat\n</IfVersion>";
    const uses: Detection[] = [];
    // An index loop (run once, mostly unoptimised: for-of would make an iterator result per line), and a
    // substring test before the expression: every argument of every line is asked.
    const directives = walkConfig(config).directives;
    for (let at = 0; at < directives.length; at++) {
      const entry = directives[at]!;
      if (entry.directive.key === "ssloptions" || !namesDnVariable(entry.directive.args)) continue;
      uses.push(detection(entry, `${DN_VARIABLE.exec(entry.directive.args.join(" "))![0]} is "CN=...,O=...,C=..." on 2.4 where 2.2 gave "/C=.../O=.../CN=...": what this line compares or passes on changes`, fix));
    }
    const exported = options
      .filter((entry) => entry.directive.args.some((arg) => /^\+?(StdEnvVars|FakeBasicAuth)$/i.test(arg)))
      .map((entry) => {
        const fake = entry.directive.args.some((arg) => /^\+?FakeBasicAuth$/i.test(arg));
        return detection(
          entry,
          fake
            ? "FakeBasicAuth takes the client certificate's subject DN as the user name: on 2.4 it is RFC 2253, so entries written as \"/C=.../CN=...\" in the password file no longer match"
            : "StdEnvVars gives CGI, SSI and other applications SSL_*_DN in 2.4's RFC 2253 form where 2.2 gave \"/C=.../CN=...\"",
          fix,
        );
      });
    return [...uses, ...exported].sort((a, b) => a.node.span.line - b.node.span.line);
  },
  recognise: (evidence) => {
    if (!(evidence.field === "body" || evidence.field.startsWith("header:")) || evidence.baseline === null || evidence.candidate === null) return null;
    if (evidence.baseline.match(ONELINE_DN) === null) return null;
    return evidence.baseline.replace(ONELINE_DN, rfc2253) === evidence.candidate ? { summary: "the same distinguished names, in 2.4's RFC 2253 form instead of 2.2's /C=.../CN=..." } : null;
  },
  fix: "Read the RFC 2253 form (or the _DN_CN-style parts, which did not change), or SSLOptions +LegacyDNStringFormat on 2.4.",
  help: "Guide, changed semantics: the default format of the *_DN variables changed; SSLOptions +LegacyDNStringFormat restores the old one.",
  sample: { config: 'SSLOptions +StdEnvVars', modules: ["ssl"], on24: "starts" },
};
