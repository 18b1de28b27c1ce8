// `fleet` on real servers, through the CLI: every configs/ sample plus a copy of one (another comment, CRLF line
// endings: the same tree after normalising) in one run; the same fleet in three shards merged with merge-reports
// gives the same report; an interrupted run keeps what finished and --resume goes on from it; merge-reports refuses
// blobs of two different runs. CI has no httpd 2.2, so the baseline is the local 2.4.67 image unless
// HTTPD_BASELINE_IMAGE names a 2.2 one: the fleet machinery is the same either way, and what lint finds on the
// trees (the blocking causes) does not depend on it.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Report } from "../../../harness/report/report-model.ts";
import { copyImage, imageId } from "../../../harness/engine/copy-image.ts";
import { connectEngine, namedEngineTarget } from "../../../harness/engine/engine.ts";
import { comparableFleet, comparableScenario, loggedLines } from "../../helpers/comparable-report.ts";
import { type ExtraEngine, extraEngineUnavailable, startExtraEngine } from "../../helpers/extra-engine.ts";
import { runCli } from "../../helpers/run-cli.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
/** The fleet: every sample and one copy of name-vhosts. */
const CONFIG_COUNT = SAMPLES.length + 1;

describe("fleet: every configs/ sample in one run, in shards, interrupted and resumed", { timeout: 900_000 }, () => {
  const images = inject("images");
  const baseline = images.baseline ?? images.olderCandidate;
  let dir: string;
  let fleet: string;
  let single: { status: number | null; stdout: string; stderr: string; report: Report };
  const common = (): string[] => ["--baseline", baseline, "--candidate", images.candidate, "--max-probes", "12", "--state", join(dir, "state")];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "harness-fleet-"));
    fleet = join(dir, "fleet");
    for (const name of SAMPLES) cpSync(join(CONFIGS, name), join(fleet, name), { recursive: true, verbatimSymlinks: true });
    // The same tree as name-vhosts: another first comment line, CRLF line endings, trailing blanks.
    cpSync(join(CONFIGS, "name-vhosts"), join(fleet, "name-vhosts-web07"), { recursive: true, verbatimSymlinks: true });
    const main = join(fleet, "name-vhosts-web07", "conf", "httpd.conf");
    const lines = readFileSync(main, "utf8").split("\n");
    lines[0] = "# managed by hand on web-07, do not edit";
    writeFileSync(main, lines.map((line) => (line === "" ? line : `${line}  \r`)).join("\n"));
    const out = join(dir, "single");
    const result = await runCli([
      "fleet", fleet, ...common(),
      "--report", `json:${out}.json`, "--report", `junit:${out}.xml`, "--report", `markdown:${out}.md`,
      "--report", `html:${out}.html`, "--report", `sarif:${out}.sarif`, "--report", `blob:${out}.blob`,
    ]);
    single = { ...result, report: existsSync(`${out}.json`) ? (JSON.parse(readFileSync(`${out}.json`, "utf8")) as Report) : (null as never) };
    // One fleet run of every sample with probes: past the default hook limit (300 s) on a loaded machine.
  }, 900_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs every config and reports each once, the copy as the same tree as its original", () => {
    expect(single.stderr).not.toMatch(/internal error/);
    // Blocking causes (2.4 refuses several samples) fail the run: 1, never 2 or 3.
    expect(single.status, [...single.report.scenarios.filter((sc) => sc.error).map((sc) => `${sc.id}: ${sc.error!.code} ${sc.error!.message}`), single.stderr.split("\n").filter((line) => !line.startsWith("[")).slice(-10).join("\n")].join("\n")).toBe(1);
    const { fleet: section } = single.report;
    expect(section).not.toBeNull();
    expect(section!.configs.map((c) => c.path.split("/").at(-1))).toEqual([...SAMPLES, "name-vhosts-web07"].sort());
    expect(section!.duplicates).toBe(1);
    const copy = section!.configs.find((c) => c.path.endsWith("name-vhosts-web07"))!;
    const original = section!.configs.find((c) => c.path.endsWith("/name-vhosts"))!;
    expect(copy.sameAs).toBe(original.id);
    expect(copy.verdict).toBe(original.verdict);
    expect(single.report.scenarios.map((s) => s.id)).toEqual(section!.configs.map((c) => c.id));
    for (const config of section!.configs) expect(config.error, config.path).toBeNull();
  });

  it("groups the causes by rule across the fleet, worst first, naming the configs", () => {
    const causes = single.report.summary.findings;
    const idOf = (name: string): string => single.report.fleet!.configs.find((c) => c.path.endsWith(`/${name}`))!.id;
    const r9 = causes.find((c) => c.rule === "R9")!;
    expect(r9.severity).toBe("blocking");
    expect([...r9.scenarios].sort()).toEqual(["debian-ssl", "https-origin-proxy", "rhel-balancer"].map(idOf).sort());
    expect(causes.findIndex((c) => c.severity === "blocking")).toBe(0);
    expect(single.stdout).toMatch(/R9\s+in 3 configs/);
    // The Markdown and HTML reports lead with the fleet's causes and link each config to its details.
    const markdown = readFileSync(join(dir, "single.md"), "utf8");
    expect(markdown).toContain("### Fleet");
    expect(markdown).toMatch(new RegExp(`\\*\\*3 configs\\*\\*: .*\\(#config-${idOf("debian-ssl")}\\)`));
    expect(markdown).toContain(`<a id="config-${idOf("debian-ssl")}"></a>`);
    const html = readFileSync(join(dir, "single.html"), "utf8");
    expect(html).toContain(`<tr data-cause="R9" data-configs="3">`);
    expect(html).toContain(`id="scenario-${idOf("debian-ssl")}"`);
    // JUnit: one test case per config; SARIF: lint's R9 lines in the three trees.
    const junit = readFileSync(join(dir, "single.xml"), "utf8");
    for (const config of single.report.fleet!.configs) expect(junit).toContain(`name="${config.id}: `);
    const sarif = JSON.parse(readFileSync(join(dir, "single.sarif"), "utf8")) as { runs: Array<{ results: Array<{ ruleId: string; properties?: { tree?: string } }> }> };
    const r9Trees = new Set(sarif.runs[0]!.results.filter((r) => r.ruleId === "R9").map((r) => String(r.properties?.tree).split("/").at(-1)));
    expect([...r9Trees].sort()).toEqual(["debian-ssl", "https-origin-proxy", "rhel-balancer"]);
  });

  it("gives the same report in three shards merged as in one run", async () => {
    const blobs: string[] = [];
    for (const k of [1, 2, 3]) {
      const blob = join(dir, `shard-${k}.blob`);
      const shard = await runCli(["fleet", fleet, ...common(), "--shard", `${k}/3`, "--report", `blob:${blob}`]);
      expect(shard.stderr).not.toMatch(/internal error/);
      // On a failure, what the shard said: an exit 3 beside another file's run once left nothing else to go on.
      expect([0, 1], [shard.stdout.split("\n").slice(-15).join("\n"), shard.stderr.split("\n").filter((line) => !line.startsWith("[")).slice(-15).join("\n")].join("\n")).toContain(shard.status);
      blobs.push(blob);
    }
    const merged = join(dir, "merged");
    const result = await runCli(["merge-reports", ...blobs, "--report", `json:${merged}.json`, "--report", `junit:${merged}.xml`, "--report", `sarif:${merged}.sarif`]);
    expect(result.stderr).not.toMatch(/error/);
    expect(result.status).toBe(single.status);
    const report = JSON.parse(readFileSync(`${merged}.json`, "utf8")) as Report;
    expect(result.stderr).toMatch(new RegExp(`merged 3 shards of ${CONFIG_COUNT} configs`));
    expect(comparableFleet(report)).toEqual(comparableFleet(single.report));
    // What lint found does not depend on the servers: the SARIF of the merge is the single run's, byte for byte.
    expect(readFileSync(`${merged}.sarif`, "utf8")).toBe(readFileSync(join(dir, "single.sarif"), "utf8"));

    // Blobs of two runs (three shards and the single run) are refused, and so is a missing shard.
    const mixed = await runCli(["merge-reports", blobs[0]!, blobs[1]!, join(dir, "single.blob")]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(/HARNESS_BLOB/);
    expect(mixed.stderr).toMatch(/single\.blob is of another run .*shard count \(3 \/ 1\)/);
    const missing = await runCli(["merge-reports", blobs[0]!, blobs[2]!]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("shard 2/3 is missing");
  });

  it("gives the same report with each server in a container of its own (--no-reuse) as with servers reused", async () => {
    const json = join(dir, "no-reuse.json");
    const result = await runCli(["fleet", fleet, ...common(), "--no-reuse", "--report", `json:${json}`]);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.status, result.stderr.split("\n").filter((line) => !line.startsWith("[")).slice(-15).join("\n")).toBe(single.status);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    // Verdicts, causes and every request's statuses on both sides, and every line (AH ids, events) each config's
    // servers logged for its requests: reuse neither adds a line nor loses one. Lines are counted per config and side,
    // each line once, over its requests and its trailing lines, because which request a line lands on is timing's, not
    // the config's: a 2.2 line names no client port, and in a batch whose requests write different numbers of access
    // lines (https-origin-proxy: 1 on :80, 2 on :443, where ssl_request_log logs too) the follower's order cannot
    // tell the requests apart, so arrival places them (batch-attribution.ts); a single send's line that trails past
    // its window lands on the next request (seen for a 2.4 AH00898 under load). The comparison used to take each
    // request's messages as a set and count those: that counted the requests holding an AH00898, 3 in one run and
    // 7 in the other for 2.2's https-origin-proxy, whose 8 proxied probes log one AH00898 each in every run.
    expect(comparableFleet(report)).toEqual(comparableFleet(single.report));
    const answers = (scenarios: Report["scenarios"]) =>
      scenarios.map((scenario) => {
        const { requests, ...rest } = comparableScenario(scenario) as { requests: Array<{ name: string; baseline: object | null; candidate: object | null }> };
        return { ...rest, requests: requests.map((r) => ({ ...r, baseline: r.baseline && { ...r.baseline, errorLog: undefined }, candidate: r.candidate && { ...r.candidate, errorLog: undefined } })) };
      });
    expect(answers(report.scenarios)).toEqual(answers(single.report.scenarios));
    expect(loggedLines(report.scenarios)).toEqual(loggedLines(single.report.scenarios));
  });

  describe("over two engines", () => {
    const unavailable = extraEngineUnavailable();
    let extra: ExtraEngine | null = null;
    afterAll(async () => {
      await extra?.stop();
    });

    it.skipIf(unavailable !== null)(`gives the same report as over one, each config naming its engine${unavailable ? ` (skipped: ${unavailable})` : ""}`, async () => {
      extra = await startExtraEngine("fleet");
      // The run's images copied up front (several-engines.test.ts covers the copy within a run), to keep the run
      // short: the second engine takes part however late it is ready, since the first leaves it one config while
      // it has taken none (observe/engine-share.ts).
      const first = await connectEngine();
      for (const image of [baseline, images.candidate, images.tools]) if ((await imageId(extra.engine, image)) === null) await copyImage(first, extra.engine, image);
      const json = join(dir, "engines.json");
      const engines = `${namedEngineTarget().url}=2,${extra.url}=2`;
      const result = await runCli(["fleet", fleet, ...common(), "--engines", engines, "--report", `json:${json}`]);
      expect(result.stderr).not.toMatch(/internal error/);
      // On a mismatch, what the run said: an exit 3 under load once left nothing else to go on.
      expect(result.status, result.stderr.split("\n").filter((line) => !line.startsWith("[")).slice(-15).join("\n")).toBe(single.status);
      const report = JSON.parse(readFileSync(json, "utf8")) as Report;
      expect(comparableFleet(report)).toEqual(comparableFleet(single.report));
      // Both engines ran configs (neither was lost), and every config that ran says where; a copy says where its
      // original ran.
      expect(report.engines!.map((e) => e.lost)).toEqual([null, null]);
      expect(report.engines!.map((e) => e.name)).toEqual([namedEngineTarget().url, extra.url]);
      for (const engine of report.engines!) expect(engine.scenarios, engine.name).toBeGreaterThan(0);
      const ran = report.fleet!.configs;
      for (const config of ran) expect([namedEngineTarget().url, extra.url], config.path).toContain(config.engine);
      expect(ran.find((c) => c.sameAs !== null)!.engine).toBe(ran.find((c) => c.id === ran.find((d) => d.sameAs !== null)!.sameAs)!.engine);
    });
  });

  it("keeps what finished when interrupted, and goes on from there with --resume", async () => {
    const state = join(dir, "resume-state");
    const args = ["fleet", fleet, "--baseline", baseline, "--candidate", images.candidate, "--max-probes", "12", "--state", state, "--concurrency", "1"];
    const interrupted = await runCli(args, { interruptWhen: new RegExp(`\\[\\s*2/${CONFIG_COUNT}\\]`) });
    expect(interrupted.status).toBe(130);
    expect(interrupted.stderr).toMatch(new RegExp(`Interrupted: \\d+ of ${CONFIG_COUNT} configs finished and are kept in `));
    expect(interrupted.stderr).toContain("--resume");
    const kept = Number(new RegExp(`Interrupted: (\\d+) of ${CONFIG_COUNT}`).exec(interrupted.stderr)![1]);
    expect(kept).toBeGreaterThanOrEqual(2);
    const json = join(dir, "resumed.json");
    const resumed = await runCli([...args, "--resume", "--report", `json:${json}`]);
    expect(resumed.stderr).toContain(`resume: ${kept} of ${CONFIG_COUNT} configs of this shard kept from`);
    expect(resumed.status).toBe(single.status);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    expect(report.fleet!.configs).toHaveLength(CONFIG_COUNT);
    expect(comparableFleet(report)).toEqual(comparableFleet(single.report));
  });
});
