// What the invalid-command pass finds that no row's rule owns: a directive of a 2.4 module the tree does not
// load (B4: the stock 2.4 config comments out LoadModule lines 2.2's loaded), a directive 2.2 had and 2.4 has
// in no module, and a module (or its directives) no httpd 2.4 build has: a third-party module (V1).
import type { Rule } from "./rule.ts";

export const B4: Rule = {
  id: "B4",
  seed: ["B4"],
  title: "a directive of a module the 2.4 target does not load",
  severity: "blocking",
  recognise: (evidence) => {
    if (evidence.field !== "configTest" && evidence.field !== "started") return null;
    const line = evidence.log.candidate.find((record) => /Invalid command '([^']+)'/.test(record.message));
    return line ? { summary: `2.4 refuses '${/Invalid command '([^']+)'/.exec(line.message)![1]}': its module is not loaded` } : null;
  },
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
  fix: "Remove the directive; 2.4 has no replacement for it in the guide.",
};

export const V1: Rule = {
  id: "V1",
  seed: ["V1"],
  title: "third-party modules must be rebuilt for 2.4",
  severity: "blocking",
  fix: "Build the module for 2.4 (apxs of the 2.4 server) and load that build.",
  help: "Guide: third-party modules must be recompiled for 2.4; a module built for 2.2 fails to load (module magic number).",
};
