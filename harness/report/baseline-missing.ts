// The one sentence every human-facing report puts first when the baseline did not run: nothing was compared,
// so no verdict may be read as "the upgrade changes nothing".
import type { Report } from "./report-model.ts";

export function baselineMissingNotice(report: Report): string | null {
  if (!report.baseline.missing) return null;
  return (
    `Baseline missing: ${report.baseline.image} did not run, so nothing was compared. Scenarios were checked ` +
    `against what they state for the candidate alone and are "unverified" at best.`
  );
}
