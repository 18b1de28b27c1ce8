// Every catalogue scenario whose real 2.4 server failed its config test: the refusal it recorded is
// recognised by a rule of one of the scenario's seed rows. The recorded messages are the scenarios' own
// (equals lines verbatim; patterns made concrete), so a recogniser that drifts from what 2.4 prints fails here.
import { describe, expect, it } from "vitest";
import { loadScenarios } from "../../../harness/scenario/load-scenario.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import { configTestEvidence } from "./lint-fixture.ts";

/** A line a recorded pattern matches: its escapes undone, `\d+` a number, `.*` some text. */
function concrete(pattern: string): string {
  return pattern.replace(/^\^|\$$/g, "").replace(/\\d\+/g, "12").replace(/\.\*/g, "x ").replace(/\\(.)/g, "$1");
}

describe("the catalogue's recorded 2.4 refusals are recognised by their rows' rules", async () => {
  // Every refusal of the config catalogue; of the others, those of rows whose rules have a recogniser.
  const catalogue = (dir: string) => loadScenarios([new URL(`../../../scenarios/catalogue/${dir}`, import.meta.url).pathname]);
  const recognisable = (seeds: readonly string[]) => RULES.some((rule) => rule.recognise && rule.seed.some((seed) => seeds.includes(seed)));
  const scenarios = [...(await catalogue("config")), ...(await catalogue("authz")).filter((s) => recognisable(s.seed)), ...(await catalogue("defaults")).filter((s) => recognisable(s.seed))].filter(
    (scenario) => scenario.expect["2.4"]?.otherwise?.configTestOk === false,
  );

  it("has refusals to check", () => {
    expect(scenarios.length).toBeGreaterThan(20);
  });

  for (const scenario of scenarios) {
    it(`${scenario.id} (${scenario.seed.join(", ")})`, () => {
      const messages = scenario.expect["2.4"]!.otherwise!.configTestMessages.map((message) => (message.kind === "matches" ? concrete(message.pattern) : message.value));
      const evidence = configTestEvidence(messages);
      const rules = RULES.filter((rule) => rule.seed.some((seed) => scenario.seed.includes(seed)) && rule.recognise);
      expect(rules.length, "a rule with a recogniser for the scenario's rows").toBeGreaterThan(0);
      expect(rules.some((rule) => rule.recognise!(evidence) !== null), messages.join(" | ")).toBe(true);
    });
  }
});
