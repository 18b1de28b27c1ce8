// What a fleet run decided per config, without what the clock decides: the verdict (same and noise are one: a Date a
// second apart makes the difference), each cause with its severity, gating and lines (the clock's own findings left
// out), and each probe cell's class. Two runs of the same input must give the same digest (issue: witnessed proof);
// the fleet container test and the bench's determinism line compare runs by it.
import type { Report } from "../../harness/report/report-model.ts";

/** Findings the clock decides whether they show (a Date, an Expires or an age a second apart). */
const CLOCK_RULES = new Set(["clock", "cache-age", "expires-skew"]);

export function fleetDigest(report: Report): Record<string, { verdict: string; error: string | null; findings: string[]; cells: string[] }> {
  const byConfig: ReturnType<typeof fleetDigest> = {};
  for (const scenario of report.scenarios) {
    const findings = scenario.findings
      .filter((f) => !CLOCK_RULES.has(f.rule))
      .map((f) => `${f.rule} ${f.severity}${f.security ? " security" : ""}${f.gating ? " gating" : ""} ${[...new Set(f.config.map((c) => `${c.file}:${c.line}`))].sort().join(",")}`)
      .sort();
    const cells = (scenario.probes?.cells ?? []).map((c) => `${c.cell} ${c.class}`).sort();
    byConfig[scenario.id] = { verdict: scenario.verdict === "noise" ? "same" : scenario.verdict, error: scenario.error?.code ?? null, findings, cells };
  }
  return byConfig;
}

/** The configs whose digest differs between two runs, each with its first differing part. */
export function digestDifferences(a: ReturnType<typeof fleetDigest>, b: ReturnType<typeof fleetDigest>): string[] {
  const out: string[] = [];
  for (const id of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const x = a[id];
    const y = b[id];
    if (x === undefined || y === undefined) out.push(`${id}: in one run only`);
    else if (x.verdict !== y.verdict || x.error !== y.error) out.push(`${id}: ${x.verdict}/${x.error} against ${y.verdict}/${y.error}`);
    else {
      const findings = [...x.findings.filter((f) => !y.findings.includes(f)).map((f) => `- ${f}`), ...y.findings.filter((f) => !x.findings.includes(f)).map((f) => `+ ${f}`)];
      const cells = [...x.cells.filter((c) => !y.cells.includes(c)).map((c) => `- ${c}`), ...y.cells.filter((c) => !x.cells.includes(c)).map((c) => `+ ${c}`)];
      if (findings.length + cells.length > 0) out.push(`${id}: ${[...findings, ...cells].slice(0, 4).join("; ")}`);
    }
  }
  return out;
}
