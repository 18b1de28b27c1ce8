// Once per container test run: an engine (the README's test command has started it), the local images built
// once and shared through provide(), and stale harness containers from crashed runs swept away.
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";
import { sweepAbandoned } from "../harness/engine/sweep.ts";
import { listHarnessResources } from "./helpers/harness-resources.ts";

declare module "vitest" {
  export interface ProvidedContext {
    images: {
      candidate: string;
      /** httpd 2.4.67, the patch level before the candidate, for behaviour that changed within 2.4. */
      olderCandidate: string;
      debian: string;
      tools: string;
      baseline: string | null;
      baselineMissingReason: string | null;
    };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
  // One session for this test run (workers and the CLIs they start inherit it), so that the check below looks at
  // this run's leftovers only, not at another test run's live resources on a shared engine.
  const session = (process.env.HARNESS_SESSION ||= `test-${randomBytes(4).toString("hex")}`);
  const engine = await connectEngine();
  await sweepAbandoned(engine);
  const [candidate, olderCandidate, debian, tools] = await Promise.all([
    ensureRecipeImage(engine, "httpd-2.4"),
    ensureRecipeImage(engine, "httpd-2.4.67"),
    ensureRecipeImage(engine, "httpd-2.4-debian"),
    ensureRecipeImage(engine, "tools"),
  ]);
  const wanted = process.env.HTTPD_BASELINE_IMAGE;
  let baseline: string | null = null;
  let baselineMissingReason: string | null = null;
  if (!wanted) baselineMissingReason = "HTTPD_BASELINE_IMAGE is not set: no httpd 2.2 image to compare against";
  else if (await imageExists(engine, wanted)) baseline = wanted;
  else baselineMissingReason = `HTTPD_BASELINE_IMAGE=${wanted} is not on this engine`;
  project.provide("images", { candidate, olderCandidate, debian, tools, baseline, baselineMissingReason });
  return async () => {
    const left = await listHarnessResources(engine, { session });
    await sweepAbandoned(engine);
    if (left.containers.length + left.networks.length > 0) {
      throw new Error(`the test run left harness resources behind: ${JSON.stringify(left)}`);
    }
  };
}
