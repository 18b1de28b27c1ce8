// 100 MB bodies on every client, from a real httpd: the whole body is counted and hashed (bodyBytes and
// SHA-256 match the file, as sha256sum in the server container sees it), only the first BODY_TEXT_LIMIT bytes
// are kept, and the harness's memory does not grow with the body.
//
// The file is made inside the server container by the scenario's prepare step (dd), so nothing of it passes
// through the harness on the way in. Static: big.bin with Content-Length. Chunked: the same zeros as big.shtml
// through mod_include, which streams its output with no Content-Length (chunked on HTTP/1.1).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BODY_TEXT_LIMIT } from "../../../harness/clients/http-request.ts";
import type { RequestObservation } from "../../../harness/observe/observation.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

const MIB = 1024 * 1024;
const SIZE = 100 * MIB;

function zerosSha256(bytes: number): string {
  const hash = createHash("sha256");
  const block = Buffer.alloc(MIB);
  for (let left = bytes; left > 0; left -= block.length) hash.update(left >= block.length ? block : block.subarray(0, left));
  return hash.digest("hex");
}
const ZEROS = zerosSha256(SIZE);

type Client = "host" | "container" | "raw-host" | "raw-container";

function scenario(client: Client): string {
  const from = client === "container" || client === "raw-container" ? ", client: c1" : "";
  const request = (name: string, path: string) =>
    client.startsWith("raw")
      ? `  - { name: ${name}, raw: "GET ${path} HTTP/1.1\\r\\nHost: big.test\\r\\nConnection: close\\r\\n\\r\\n", repeat: false, timeoutMs: 60000${from} }`
      : `  - { name: ${name}, path: ${path}, repeat: false, timeoutMs: 60000${from} }`;
  return `
id: big-bodies-${client}
title: 100 MB bodies, static and chunked, through the ${client} client
seed: [D3]
clients: [{ name: c1 }]
server:
  modules: [include]
  config: |
    AddOutputFilter INCLUDES .shtml
    AddType application/octet-stream .shtml
    <Directory "{{server.docroot}}">
        Options +Includes
    </Directory>
  prepare:
    - dd if=/dev/zero of={{server.docroot}}/big.bin bs=1M count=100
    - dd if=/dev/zero of={{server.docroot}}/big.shtml bs=1M count=100
requests:
${request("static", "/big.bin")}
${request("chunked", "/big.shtml")}
  - { name: sum, exec: "sha256sum {{server.docroot}}/big.bin", repeat: false }
`;
}

/** Samples this process's RSS while `work` runs: the peak above what it was before. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMiB: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMiB: (peak - before) / MIB };
  } finally {
    clearInterval(timer);
  }
}

function response(request: RequestObservation | undefined) {
  const outcome = request?.outcome;
  if (outcome?.kind !== "response") throw new Error(`expected a response, got ${JSON.stringify(outcome).slice(0, 400)}`);
  return outcome;
}

describe("100 MB bodies on each client", { timeout: 120_000 }, () => {
  for (const client of ["host", "container", "raw-host", "raw-container"] as const) {
    it(`${client}: the whole body counted and hashed, the text cut, memory bounded`, async () => {
      const started = performance.now();
      const { result, growthMiB } = await peakRssGrowth(() => runYamlScenarios([scenario(client)]));
      const seconds = (performance.now() - started) / 1000;
      const run = result.runs[0]!;
      expect(run.error ?? null).toBeNull();
      for (const side of run.observations) {
        const sum = side.requests.find((r) => r.name === "sum")?.outcome;
        expect(sum?.kind === "exec" ? sum.stdout.split(" ")[0] : sum).toBe(ZEROS);
        const staticBody = response(side.requests.find((r) => r.name === "static"));
        const chunked = response(side.requests.find((r) => r.name === "chunked"));
        expect(staticBody.status).toBe(200);
        expect(staticBody.headers.find(([name]) => name.toLowerCase() === "content-length")?.[1]).toBe(String(SIZE));
        expect(chunked.status).toBe(200);
        // mod_include's output has no length: it goes chunked (curl --raw and the raw client keep the framing).
        expect(chunked.headers.find(([name]) => name.toLowerCase() === "transfer-encoding")?.[1]).toBe("chunked");
        for (const outcome of [staticBody, chunked]) {
          expect(outcome.bodyBytes).toBe(SIZE);
          expect(outcome.bodySha256).toBe(ZEROS);
          expect(outcome.body.length).toBe(BODY_TEXT_LIMIT);
          expect(outcome.httpVersion).toBe("1.1");
        }
      }
      // Two sides, two 100 MB bodies each: held whole, that would be 400 MB and more.
      console.log(`${client}: ${seconds.toFixed(1)} s, peak RSS growth ${growthMiB.toFixed(0)} MiB`);
      expect(growthMiB).toBeLessThan(150);
    });
  }
});
