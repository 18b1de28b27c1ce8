// A proof's cells as a run report keeps a probe run's (report-model.ts ReportProbes), so that `prove --report`
// draws the proof's own matrix: its classes, the cells no probe could stand for, and what power left unproven.
import type { Proof } from "../judge/prove/proof.ts";
import { reportProbes } from "./build-report.ts";
import type { ReportProbes } from "./report-model.ts";

export function proofCells(proof: Proof): ReportProbes {
  return reportProbes(proof.matrix.map((cell) => ({
    request: cell.probe,
    cell: cell.cell,
    vhost: cell.vhost,
    region: cell.region,
    client: cell.client,
    credentials: cell.credentials,
    user: cell.user,
    method: cell.method,
    path: cell.path,
    class: cell.class,
    reason: cell.reason,
    proven: cell.proven,
    baseline: cell.baseline,
    candidate: cell.candidate,
  })));
}
