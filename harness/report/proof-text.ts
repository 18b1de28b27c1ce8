// A proof as text: the verdict line, then each counterexample (the request, both answers, the lines that decide
// it on each side), then what was accepted and what could not be probed.
import { proofVerdictLine } from "../judge/prove/judge-proof.ts";
import type { Counterexample, Proof, ProofAnswer } from "../judge/prove/proof.ts";

function answer(a: ProofAnswer): string {
  if (a.status === null) return `no answer (${a.error ?? "?"})`;
  return [String(a.status), a.location ? `→ ${a.location}` : null, a.contentType ? a.contentType : null].filter(Boolean).join(" ");
}

function client(c: Counterexample["request"]["client"]): string {
  const where = c.domain ?? c.address;
  return where === null ? c.id : `${c.id} (${where}, for ${c.range})`;
}

export function renderProofText(proof: Proof, labels: { baseline: string; candidate: string }, limit = 20): string {
  const out = [proofVerdictLine(proof)];
  proof.counterexamples.slice(0, limit).forEach((c, i) => {
    const r = c.request;
    out.push("", `${i + 1}. ${c.kind}: ${r.method} ${r.vhost}${r.path} from ${client(r.client)}, credentials ${r.credentials}`);
    out.push(`   ${labels.baseline}: ${answer(c.baseline)}`, `   ${labels.candidate}: ${answer(c.candidate)}`);
    for (const [side, lines] of [[labels.baseline, c.config.baseline], [labels.candidate, c.config.candidate]] as const) {
      if (lines.length === 0) continue;
      out.push(`   decided on ${side} by:`);
      for (const l of lines) out.push(`     ${l.file}:${l.line}  ${l.text}`);
    }
  });
  if (proof.counterexamples.length > limit) out.push("", `... and ${proof.counterexamples.length - limit} more (--format json lists all)`);
  if (proof.accepted.length > 0) {
    const byRule = new Map<string, number>();
    for (const a of proof.accepted) byRule.set(a.rule, (byRule.get(a.rule) ?? 0) + 1);
    out.push("", `accepted, not counted: ${[...byRule].map(([rule, n]) => `${rule} ×${n}`).join(", ")}`);
  }
  if (proof.cells.unprobed.length > 0) {
    const byReason = new Map<string, number>();
    for (const u of proof.cells.unprobed) byReason.set(u.reason, (byReason.get(u.reason) ?? 0) + 1);
    out.push("", "cells not probed:", ...[...byReason].map(([reason, n]) => `  ${n} × ${reason}`));
  }
  return out.join("\n");
}
