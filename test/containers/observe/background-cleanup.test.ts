// A run asked to clean up in the background (the fleet's reports are written meanwhile) comes back with its
// observations while its containers and networks are still there, and `cleanedUp` settles once they are gone.
import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { LABEL_RUN_ID, LABEL_SCENARIO } from "../../../harness/engine/labels.ts";
import { runHarness } from "../../../harness/observe/run-harness.ts";
import { parseScenario } from "../../../harness/scenario/load-scenario.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";

const scenario = `
id: background-cleanup
title: one request, the run cleaned up in the background
server:
  config: |
    <Directory "{{server.docroot}}">
        Require all granted
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: root, path: / }
`;

describe("a run's clean-up in the background", { timeout: 120_000 }, () => {
  it("comes back with the observations, and cleanedUp settles once every container and network of the run is gone", async () => {
    const engine = await connectEngine();
    const images = inject("images");
    // The run's id, from its server's creation (other test files run on the engine at the same time).
    const events = (await engine.docker.getEvents({ filters: { type: ["container"], event: ["create"], label: [`${LABEL_SCENARIO}=background-cleanup`] } })) as NodeJS.ReadableStream & { destroy: () => void };
    let text = "";
    events.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const end = await runHarness({
      scenarios: [parseScenario(scenario, "background-cleanup.scenario.yaml")],
      baselineImage: images.candidate,
      candidateImage: images.candidate,
      allowMissingBaseline: false,
      concurrency: 1,
      learnNoise: false,
      cleanup: "background",
    });
    expect(end.runs[0]?.error ?? null).toBeNull();
    expect(end.runs[0]?.observations.map((side) => side.started)).toEqual([true, true]);
    await end.cleanedUp;
    // Read at once: a clean-up still under way would be caught here (the server was created seconds ago, so its
    // event is in).
    events.destroy();
    const runIds = new Set(
      text
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { Actor: { Attributes: Record<string, string> } }).Actor.Attributes[LABEL_RUN_ID]),
    );
    expect(runIds.size).toBe(1);
    const left = await listHarnessResources(engine, [...runIds][0]);
    expect(left).toEqual({ containers: [], networks: [] });
  });
});
