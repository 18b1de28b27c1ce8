// What the invalid-command pass finds that no row's rule owns: a directive of a 2.4 module the tree does not
// load (B4: the stock 2.4 config comments out LoadModule lines 2.2's loaded), a directive 2.2 had and 2.4 has
// in no module, and a module (or its directives) no httpd 2.4 build has: a third-party module (V1).
import { DIRECTIVES } from "./directive-knowledge.ts";
import type { Evidence } from "./evidence.ts";
import { accessFileRefusal, candidateRefusal, refusalClaim } from "./refusal-evidence.ts";
import type { Claim, Rule } from "./rule.ts";

type Known = "in-2.4-module" | "only-2.2" | "neither";

/** Where the directive 2.4 refused as an invalid command lives: in a 2.4 module (not loaded), only in 2.2, or in
 * no httpd module (a third-party module's). */
function knownAs(name: string): Known {
  const key = name.replace(/^<|>$/g, "");
  if (DIRECTIVES["2.4"].modulesOf(key).length > 0) return "in-2.4-module";
  return DIRECTIVES["2.2"].modulesOf(key).length > 0 ? "only-2.2" : "neither";
}

const INVALID_COMMAND = /Invalid command '([^']+)'/;

/** A claim on 2.4's "Invalid command 'X'" (at start-up, or in a .htaccess per request) when X is known as `kind`. */
function invalidCommandClaim(evidence: Evidence, kind: Known, summary: (name: string) => string): Claim | null {
  const refusal = candidateRefusal(evidence, INVALID_COMMAND) ?? accessFileRefusal(evidence, INVALID_COMMAND);
  if (refusal === null || knownAs(refusal.match[1]!) !== kind) return null;
  return refusalClaim(evidence, INVALID_COMMAND, (found) => summary(found.match[1]!));
}

export const B4: Rule = {
  id: "B4",
  seed: ["B4"],
  title: "a directive of a module the 2.4 target does not load",
  severity: "blocking",
  recognise: (evidence) => invalidCommandClaim(evidence, "in-2.4-module", (name) => `2.4 refuses '${name}': its module is not loaded`),
  fix: "Load the module that provides the directive on 2.4 (LoadModule ...), or remove the directive.",
  help: "Guide: some LoadModule lines are commented out in the stock 2.4 httpd.conf; a site relying on them gets Invalid command.",
  // No sample: a minimal tree shows B4 only through a module move some row's rule owns (unixd, authz_core,
  // access_compat, ...); B4's own lines come from a target's stock set (lint --target-modules debian).
};

export const REMOVED_DIRECTIVE: Rule = {
  id: "removed-directive",
  seed: [],
  title: "a directive 2.2 had and no 2.4 module has",
  severity: "blocking",
  recognise: (evidence) => invalidCommandClaim(evidence, "only-2.2", (name) => `2.4 refuses '${name}': 2.4 has no such directive`),
  fix: "Remove the directive; 2.4 has no replacement for it in the guide.",
};

export const V1: Rule = {
  id: "V1",
  seed: ["V1"],
  title: "third-party modules must be rebuilt for 2.4",
  severity: "blocking",
  recognise: (evidence) =>
    invalidCommandClaim(evidence, "neither", (name) => `2.4 refuses '${name}': no httpd module has it; its third-party module is not loaded for 2.4`) ??
    refusalClaim(evidence, /perhaps this is not an Apache module DSO, or was compiled for a different Apache version|Cannot load (\S+) into server: .*(undefined symbol|No such file)/, (found) =>
      `2.4 cannot load ${found.match[1] ?? "a module"}: a module built for 2.2 (or missing) does not load into 2.4`),
  fix: "Build the module for 2.4 (apxs of the 2.4 server) and load that build.",
  help: "Guide: third-party modules must be recompiled for 2.4; a module built for 2.2 fails to load (module magic number).",
};
