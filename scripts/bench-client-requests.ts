// node --import tsx scripts/bench-client-requests.ts [N]: the time N requests (default 200) from two client
// containers (one at a fixed address, one with a domain; each sends half, one after the other) take on each side, through the whole harness, with the
// local 2.4 image on both sides (HTTPD_BASELINE_IMAGE for a real 2.2 baseline). Prints figures; asserts nothing.
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";
import { runHarness } from "../harness/observe/run-harness.ts";
import { parseScenario } from "../harness/scenario/load-scenario.ts";

const count = Number(process.argv[2] ?? 200);
const requests = Array.from({ length: count }, (_, i) => `  - { name: r${i}, client: ${i < count / 2 ? "office" : "partner"}, path: /${i % 3 ? "" : "missing"} }`);
const scenario = parseScenario(
  `id: many-client-requests
title: ${count} requests from two client containers
clients:
  - { name: office, address: 10.77.1.5 }
  - { name: partner, domain: .probe.test }
server:
  modules: { "2.2": [authz_host], "2.4": [authz_host, access_compat] }
  config: |
    <Directory "{{server.docroot}}">
        Order deny,allow
        Deny from all
        Allow from 10.77.1.5
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
requests:
${requests.join("\n")}
`,
  "bench-client-requests.scenario.yaml",
);
const engine = await connectEngine();
const candidate = await ensureRecipeImage(engine, "httpd-2.4");
const wanted = process.env.HTTPD_BASELINE_IMAGE;
const baseline = wanted && (await imageExists(engine, wanted)) ? wanted : candidate;
const started = performance.now();
const { runs } = await runHarness({ scenarios: [scenario], baselineImage: baseline, candidateImage: candidate, allowMissingBaseline: false, concurrency: 1, learnNoise: false });
const run = runs[0]!;
process.stdout.write(`${count} requests per side: scenario ${(run.durationMs / 1000).toFixed(1)} s, run ${((performance.now() - started) / 1000).toFixed(1)} s${run.error ? `, error ${run.error.message}` : ""}\n`);
for (const side of run.observations) {
  const statuses = new Map<string, number>();
  for (const request of side.requests) {
    const key = request.outcome.kind === "response" ? String(request.outcome.status) : request.outcome.kind;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const lines = side.requests.reduce((sum, request) => sum + request.errorLog.length, 0);
  // Each refused request logs one line (2.2 also logs each missing file), the others none: a line pinned on the
  // wrong request of a batch shows here.
  const misplaced = side.requests.filter((request) => {
    const status = request.outcome.kind === "response" ? request.outcome.status : 0;
    const wanted = status === 403 || (status === 404 && side.server.version.family === "2.2") ? 1 : 0;
    return request.errorLog.length !== wanted;
  }).length;
  process.stdout.write(`  ${side.side.id} (${side.server.version.text}): ${[...statuses].map(([k, v]) => `${k}×${v}`).join(" ")}, ${lines} error-log lines, ${misplaced} requests with other than their own\n`);
}
