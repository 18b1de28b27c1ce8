// Every scenario is planned before any runs (observe/run-harness.ts): a plan that cannot be made stops the run
// before a scenario container exists. The lanes make their networks while the check plans; a stopped run
// removes them.
import { describe, expect, it, vi } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { LABEL_RUN_ID } from "../../../harness/engine/labels.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { isHarnessError } from "../../../harness/errors.ts";
import { recordEngineEvents } from "../../helpers/engine-events.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

function scenario(id: string, modules: string[]): string {
  return `
id: ${id}
title: plan check
server:
  modules: [${modules.join(", ")}]
  config: |
    ServerName check.example.test
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: root, client: localhost, path: / }
`;
}

describe("the check before a run", { timeout: 120_000 }, () => {
  it("stops the run on a scenario that cannot be planned before any container exists, and removes the lanes' networks", async () => {
    const engine = await connectEngine();
    const recording = await recordEngineEvents({ type: ["container", "network"] });
    const tracked = vi.spyOn(RunScope.prototype, "trackNetwork");
    // The last of many: the lanes have their networks on the way while the others are planned.
    const yamls = [...Array.from({ length: 6 }, (_, index) => scenario(`plan-check-ok-${index}`, ["headers"])), scenario("plan-check-bad", ["no_such_module_anywhere"])];
    const error = await runYamlScenarios(yamls, { concurrency: 3 }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isHarnessError(error) && error.code).toBe("HARNESS_MODULE_UNKNOWN");
    // Nothing of the run is left once it has failed: not a network still being made when the check stopped it.
    const runIds = new Set(tracked.mock.contexts.map((scope) => (scope as RunScope).runId));
    expect(runIds.size).toBe(1);
    const [runId] = [...runIds];
    const left = await engine.docker.listNetworks({ filters: { label: [`${LABEL_RUN_ID}=${runId}`] } });
    expect(left.map((network) => network.Name)).toEqual([]);
    const events = await recording.stop();
    // The lanes made their networks during the check: three lanes, three networks.
    expect(tracked.mock.calls).toHaveLength(3);
    // No container of the run was made.
    const containers = events.filter((event) => event.Type === "container" && event.Action === "create" && event.Actor.Attributes[LABEL_RUN_ID] === runId);
    expect(containers).toEqual([]);
  });
});
