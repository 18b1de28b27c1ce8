// A proof as text: the verdict line, the cells by class, then each counterexample (the request, both outcomes and
// answers, the lines that decide it on each side), then what was accepted, what could not be probed, the vacuous
// cells and the mutants no probe killed.
import { proofVerdictLine } from "../judge/prove/judge-proof.ts";
import type { CellClass, Counterexample, Proof, ProofAnswer } from "../judge/prove/proof.ts";

function answer(a: ProofAnswer): string {
  if (a.status === null) return `no answer (${a.error ?? "?"})`;
  return [String(a.status), a.location ? `→ ${a.location}` : null, a.contentType ? a.contentType : null].filter(Boolean).join(" ");
}

function client(c: Counterexample["request"]["client"]): string {
  const where = c.domain ?? c.address;
  return where === null ? c.id : `${c.id} (${where}, for ${c.range})`;
}

function credentials(r: Counterexample["request"]): string {
  if (r.credentials === "none") return "no credentials";
  const user = r.user === null ? "" : ` ${r.user}`;
  return r.credentials === "valid" ? `valid user${user}` : r.credentials === "wrong-password" ? `${user.trim()} with a wrong password` : `unknown user${user}`;
}

const CLASS_ORDER: readonly CellClass[] = ["equal", "widened", "source-exposed", "narrowed", "changed", "vacuous", "unprobed", "accepted"];

function byReason(entries: ReadonlyArray<{ reason: string }>): string[] {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `  ${n} × ${reason}`);
}

export function renderProofText(proof: Proof, labels: { baseline: string; candidate: string }, limit = 20): string {
  const out = [proofVerdictLine(proof)];
  const classes = CLASS_ORDER.filter((c) => proof.cells.classes[c] > 0).map((c) => `${c} ${proof.cells.classes[c]}`);
  out.push(`cells: ${classes.join(", ")} (${proof.cells.proven} proven: equal, witnessed on both sides${proof.power ? ", no surviving mutant" : ""})`);
  proof.counterexamples.slice(0, limit).forEach((c, i) => {
    const r = c.request;
    out.push("", `${i + 1}. ${c.kind}${c.security ? " (security)" : ""}: ${r.method} ${r.vhost}${r.path} from ${client(r.client)}, ${credentials(r)}`);
    out.push(`   ${labels.baseline}: ${c.witnesses.baseline.outcome.replace("-", " ")}, ${answer(c.baseline)}`, `   ${labels.candidate}: ${c.witnesses.candidate.outcome.replace("-", " ")}, ${answer(c.candidate)}`);
    for (const [side, lines] of [[labels.baseline, c.config.baseline], [labels.candidate, c.config.candidate]] as const) {
      if (lines.length === 0) continue;
      out.push(`   decided on ${side} by:`);
      for (const l of lines) out.push(`     ${l.file}:${l.line}  ${l.text}`);
    }
  });
  if (proof.counterexamples.length > limit) out.push("", `... and ${proof.counterexamples.length - limit} more (--format json lists all)`);
  if (proof.accepted.length > 0) {
    const rules = new Map<string, number>();
    for (const a of proof.accepted) rules.set(a.rule, (rules.get(a.rule) ?? 0) + 1);
    out.push("", `accepted, not counted: ${[...rules].map(([rule, n]) => `${rule} ×${n}`).join(", ")}`);
  }
  if (proof.cells.unprobed.length > 0) out.push("", "cells not probed:", ...byReason(proof.cells.unprobed));
  if (proof.cells.vacuous.length > 0) out.push("", "cells vacuous (equal only because of the harness; not counted):", ...byReason(proof.cells.vacuous));
  if (proof.power !== null && proof.power.survivors.length > 0) {
    out.push("", "mutants no probe killed (their cells are not proven):");
    for (const s of proof.power.survivors) out.push(`  ${s.file}:${s.line}  ${s.mutation} in ${s.region} (${s.cells.length} cell${s.cells.length === 1 ? "" : "s"})`);
  }
  if (proof.power !== null && proof.power.uncounted.length > 0) {
    out.push("", "mutants not counted:", ...byReason(proof.power.uncounted));
  }
  return out.join("\n");
}
