import { describe, expect, it } from "vitest";
import { invalidCommands } from "../../../harness/rules/invalid-commands.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { lintBody } from "./lint-fixture.ts";

describe("the invalid-command pass credits owned lines through ownedLine", () => {
  it("uses the owner's words, and passes a line on when the owner declines it", async () => {
    const { context } = await lintBody("CookieLog logs/cookies\nSSIAccessEnable on");
    const taker: Rule = { id: "taker", seed: [], title: "t", severity: "blocking", owns: { directives: ["CookieLog"] }, ownedLine: () => ({ message: "mine", fix: null }) };
    const decliner: Rule = { id: "decliner", seed: [], title: "t", severity: "blocking", owns: { directives: ["CookieLog", "SSIAccessEnable"] }, ownedLine: () => null };
    const found = invalidCommands(context, [decliner, taker]).map((owned) => [owned.rule, owned.detection.message, owned.detection.fix]);
    expect(found).toEqual([
      ["taker", "mine", null],
      ["removed-directive", expect.stringContaining("Invalid command 'SSIAccessEnable'"), expect.stringContaining("remove SSIAccessEnable")],
    ]);
  });
});

describe("every directive 2.2 has and no 2.4 module has is credited to a row", () => {
  it("leaves only CookieLog and SSIAccessEnable, which no row names, to removed-directive", async () => {
    const { BUILD_2_2_34 } = await import("../../../harness/versions/directive-tables.ts");
    const { DIRECTIVES } = await import("../../../harness/rules/directive-knowledge.ts");
    const { RULES } = await import("../../../harness/rules/all-rules.ts");
    const names = [...new Set(BUILD_2_2_34.directives.map(([name]) => name.replace(/^<|>$/g, "")))];
    const gone = names.filter((name) => DIRECTIVES["2.4"].modulesOf(name).length === 0);
    const unowned = gone.filter((name) => !RULES.some((rule) => rule.owns?.directives?.some((owned) => owned.toLowerCase() === name.toLowerCase())));
    expect(gone.length).toBeGreaterThan(20);
    expect(unowned.sort()).toEqual(["CookieLog", "SSIAccessEnable"]);
  });
});
