import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { runCli } from "../../helpers/run-cli.ts";
import { scenarioDir, statusScenario } from "../../helpers/scenario-files.ts";

describe("httpd-upgrade-harness run", { timeout: 240_000 }, () => {
  const image = (): string => inject("images").candidate;

  it("writes JSON, JUnit, Markdown and HTML reports of one run and exits 0 without regressions", async () => {
    const dir = scenarioDir({ "ok.scenario.yaml": statusScenario(200) });
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const result = await runCli([
      "run", dir, "--baseline", image(), "--candidate", image(),
      "--report", `json:${out}/r.json`, "--report", `junit:${out}/r.xml`, "--report", `markdown:${out}/r.md`, "--report", `html:${out}/r.html`,
    ]);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const json = JSON.parse(readFileSync(`${out}/r.json`, "utf8"));
    expect(json.schemaVersion).toBe("2.4");
    expect(json.scenarios.map((s: { id: string; verdict: string }) => [s.id, s.verdict])).toEqual([["status-200", expect.not.stringMatching(/regression|error/)]]);
    expect(json.scenarios[0].requests[0].candidate.status).toBe(200);
    expect(readFileSync(`${out}/r.xml`, "utf8").match(/<testcase /g)).toHaveLength(1);
    // "noise" when the two answers' Date headers fall in different seconds.
    expect(readFileSync(`${out}/r.md`, "utf8")).toMatch(/^\| `status-200` GET \/ answers 200 \| U1 \| 200 \| 200 \| (same|noise) \|$/m);
    expect(readFileSync(`${out}/r.html`, "utf8")).toMatch(/data-scenario-id="status-200"/);
    expect(result.stdout).toMatch(/status-200/);
  });

  it("exits 1 when a scenario's expectation is not met, and says which", async () => {
    const dir = scenarioDir({ "wrong.scenario.yaml": statusScenario(404) });
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const result = await runCli(["run", dir, "--baseline", image(), "--candidate", image(), "--report", `json:${out}/r.json`]);
    expect(result.status).toBe(1);
    const json = JSON.parse(readFileSync(`${out}/r.json`, "utf8"));
    expect(json.scenarios[0].verdict).toBe("regression");
    expect(json.schemaVersion).toBe("2.4");
    expect(json.scenarios[0].expectations.candidate.failures).toEqual([
      {
        kind: "status",
        request: "index",
        field: "status",
        expected: "status 404",
        actual: "status 200",
        at: expect.stringMatching(/wrong\.scenario\.yaml:\d+:\d+$/),
        message: expect.stringMatching(/request index: status: expected status 404, got status 200 \(.*wrong\.scenario\.yaml:\d+:\d+\)/),
      },
    ]);
  });

  it("exits 2 on a malformed scenario with file:line:column, writes no report and starts no container", async () => {
    const dir = scenarioDir({ "bad.scenario.yaml": "id: bad\ntitle: t\nseed: [U1]\nrequests:\n  - name: x\n    path: 42\n" });
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const result = await runCli(["run", dir, "--baseline", image(), "--candidate", image(), "--report", `json:${out}/r.json`], {
      env: { DEBUG: "harness:docker" },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/HARNESS_SCENARIO_INVALID: .*bad\.scenario\.yaml:6:11/);
    expect(existsSync(`${out}/r.json`)).toBe(false);
    expect(result.stderr).not.toMatch(/created from/);
  });

  it("exits 3 when the baseline image is missing, unless --allow-missing-baseline runs the candidate alone", async () => {
    const dir = scenarioDir({ "ok.scenario.yaml": statusScenario(200) });
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const missing = await runCli(["run", dir, "--baseline", "harness-no-such-image:2.2", "--candidate", image()]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toMatch(/HARNESS_IMAGE_MISSING: The image harness-no-such-image:2\.2 is not on this engine/);
    const alone = await runCli(["run", dir, "--baseline", "harness-no-such-image:2.2", "--candidate", image(), "--allow-missing-baseline", "--report", `json:${out}/r.json`]);
    expect(alone.status).toBe(0);
    const json = JSON.parse(readFileSync(`${out}/r.json`, "utf8"));
    expect(json.baseline).toMatchObject({ image: "harness-no-such-image:2.2", missing: true });
    expect(json.scenarios[0]).toMatchObject({ coverage: "candidate-only", expectations: { baseline: { skipped: expect.stringMatching(/missing/) }, candidate: { ok: true } } });
  });

  it("removes every container and network of the run when interrupted with Ctrl-C, and writes no report", async () => {
    const dir = scenarioDir({ "a.scenario.yaml": statusScenario(200), "b.scenario.yaml": statusScenario(200).replace("status-200", "status-200-b") });
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const result = await runCli(["run", dir, "--baseline", image(), "--candidate", image(), "--concurrency", "1", "--report", `json:${out}/r.json`], {
      env: { DEBUG: "harness:docker" },
      interruptWhen: /created from .* \(server\)/,
    });
    expect(result.status).toBe(130);
    expect(existsSync(`${out}/r.json`)).toBe(false);
    const runId = /harness-(run-[a-z0-9]+-[a-f0-9]+)-/.exec(result.stderr)?.[1];
    expect(runId).toBeDefined();
    expect(await listHarnessResources(await connectEngine(), runId)).toEqual({ containers: [], networks: [] });
  });
});
