// The start-up companions lint knows are the recorded ones (fixtures/real-httpd/module-alone-2.4.62.tsv through
// scripts/write-context-tables.ts): one test per recorded pair, linting a tree that loads the module (with the
// modules its recording loaded beside it) without the companion, and then with it.
import { describe, expect, it } from "vitest";
import { START_COMPANION, START_COMPANIONS, missingCompanions } from "../../../harness/rules/start-companion.ts";
import { moduleBinding } from "../../../harness/server/module-map.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

function load(name: string): string {
  const binding = moduleBinding(name, "2.4");
  return typeof binding === "string" ? `LoadModule ${name}_module modules/mod_${name}.so` : `LoadModule ${binding.id} modules/${binding.file}`;
}

describe("start-companion: a 2.4 module that exits at start-up without its companion", () => {
  it("knows the five recorded pairs", () => {
    expect(START_COMPANIONS.map((pair) => `${pair.module}>${pair.companion}`).sort()).toEqual([
      "auth_form>session",
      "authnz_ldap>ldap",
      "heartmonitor>watchdog",
      "proxy_balancer>slotmem_shm",
      "proxy_hcheck>watchdog",
    ]);
  });

  for (const pair of START_COMPANIONS) {
    describe(`mod_${pair.module} needs mod_${pair.companion} (${pair.code})`, () => {
      // The recording's own set, the module that fails last: its LoadModule line is the finding's place.
      const others = pair.recordedWith.filter((name) => name !== pair.module);
      const lines = [...others, pair.module].map(load);

      it("is a blocking finding at the module's LoadModule line, whose fix loads the companion", async () => {
        const found = of(await lintBody(lines.join("\n")), "start-companion");
        expect(found.map((f) => ({ line: f.line, severity: f.severity, fix: f.fix }))).toEqual([{ line: BODY_LINE + lines.length - 1, severity: "blocking", fix: load(pair.companion) }]);
        expect(found[0]!.message).toContain(pair.code);
      });

      it("says nothing once the companion is loaded", async () => {
        expect(of(await lintBody([...lines, load(pair.companion)].join("\n")), "start-companion")).toEqual([]);
      });

      it("recognises the line real 2.4.62 logged", () => {
        const evidence = configTestEvidence([`[Mon Dec 07 10:00:00.000000 2026] [${pair.module}:crit] [pid 1:tid 1] ${pair.code}: ${pair.message}`], "started");
        expect(START_COMPANION.recognise!(evidence)?.summary).toContain(`mod_${pair.companion}`);
      });
    });
  }

  it("finds a module the stock 2.2 config loads and configures nothing for (proxy_balancer), without a balancer", () => {
    expect(missingCompanions(new Set(["proxy_module", "proxy_balancer_module"])).map((pair) => pair.companion)).toEqual(["slotmem_shm"]);
    expect(missingCompanions(new Set(["proxy_module", "proxy_balancer_module", "slotmem_shm_module"]))).toEqual([]);
  });

  it("claims no other start-up failure", () => {
    expect(START_COMPANION.recognise!(configTestEvidence(["[Mon Dec 07 10:00:00.000000 2026] [proxy:crit] [pid 1:tid 1] AH02432: Cannot find LB Method: byrequests"], "started"))).toBeNull();
  });
});
