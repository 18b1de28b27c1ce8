// Pure: the cells of a run's probe requests (run --config, fleet), each with its class and both sides' witnesses,
// as prove classes them: equal (witnessed on both sides), vacuous (equal only because of the harness), a change
// classed by outcome (widened, source-exposed, narrowed, changed), or accepted (every difference the guide
// predicts). What a report draws as the cell matrix and sums up per outcome class.
import type { RequestObservation, SideObservation } from "../../observe/observation.ts";
import type { RequestProbe } from "../../scenario/probe-world.ts";
import type { RequestSpec } from "../../scenario/scenario.ts";
import type { Difference } from "../difference.ts";
import { type DifferenceClass, witnessClass } from "./cell-class.ts";
import { type ProbeQuestion, type SideWitness, sideWitness } from "./probe-outcome.ts";
import { unreachableBackend } from "./unreachable-backend.ts";

export type RunCellClass = "equal" | "vacuous" | DifferenceClass | "accepted" | "unprobed";

export interface RunCell {
  /** The request that probed it. */
  request: string;
  probe: RequestProbe;
  method: string;
  path: string;
  class: RunCellClass;
  reason: string | null;
  baseline: SideWitness;
  candidate: SideWitness;
}

export function questionOfRequest(request: RequestSpec): ProbeQuestion {
  return {
    url: request.path,
    method: request.method,
    host: request.host,
    port: request.port,
    credentials: request.probe?.credentials ?? (request.auth === null ? "none" : "valid"),
    user: request.probe?.user ?? request.auth?.user ?? null,
    object: request.probe?.object ?? null,
  };
}

/** Why equal answers say nothing of the config (the harness made them), or null when both sides' witnesses hold. */
export function vacuityOf(question: Pick<ProbeQuestion, "credentials" | "user">, a: SideWitness, b: SideWitness): string | null {
  if (a.outcome === "error" && b.outcome === "error" && a.answer === b.answer && !/^\d+$/.test(a.answer)) return `the same failure on both sides (${a.answer}): no answer came`;
  for (const [side, witness] of [["2.2", a], ["2.4", b]] as const) {
    if (witness.object === "missing") return `no object behind the path on ${side}: ${witness.evidence.at(-1) ?? "missing"}`;
  }
  if (question.credentials === "valid") {
    for (const [side, witness] of [["2.2", a], ["2.4", b]] as const) {
      if (witness.credentials === "refused") return `the probe user ${question.user} was refused on ${side} (${witness.evidence[0] ?? "refused"})`;
      if (witness.credentials === "unknown") return `nothing shows that ${side} took the probe user ${question.user} in (${witness.evidence[0] ?? "no line"})`;
    }
  }
  return null;
}

/** The class of two sides' witnesses for one request, given what differed between its answers and, when its proxied
 * backend could not be reached, which backend. A side that never answered (its server did not start) or a backend
 * the harness cannot reach leaves the cell unprobed: nothing was asked of the config. */
export function runCellClass(question: Pick<ProbeQuestion, "credentials" | "user">, a: SideWitness, b: SideWitness, differences: readonly Difference[], backend: string | null = null): { class: RunCellClass; reason: string | null } {
  for (const [side, witness] of [["2.2", a], ["2.4", b]] as const) {
    if (witness.answer.startsWith("not run") || witness.answer === "not sent") return { class: "unprobed", reason: `${side} did not answer (${witness.answer})` };
  }
  if (backend !== null && a.outcome === "error" && b.outcome === "error") return { class: "unprobed", reason: `the proxied backend is not reachable from the harness (${backend})` };
  const told = differences.filter((d) => d.class !== "noise" && d.class !== "same");
  if (told.length === 0) {
    const vacuous = vacuityOf(question, a, b);
    return vacuous === null ? { class: "equal", reason: null } : { class: "vacuous", reason: vacuous };
  }
  if (told.every((d) => d.class === "expected-change")) return { class: "accepted", reason: [...new Set(told.map((d) => d.reason))].join("; ") };
  return { class: witnessClass(a, b), reason: null };
}

/** Every probe request of a scenario as a cell, in request order; empty when it sends no probes. */
export function probeCells(requests: readonly RequestSpec[], baseline: SideObservation, candidate: SideObservation, differences: ReadonlyMap<string, readonly Difference[]>): RunCell[] {
  const byName = (side: SideObservation) => new Map<string, RequestObservation>(side.requests.map((r) => [r.name, r]));
  const a = byName(baseline);
  const b = byName(candidate);
  const cells: RunCell[] = [];
  for (const request of requests) {
    if (request.probe === undefined) continue;
    const question = questionOfRequest(request);
    const wa = sideWitness(question, a.get(request.name), baseline);
    const wb = sideWitness(question, b.get(request.name), candidate);
    const judged = runCellClass(question, wa, wb, differences.get(request.name) ?? [], unreachableBackend(a.get(request.name), b.get(request.name)));
    cells.push({ request: request.name, probe: request.probe, method: request.method, path: request.path, class: judged.class, reason: judged.reason, baseline: wa, candidate: wb });
  }
  return cells;
}
