// M3: with mod_authz_dbm, 2.2's `Require group` is `Require dbm-group` on 2.4; `group` is mod_authz_groupfile's
// provider there. Real servers (catalogue authz/require-group-dbm-unchanged, 2.2.34 and 2.4.68): the 2.2 form
// with mod_authz_dbm and no mod_authz_groupfile starts on 2.2; 2.4 refuses it: "AH00526: Syntax error on line N
// ...: Unknown Authz provider: group". With `Require dbm-group` (authz/dbm-group-to-dbm-group) both answer the
// same: 401 without credentials, 200 for a group member, 401 for another user.
import { walkConfig } from "../conf/queries/walk-config.ts";
import { mergedScopes, innermostScope, requireLine } from "./access-scope.ts";
import { candidateLogs } from "./evidence.ts";
import { detection } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection, Rule } from "./rule.ts";

function detect(context: LintContext): Detection[] {
  // With mod_authz_groupfile loaded 2.4 accepts `Require group` and reads AuthGroupFile instead: not what the
  // real servers were run with, so not claimed here.
  if (context.loaded.target.has("authz_groupfile_module")) return [];
  const walked = walkConfig(context.target);
  const found: Detection[] = [];
  for (const entry of walked.byKey.get("require") ?? []) {
    const line = requireLine(entry.directive);
    if (line === null || line.provider !== "group") continue;
    const scopes = new Set([null, ...mergedScopes(context.target, entry.sections)]);
    const dbmGroups = (walked.byKey.get("authdbmgroupfile") ?? []).some((file) => scopes.has(innermostScope(file.sections)));
    if (!dbmGroups) continue;
    found.push(
      detection(
        entry,
        "2.4 refuses to start: \"Unknown Authz provider: group\" (AH00526): with mod_authz_dbm the group requirement is Require dbm-group on 2.4",
        `Require dbm-group ${line.args.join(" ")}`.trim(),
      ),
    );
  }
  return found;
}

export const M3: Rule = {
  id: "M3",
  seed: ["M3"],
  title: "Require group with AuthDBMGroupFile is Require dbm-group on 2.4",
  severity: "blocking",
  detect,
  recognise: (evidence) => {
    if (evidence.field !== "configTest" && evidence.field !== "started") return null;
    const refused = candidateLogs(evidence, /Unknown Authz provider: group\b/);
    if (refused.length === 0) return null;
    return {
      summary: "2.4 refuses \"Require group\": with mod_authz_dbm it is \"Require dbm-group\" on 2.4",
      lines: evidence.findings.filter((finding) => finding.rule === "M3").map((finding) => ({ file: finding.file, line: finding.line })),
    };
  },
  fix: "Require dbm-group GROUP (mod_authz_dbm) instead of Require group GROUP.",
  help: "Guide rule 5: mod_authz_dbm's Require group becomes Require dbm-group.",
  sample: {
    config: [
      "<Directory /usr/local/apache2/htdocs/admins>",
      "    AuthType Basic",
      '    AuthName "admins"',
      "    AuthUserFile /usr/local/apache2/conf/admins.passwd",
      "    AuthDBMGroupFile /usr/local/apache2/conf/groups",
      "    Require group admins",
      "</Directory>",
    ].join("\n"),
    modules: ["auth_basic", "authn_file", "authz_dbm"],
    on24: "refuses",
  },
};
