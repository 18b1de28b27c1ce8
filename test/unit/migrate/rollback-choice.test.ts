import { describe, expect, it } from "vitest";
import { summarise } from "../../../harness/judge/prove/judge-proof.ts";
import type { Counterexample, Proof } from "../../../harness/judge/prove/proof.ts";
import type { MigrationChange } from "../../../harness/migrate/migration.ts";
import { hunksToRollBack } from "../../../harness/migrate/rollback-choice.ts";

function change(id: string, file: string, line: number, endLine: number): MigrationChange {
  return { id, rule: "M2", span: { file, line, column: 1, endLine, endColumn: 1 }, before: [], after: [], status: "fixed", why: "", proven: null };
}

function proofWith(lines: Array<{ file: string; line: number }>): Proof {
  const answer = { status: 200, error: null, location: null, contentType: null, bodyDigest: null };
  const witness = (outcome: "denied" | "served") => ({ outcome, answer: outcome === "denied" ? "403" : "200", credentials: "not-sent" as const, object: "planted" as const, marker: "not-applicable" as const, evidence: [], handlerRefusal: null });
  const counterexample: Counterexample = {
    kind: "widened",
    security: true,
    request: { probe: "p1", cell: "c", vhost: "_default_", method: "GET", path: "/", client: { id: "outsider", address: "198.51.100.7", domain: null, range: "outsider" }, credentials: "none", user: null, realm: null },
    baseline: { ...answer, status: 403 },
    candidate: answer,
    witnesses: { baseline: witness("denied"), candidate: witness("served") },
    config: { baseline: lines.map((l) => ({ ...l, text: "Deny from all" })), candidate: [] },
  };
  return summarise({ probes: 1, matrix: [], counterexamples: [counterexample], accepted: [], power: null });
}

describe("hunksToRollBack", () => {
  const changes = [
    change("access:conf/httpd.conf:10", "conf/httpd.conf", 10, 14),
    change("access:conf/httpd.conf:20", "conf/httpd.conf", 20, 26),
    change("module:conf/httpd.conf:3", "conf/httpd.conf", 3, 3),
  ];

  it("picks the access hunk whose section holds a line deciding a counterexample on the original", () => {
    expect(hunksToRollBack(changes, proofWith([{ file: "conf/httpd.conf", line: 22 }]), new Set())).toEqual(["access:conf/httpd.conf:20"]);
  });

  it("never picks a non-access change, a hunk of another file, or one already rolled back", () => {
    const proof = proofWith([{ file: "conf/httpd.conf", line: 3 }, { file: "conf/other.conf", line: 12 }, { file: "conf/httpd.conf", line: 11 }]);
    expect(hunksToRollBack(changes, proof, new Set(["access:conf/httpd.conf:10"]))).toEqual([]);
  });
});
