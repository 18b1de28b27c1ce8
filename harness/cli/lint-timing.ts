// What `npm run bench` times of the lint command as an operator runs it (the CLI's bundle, not the sources
// through tsx): from before the first tree is read to after the last one is linted, before any rendering. Off
// unless HARNESS_LINT_TIMING names a file, which then gets one JSON line per run.
import { appendFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

export interface LintTimes {
  /** loadTree + targetModules + lintTree of every tree named, wall time. */
  totalMs: number;
  /** User + system CPU of the process over the same span (GC and compiler threads included). */
  cpuMs: number;
  /** Main-thread GC pauses over the same span. */
  gcMs: number;
  findings: number;
  /** The process's peak RSS at the end of the span. */
  maxRssMiB: number;
}

export interface LintTiming {
  /** Once the last tree is linted, with the number of findings: writes the line. */
  done(findings: number): Promise<void>;
}

/** A timing started now, or null when HARNESS_LINT_TIMING is not set. */
export function startLintTiming(): LintTiming | null {
  const file = process.env.HARNESS_LINT_TIMING;
  if (file === undefined || file === "") return null;
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ["gc"] });
  const started = performance.now();
  const cpu = process.cpuUsage();
  return {
    async done(findings) {
      const totalMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const maxRssMiB = process.resourceUsage().maxRSS / 1024;
      // GC entries arrive asynchronously: let the span's last ones in before reading the sum.
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      const times: LintTimes = { totalMs, cpuMs: (used.user + used.system) / 1000, gcMs, findings, maxRssMiB };
      appendFileSync(file, `${JSON.stringify(times)}\n`);
    },
  };
}
