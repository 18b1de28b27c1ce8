// lint's `security` flag on a finding follows the finding's own severity, whoever set it: the rule, a detection
// rated from the outcome the access model predicts (rules/outcome-severity.ts), or the .htaccess pass.
import { describe, expect, it } from "vitest";
import { detection, named } from "../../../harness/rules/detection.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { SATISFY_ANY_GRANTS } from "../../../harness/rules/satisfy-any-grants.ts";
import { findingsOf } from "./rule-harness.ts";
import { findingsOf as treeFindingsOf } from "./access-fixture.ts";

/** A rule that finds every `Header` line, rated as given (the rule's own rating where `rated` is absent). */
function headerRule(rule: Partial<Rule>, rated?: Rule["severity"]): Rule {
  return {
    id: "t",
    seed: [],
    title: "t",
    severity: "behaviour",
    perDirectory: true,
    detect: (context) => named(context.target, "Header").map((entry) => detection(entry, "a Header line", null, rated === undefined ? {} : { severity: rated })),
    ...rule,
  };
}

describe("lint's security flag", () => {
  it("is set where the rule rates its construct security, even without the rule's own flag", () => {
    const [found] = findingsOf(headerRule({ severity: "security" }), "LoadModule headers_module modules/mod_headers.so\nHeader set X y\n");
    expect([found!.severity, found!.security]).toEqual(["security", true]);
  });

  it("follows a detection's own rating over the rule's: security when rated so, not when rated behaviour", () => {
    const text = "LoadModule headers_module modules/mod_headers.so\nHeader set X y\n";
    expect(findingsOf(headerRule({ severity: "behaviour" }, "security"), text).map((f) => [f.severity, f.security])).toEqual([["security", true]]);
    expect(findingsOf(headerRule({ severity: "security", security: true }, "behaviour"), text).map((f) => [f.severity, f.security])).toEqual([["behaviour", false]]);
  });

  it("keeps the rule's flag where the rule's own rating stands", () => {
    const text = "LoadModule headers_module modules/mod_headers.so\nHeader set X y\n";
    expect(findingsOf(headerRule({ severity: "blocking", security: true }), text).map((f) => [f.severity, f.security])).toEqual([["blocking", true]]);
  });

  it("is the access model's rating for a claimed finding: security where 2.4 grants what 2.2 refused", async () => {
    const found = await treeFindingsOf(SATISFY_ANY_GRANTS, {
      "site.conf": "<Directory /usr/local/apache2/htdocs/internal>\n    Order deny,allow\n    Deny from all\n    Allow from 10.0.0.0/8\n    Satisfy Any\n</Directory>\n",
    });
    expect(found.map((f) => [f.severity, f.security])).toEqual([["security", true]]);
  });

  it("follows an .htaccess finding's severity: its line is a 500 there (behaviour), whatever the rule rates elsewhere", () => {
    const rule = headerRule({ severity: "security", security: true });
    const found = findingsOf(rule, "LoadModule headers_module modules/mod_headers.so\n", { "htdocs/a/.htaccess": "Header set X y\n" });
    expect(found.map((f) => [f.file, f.severity, f.security])).toEqual([["htdocs/a/.htaccess", "behaviour", false]]);
  });
});
