import { describe, expect, it } from "vitest";
import type { Counterexample, Proof } from "../../../harness/judge/prove/proof.ts";
import type { MigrationChange } from "../../../harness/migrate/migration.ts";
import { hunksToRollBack } from "../../../harness/migrate/rollback-choice.ts";

function change(id: string, file: string, line: number, endLine: number): MigrationChange {
  return { id, rule: "M2", span: { file, line, column: 1, endLine, endColumn: 1 }, before: [], after: [], status: "fixed", why: "", proven: null };
}

function proofWith(lines: Array<{ file: string; line: number }>): Proof {
  const answer = { status: 200, error: null, location: null, contentType: null, bodyDigest: null };
  const counterexample: Counterexample = {
    kind: "widened",
    request: { probe: "p1", cell: "c", vhost: "_default_", method: "GET", path: "/", client: { id: "outsider", address: "198.51.100.7", domain: null, range: "outsider" }, credentials: "none", realm: null },
    baseline: { ...answer, status: 403 },
    candidate: answer,
    config: { baseline: lines.map((l) => ({ ...l, text: "Deny from all" })), candidate: [] },
  };
  return { schemaVersion: "1.0", verdict: "counterexamples", probes: 1, cells: { total: 1, probed: 1, unprobed: [] }, counterexamples: [counterexample], accepted: [] };
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
