// The configs/ fleet through the probe world on real 2.2 (HTTPD_BASELINE_IMAGE) and 2.4, run three times in a row
// with the default concurrency, as `fleet configs/` is run by hand:
// - every run gives the same verdicts, causes (rule, severity, gating, the lines) and cell classes per config: an
//   error-log line reaches its own request however the servers interleave (they write one file, in httpd's order);
// - no difference is one the harness's own world made: no vacuous cell, no planted object missing, no valid probe
//   user refused by a store the world wrote, no planted object the baseline answered with a 5xx.
// Without a 2.2 image (CI) the baseline is the local 2.4.67 image: most samples then fail on both sides and their cells
// are unprobed, but the runs must agree all the same and the world must make no difference; that something was
// proven is asked of 2.2 only.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Report, ReportProbeCell } from "../../../harness/report/report-model.ts";
import { fleetDigest } from "../../helpers/fleet-digest.ts";
import { runCli } from "../../helpers/run-cli.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
// Three in the suite, where it runs beside other files on two cores; the bench's determinism line runs ten
// (scripts/bench-determinism.ts).
const RUNS = 3;
function allCells(report: Report): Array<ReportProbeCell & { config: string }> {
  return report.scenarios.flatMap((s) => (s.probes?.cells ?? []).map((c) => ({ ...c, config: s.id })));
}

const show = (cells: ReadonlyArray<ReportProbeCell & { config: string }>): string =>
  cells.slice(0, 10).map((c) => `${c.config} ${c.cell}: ${c.class} ${c.reason ?? ""} 2.2 ${c.baseline?.answer ?? "-"} [${c.baseline?.evidence.join("; ") ?? ""}] 2.4 ${c.candidate?.answer ?? "-"} [${c.candidate?.evidence.join("; ") ?? ""}]`).join("\n");

describe("fleet of configs/ through the probe world, run again and again", { timeout: 1_800_000 }, () => {
  const images = inject("images");
  const baseline = images.baseline ?? images.olderCandidate;
  let dir: string;
  const reports: Report[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "harness-fleet-world-"));
    const fleet = join(dir, "configs");
    for (const name of SAMPLES) cpSync(join(CONFIGS, name), join(fleet, name), { recursive: true, verbatimSymlinks: true });
    for (let run = 1; run <= RUNS; run++) {
      const out = join(dir, `run-${run}.json`);
      // The defaults: probes, the default concurrency, a fresh journal each run (no --resume).
      const result = await runCli(["fleet", fleet, "--baseline", baseline, "--candidate", images.candidate, "--state", join(dir, "state"), "--report", `json:${out}`]);
      if (result.status !== 0 && result.status !== 1) {
        failures.push(`run ${run}: exit ${result.status}\n${result.stderr.split("\n").slice(-15).join("\n")}`);
        continue;
      }
      reports.push(JSON.parse(readFileSync(out, "utf8")) as Report);
    }
  }, 1_200_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`gives the same verdicts, causes and cell classes per config on each of ${RUNS} runs`, () => {
    expect(failures).toEqual([]);
    expect(reports).toHaveLength(RUNS);
    expect(reports[0]!.scenarios.map((s) => s.id).sort()).toEqual(SAMPLES);
    const first = fleetDigest(reports[0]!);
    const firstCells = new Map(allCells(reports[0]!).map((c) => [`${c.config} ${c.cell}`, c]));
    for (const [index, report] of reports.entries()) {
      // On a disagreement, both answers of each cell that changed class: what each side said and why.
      const changed = allCells(report).filter((c) => firstCells.get(`${c.config} ${c.cell}`)?.class !== c.class);
      const told = changed.slice(0, 5).map((c) => `${show([firstCells.get(`${c.config} ${c.cell}`)!].filter(Boolean))}\n  became\n${show([c])}`).join("\n");
      expect(fleetDigest(report), `run ${index + 1} against run 1\n${told}`).toEqual(first);
    }
  });

  it("reports no difference the probe world made: no vacuous cell, no missing object, no refused probe user, no 5xx from a planted object on the baseline", () => {
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      const cells = allCells(report);
      // On 2.2 the fleet proves cells of every sample 2.4 starts; a side that does not start leaves its cells
      // unprobed, each with the reason.
      if (images.baseline) expect(cells.filter((c) => c.class === "equal" && c.proven).length).toBeGreaterThan(50);
      expect(cells.filter((c) => c.class === "unprobed" && (c.reason ?? "") === "")).toEqual([]);
      const vacuous = cells.filter((c) => c.class === "vacuous");
      expect(vacuous, show(vacuous)).toEqual([]);
      const missing = cells.filter((c) => c.baseline?.object === "missing" || c.candidate?.object === "missing");
      expect(missing, show(missing)).toEqual([]);
      const refused = cells.filter((c) => c.credentials === "valid" && (c.baseline?.credentials === "refused" || c.candidate?.credentials === "refused"));
      expect(refused, show(refused)).toEqual([]);
      // A planted script or page that fails (500) is the world's fault; a side that did not start is not.
      const broken = cells.filter((c) => c.baseline?.object === "planted" && /^5\d\d$/.test(c.baseline.answer));
      expect(broken, show(broken)).toEqual([]);
    }
  });
});
