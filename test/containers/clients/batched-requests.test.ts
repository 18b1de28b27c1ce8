// Consecutive requests of one client container go in one exec (clients/client-batch.ts): each must come back
// as it does when sent alone — status, headers, body, its own error-log lines — on 2.4 (lines placed by client
// port) and on the real 2.2 when HTTPD_BASELINE_IMAGE is set (lines placed by arrival).
import { describe, expect, inject, it } from "vitest";
import type { RequestObservation, SideObservation } from "../../../harness/observe/observation.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

const KINDS = [
  "{ path: / }",
  "{ path: /, method: HEAD, timeoutMs: 2000 }",
  "{ path: /missing }",
  "{ path: /private/ }",
  '{ path: /, method: POST, body: "a=1&b=\'2\'", headers: ["Content-Type: application/x-www-form-urlencoded"] }',
  '{ path: /, headers: ["X-Odd: $HOME `id` \\"q\\""] }',
  "{ path: /private/, repeat: false }",
];

// The same requests twice: first all from `batched` one after another (one batch), then each from `alone`
// with a request from `other` between them (no two consecutive requests of one client: no batch).
const SCENARIO = `
id: batched-requests
title: requests sent in one batch come back as they do alone
clients: [{ name: batched }, { name: alone }, { name: other }]
server:
  modules: { "2.2": [authz_host], "2.4": [authz_host, access_compat] }
  config: |
    <Directory "{{server.docroot}}/private">
        Order deny,allow
        Deny from all
    </Directory>
  files: { htdocs/index.html: "hello\\n", htdocs/private/index.html: "secret\\n" }
requests:
${KINDS.map((kind, i) => `  - ${kind.replace("{ ", `{ name: b${i}, client: batched, `)}`).join("\n")}
${KINDS.map((kind, i) => `  - ${kind.replace("{ ", `{ name: a${i}, client: alone, `)}\n  - { name: o${i}, client: other, path: /missing-${i} }`).join("\n")}
`;

function essence(request: RequestObservation | undefined) {
  const outcome = request?.outcome;
  // A transport error (a timeout, whose repeat is skipped) compares by its code.
  if (outcome?.kind !== "response") return { kind: outcome?.kind, code: outcome?.kind === "transport-error" ? outcome.code : null, repeat: request?.repeat ?? null };
  const headers = outcome.headers.filter(([name]) => !/^(date|keep-alive|connection)$/i.test(name));
  return {
    status: outcome.status,
    headers,
    body: outcome.body,
    errorLog: request!.errorLog.map((line) => `${line.level} ${line.event ?? ""} ${line.normalized}`),
    repeat: request!.repeat?.kind === "response" ? request!.repeat.status : request!.repeat,
  };
}

function expectBatchedAsAlone(side: SideObservation): void {
  expect(side.started).toBe(true);
  KINDS.forEach((_, i) => {
    const batched = essence(side.requests.find((r) => r.name === `b${i}`));
    const alone = essence(side.requests.find((r) => r.name === `a${i}`));
    expect(batched, `${side.side.id} b${i}`).toEqual(alone);
  });
  // The denied directory logged a line for each of its requests, and nothing else did (2.2 also logs 404s).
  expect(side.requests.find((r) => r.name === "b3")!.errorLog.length).toBe(1);
  expect(side.requests.find((r) => r.name === "b0")!.errorLog).toEqual([]);
}

describe("batched requests from a client container", { timeout: 240_000 }, () => {
  it("come back as they do alone, with their own log lines (2.4)", async () => {
    const { runs } = await runYamlScenarios([SCENARIO], { learnNoise: true });
    expect(runs[0]!.error).toBeNull();
    for (const side of runs[0]!.observations) expectBatchedAsAlone(side);
  });

  it("come back as they do alone on the real 2.2", async (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image (HTTPD_BASELINE_IMAGE)");
    const { runs } = await runYamlScenarios([SCENARIO], { baseline: images.baseline, learnNoise: true });
    expect(runs[0]!.error).toBeNull();
    expect(runs[0]!.observations[0]!.server.version.family).toBe("2.2");
    for (const side of runs[0]!.observations) expectBatchedAsAlone(side);
  });
});
