// Power from the mutants' answers: a mutant whose answers give a counterexample where the port gave none is killed;
// one that changes nothing a probe saw survives, and the cells it passed through are not proven; one 2.4 would not
// load, or whose region no compared cell passes through, counts neither way.
import { describe, expect, it } from "vitest";
import type { HttpResponseOutcome } from "../../../../harness/clients/outcome.ts";
import { judgeProof, proofVerdictLine, type ProofInput } from "../../../../harness/judge/prove/judge-proof.ts";
import { type MutantSummary, withPower } from "../../../../harness/judge/prove/power.ts";
import type { ObservedWorld, RequestObservation, SideObservation, VariantObservation } from "../../../../harness/observe/observation.ts";
import type { ScenarioRun } from "../../../../harness/observe/scenario-run.ts";
import type { Probe, ProbeSet } from "../../../../harness/plan/probes/probe.ts";
import { markerOf, objectText } from "../../../../harness/plan/probes/world-content.ts";

function probe(id: string, path: string): Probe {
  return { id, cell: `c-${id}`, target: { host: null, port: 80, tls: false }, method: "GET", path, client: "outsider", credentials: "none", user: null, scheme: null, realm: null, purpose: "inside", region: path, object: { kind: "static", marker: markerOf(path), origin: null }, sections: [] };
}
const PROBES = [probe("p1", "/admin/"), probe("p2", "/open/"), probe("p3", "/proxied/")];
const SET: ProbeSet = {
  probes: PROBES,
  cells: PROBES.map((p) => ({ id: p.cell, vhost: "v", region: p.region, client: p.client, credentials: "none", user: null, method: "GET", probe: p.id, unprobed: null })),
  clients: [{ id: "outsider", kind: "outsider", address: "198.51.100.77", domain: null, range: "outsider" }],
  world: { users: [], digestRealms: [], objects: [] },
};
const WORLD: ObservedWorld = {
  objects: PROBES.map((p) => ({ target: p.target, url: p.path, path: `/srv${p.path}index.html`, held: "planted", kind: "index", marker: p.object.marker, sha256: null, reason: null })),
  stores: [], users: [], missing: [], identityFailures: [],
};
const page = (path: string) => objectText("index", markerOf(path)).text;
function response(status: number, body = ""): HttpResponseOutcome {
  return { kind: "response", status, httpVersion: "1.1", headers: [["Content-Type", "text/html"]], body, bodyBytes: body.length, bodySha256: `sha-${body}`, durationMs: 1 };
}
function answer(name: string, outcome: RequestObservation["outcome"]): RequestObservation {
  return { name, client: "outsider", outcome, repeat: null, errorLog: [], repeatErrorLog: null };
}
const both = [answer("p1", response(403)), answer("p2", response(200, page("/open/"))), answer("p3", { kind: "transport-error", code: "TIMEOUT", message: "", durationMs: 1 })];
function variant(id: string, requests: RequestObservation[], reloaded = true): VariantObservation {
  return { id, reloaded, reason: reloaded ? null : "AH00526: Syntax error on line 12", configTest: null, requests, durationMs: 5 };
}
function input(variants: VariantObservation[]): ProofInput {
  const side = (requests: RequestObservation[], v: VariantObservation[]) => ({ requests, trailingLog: [], world: WORLD, variants: v }) as unknown as SideObservation;
  return { set: SET, run: { observations: [side(both, []), side(both, variants)] } as unknown as ScenarioRun, baselineConfigs: [], candidateConfigs: [], ignore: null };
}
const mutant = (id: string, probes: string[], mutation = `mutation ${id}`): MutantSummary => ({ id, region: "<Directory /srv/admin>", mutation, file: "conf/httpd.conf", line: 10, probes });

describe("withPower", () => {
  it("counts a mutant killed, one surviving with its cells unproven, and none for what was not loaded or not compared", () => {
    const variants = [
      variant("m1", [answer("p1", response(200, page("/admin/")))]),
      variant("m2", [answer("p2", response(200, page("/open/")))]),
      variant("m3", [], false),
      variant("m4", [answer("p3", response(403))]),
    ];
    const mutants = [mutant("m1", ["p1"], "drop `Require all denied`"), mutant("m2", ["p2"], "add `Require all granted`"), mutant("m3", ["p1"]), mutant("m4", ["p3"])];
    const base = input(variants);
    const plain = judgeProof(base);
    expect(proofVerdictLine(plain)).toBe("equivalent over 2 of 3 cells");
    const proof = withPower(plain, base, mutants, 20);
    expect(proof.power).toMatchObject({ mutants: 2, killed: 1, survivors: [{ mutation: "add `Require all granted`", file: "conf/httpd.conf", line: 10, cells: ["c-p2"] }] });
    expect(proof.power!.uncounted.map((u) => u.reason)).toEqual(["AH00526: Syntax error on line 12", "no cell of its region was compared (unprobed, vacuous or accepted)"]);
    expect(proof.matrix.find((c) => c.probe === "p2")).toMatchObject({ class: "equal", proven: false, reason: expect.stringMatching(/the mutant "add `Require all granted`"/) });
    expect(proofVerdictLine(proof)).toBe("equivalent over 1 of 3 cells; power: 1 of 2 mutants killed");
  });
});
