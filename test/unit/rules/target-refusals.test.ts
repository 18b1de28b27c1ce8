import { describe, expect, it } from "vitest";
import { nodeAt, targetOnlyRefusals, targetRefusals } from "../../../harness/rules/target-refusals.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { lintFiles, of, READY } from "./lint-fixture.ts";

describe("refusals only the 2.4 view has become findings of the rule owning their message", () => {
  it("finds the refused line in the tree's file, inside a section", async () => {
    const result = await lintFiles({ "conf/httpd.conf": `${READY}\n<VirtualHost *:80>\n  Include conf/sites/*.conf\n</VirtualHost>\n`, "conf/sites/README": "" });
    const refusals = targetOnlyRefusals(result.context);
    expect(refusals.map((problem) => [problem.line, problem.column])).toEqual([[18, 3]]);
    const placed = nodeAt(result.context, refusals[0]!);
    expect(placed!.node).toMatchObject({ kind: "directive", name: "Include", args: ["conf/sites/*.conf"], guards: [] });
    expect(placed!.node.span).toMatchObject({ file: "conf/httpd.conf", line: 18, column: 3 });
    expect(placed!.sections.map((section) => section.name)).toEqual(["VirtualHost"]);
    expect(of(result, "include-no-match")[0]!.sections).toEqual(["<VirtualHost *:80>"]);
  });

  it("keeps a 2.2 branch's refusal out of the findings: the conditional sections are the node's guards", async () => {
    const head = "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule unixd_module modules/mod_unixd.so\n";
    const result = await lintFiles({ "conf/httpd.conf": `${head}<IfModule !mod_authz_core.c>\n  Include conf/sites/*.conf\n</IfModule>\n`, "conf/sites/README": "" });
    const refusals = targetOnlyRefusals(result.context);
    expect(refusals).toHaveLength(1);
    expect(nodeAt(result.context, refusals[0]!)!.node.guards.map((guard) => guard.condition)).toEqual(["!mod_authz_core.c"]);
    expect(result.findings).toEqual([]);
  });

  it("credits a refusal to the first rule whose pattern matches, and keeps unowned ones as problems only", async () => {
    const result = await lintFiles({ "conf/httpd.conf": `${READY}\nInclude conf/sites/*.conf\n`, "conf/sites/README": "" });
    const owner: Rule = { id: "owner", seed: [], title: "t", severity: "blocking", ownsRefusals: [/No matches/], fix: "general" };
    const other: Rule = { id: "other", seed: [], title: "t", severity: "blocking", ownsRefusals: [/nothing like it/] };
    expect(targetRefusals(result.context, [other, owner]).map((owned) => [owned.rule, owned.detection.node.span.line])).toEqual([["owner", 17]]);
    expect(targetRefusals(result.context, [other])).toEqual([]);
    expect(result.problems.map((problem) => problem.line)).toEqual([17]);
  });
});
