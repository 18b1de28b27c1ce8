// S9: 2.4's mod_ssl has no SSLv2. SSLProtocol (and SSLProxyProtocol) naming it to enable it fails the config
// test ("SSLProtocol: SSLv2 is no longer supported", recorded; `all -SSLv2` is accepted). In SSLCipherSuite
// the SSLv2 keyword selects nothing on 2.4's OpenSSL: 2.4 starts (recorded), the word is dead, unless it was the
// list's only selector: then no cipher matches and 2.4 stops at start-up (AH01898, recorded with "SSLv2:+HIGH").
import { detection, named } from "./detection.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

const ENABLES_SSLV2 = /^\+?SSLv2$/i;

export const S9: Rule = {
  id: "S9",
  seed: ["S9"],
  title: "SSLv2 is no longer supported",
  severity: "blocking",
  detect: (context) => {
    const found: Detection[] = [];
    for (const entry of named(context.target, "SSLProtocol", "SSLProxyProtocol")) {
      const words = entry.directive.args;
      if (!words.some((word) => ENABLES_SSLV2.test(word))) continue;
      const kept = words.filter((word) => !ENABLES_SSLV2.test(word) && !/^-SSLv2$/i.test(word));
      found.push(
        detection(entry, `2.4 refuses to start: ${entry.directive.name}: SSLv2 is no longer supported (AH00526)`, `${entry.directive.name} ${kept.length > 0 ? kept.join(" ") : "TLSv1.2"}`),
      );
    }
    for (const entry of named(context.target, "SSLCipherSuite", "SSLProxyCipherSuite")) {
      const spec = entry.directive.args.at(-1) ?? "";
      const parts = spec.split(/[:, ]/);
      if (!parts.some((part) => /^[+!-]?SSLv2$/i.test(part))) continue;
      const rest = parts.filter((part) => part !== "" && !/^[+!-]?SSLv2$/i.test(part));
      const head = entry.directive.args.slice(0, -1).join(" ");
      // Only +X, -X, !X and @X left: nothing adds a cipher, so the list is empty (recorded: "SSLv2:+HIGH").
      if (!rest.some((part) => !/^[+!@-]/.test(part))) {
        found.push(
          detection(entry, `2.4 fails at start-up: Unable to configure permitted SSL ciphers (AH01898, no cipher match): ${entry.directive.name} selects ciphers only through SSLv2, which 2.4's OpenSSL does not have`, `${entry.directive.name} ${head ? `${head} ` : ""}HIGH:!aNULL:!MD5`),
        );
        continue;
      }
      found.push(
        detection(entry, `${entry.directive.name} names SSLv2, which 2.4's OpenSSL does not have: the keyword selects nothing`, `${entry.directive.name} ${head ? `${head} ` : ""}${rest.join(":")}`, { severity: "deprecated" }),
      );
    }
    return found;
  },
  recognise: (evidence) =>
    refusalClaim(evidence, /(SSLProtocol|SSLProxyProtocol): SSLv2 is no longer supported/, (refusal) => `2.4 refuses ${refusal.match[1]} naming SSLv2`) ??
    refusalClaim(evidence, /Unable to configure permitted SSL ciphers/, () => "2.4's OpenSSL matches no cipher of SSLCipherSuite (an SSLv2-only cipher list)"),
  fix: "Remove SSLv2 from SSLProtocol (SSLProtocol all -SSLv3, or TLSv1.2 +TLSv1.3) and the SSLv2 keyword from SSLCipherSuite.",
  help: "Guide: SSLv2 (mod_ssl) is no longer supported (recorded: SSLProtocol +SSLv2 → 'SSLProtocol: SSLv2 is no longer supported').",
  sample: {
    config: "SSLProtocol +SSLv2 +TLSv1.2",
    modules: ["ssl"],
    on24: "refuses",
    refusedBy22: "the official 2.2.34 image's OpenSSL 1.0.2 is built without SSLv2 (\"SSLv2 not supported by this version of OpenSSL\")",
  },
};
