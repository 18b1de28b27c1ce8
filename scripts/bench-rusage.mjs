// Preloaded into a bench child (node --import ./scripts/bench-rusage.mjs): when the process exits, writes its own
// resource use as one JSON line to BENCH_RUSAGE_FILE: peak RSS (MiB) and CPU time (ms), the whole process's.
import { appendFileSync } from "node:fs";

const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    appendFileSync(file, `${JSON.stringify({ maxRssMiB: usage.maxRSS / 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 })}\n`);
  });
}
