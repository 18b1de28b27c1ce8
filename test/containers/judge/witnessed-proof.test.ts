// The witnessed proof's obligations on real servers (2.2 from HTTPD_BASELINE_IMAGE, 2.4 the local image): a
// port that locks users out is a counterexample for the probe user it locks out; a port that loses a CGI region's
// handler serves the script's text to an authenticated user (security); one that loses ExecCGI refuses it (what real
// 2.4 does: "Options ExecCGI is off"); a Digest realm is probed with Digest credentials both sides take; an
// operator's own password file keeps its user and lets the probe user in, and the tree on disk is not written; and
// every counted cell carries its witnesses. The proofs run one after another: each runs two servers and clients.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { proveTrees, type ProveResult } from "../../../harness/cli/prove-trees.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { proofVerdictLine } from "../../../harness/judge/prove/judge-proof.ts";
import type { CellRecord, Counterexample } from "../../../harness/judge/prove/proof.ts";

const WITNESSED = fileURLToPath(new URL("../../fixtures/conf/witnessed/", import.meta.url));

function skipWithout(context: { skip: (reason: string) => void }): string | null {
  const images = inject("images");
  if (!images.baseline) {
    context.skip(images.baselineMissingReason ?? "no 2.2 image: set HTTPD_BASELINE_IMAGE");
    return null;
  }
  return images.baseline;
}

async function prove(baseline: string, original: string, port: string | null, power = false): Promise<ProveResult> {
  const originalPath = `${WITNESSED}${original}`;
  const portPath = port === null ? originalPath : `${WITNESSED}${port}`;
  return proveTrees({
    original: await loadTree(originalPath),
    originalPath,
    port: await loadTree(portPath),
    portPath,
    defines: [],
    baselineImage: baseline,
    candidateImage: inject("images").candidate,
    ignore: null,
    power,
  });
}

const short = (c: Counterexample) => `${c.kind} ${c.request.method} ${c.request.path} ${c.request.credentials}:${c.request.user} ${c.witnesses.baseline.outcome}→${c.witnesses.candidate.outcome}`;

/** Every file of a directory with its bytes' digest, to see that nothing wrote into it. */
function digests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
    if (statSync(path).isFile()) out[path] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return out;
}

/** A counted cell has both sides' witnesses: the object was there, a valid user was taken in. */
function expectWitnessed(cells: readonly CellRecord[]): void {
  for (const cell of cells.filter((c) => c.proven)) {
    for (const side of [cell.baseline!, cell.candidate!]) {
      expect(side.object, cell.cell).not.toBe("missing");
      if (cell.credentials === "valid") expect(side.credentials, cell.cell).toBe("accepted");
    }
  }
}

describe("witnessed proofs on real 2.2.34 and 2.4", { timeout: 600_000 }, () => {
  it("finds a valid user locked out by `Require user admin`: 200 on 2.2, 401 on 2.4, narrowed", async (context) => {
    const baseline = skipWithout(context);
    if (baseline === null) return;
    const { proof } = await prove(baseline, "team/original", "team/port-user-admin");
    expect(proof.verdict).toBe("counterexamples");
    expect(proof.counterexamples.map(short)).toEqual(["narrowed GET /team/ valid:probe-user served→auth-required"]);
    const [locked] = proof.counterexamples;
    // Real 2.4 answers an authenticated user no Require grants with 401 (AH01631), not 403: the user was taken in.
    expect(locked).toMatchObject({ security: false, baseline: { status: 200 }, candidate: { status: 401 } });
    expect(locked!.witnesses.candidate.credentials).toBe("accepted");
    expect(locked!.witnesses.candidate.evidence[0]).toMatch(/AH01631 user probe-user: authorization failure/);
    expect(locked!.config.candidate.map((l) => l.text)).toContain("Require user admin");
    // admin itself is let in on both sides, as the port intends.
    expect(proof.matrix.find((c) => c.path === "/team/" && c.user === "admin" && c.credentials === "valid")).toMatchObject({ class: "equal", proven: true });
    expectWitnessed(proof.matrix);
  });

  it("finds the script's text served to an authenticated user where the port lost the CGI handler: executed → source served, security", async (context) => {
    const baseline = skipWithout(context);
    if (baseline === null) return;
    const { proof } = await prove(baseline, "tools/original", "tools/port-no-handler");
    const exposed = proof.counterexamples.filter((c) => c.kind === "source-exposed");
    expect(exposed.map(short)).toEqual(["source-exposed GET /tools/probe.cgi valid:probe-user executed→source-served"]);
    expect(exposed[0]).toMatchObject({ security: true, baseline: { status: 200 }, candidate: { status: 200 } });
    expect(exposed[0]!.witnesses.baseline.marker).toBe("executed");
    expect(exposed[0]!.witnesses.candidate.marker).toBe("source");
    expect(proof.counterexamples[0]!.kind).toBe("source-exposed");
  });

  it("finds the script refused where the port lost ExecCGI: real 2.4 answers 403, narrowed", async (context) => {
    const baseline = skipWithout(context);
    if (baseline === null) return;
    const { proof } = await prove(baseline, "tools/original", "tools/port-no-execcgi");
    expect(proof.counterexamples.map(short)).toEqual(["narrowed GET /tools/probe.cgi valid:probe-user executed→denied"]);
  });

  it("proves the right port of the CGI region, every counted cell witnessed, and kills its mutants", async (context) => {
    const baseline = skipWithout(context);
    if (baseline === null) return;
    const { proof } = await prove(baseline, "tools/original", "tools/port", true);
    expect(proof.counterexamples.map(short)).toEqual([]);
    expect(proofVerdictLine(proof)).toMatch(/^equivalent over \d+ of \d+ cells; power: (\d+) of \1 mutants killed$/);
    expect(proof.power!.mutants).toBeGreaterThanOrEqual(4);
    const script = proof.matrix.find((c) => c.path === "/tools/probe.cgi" && c.credentials === "valid")!;
    expect(script).toMatchObject({ class: "equal", proven: true, baseline: { outcome: "executed", credentials: "accepted", object: "planted" }, candidate: { outcome: "executed", credentials: "accepted" } });
    expectWitnessed(proof.matrix);
  });

  it("probes a Digest realm with Digest credentials that both versions take", async (context) => {
    const baseline = skipWithout(context);
    if (baseline === null) return;
    const { proof, run } = await prove(baseline, "digest/original", "digest/port");
    expect(proof.verdict).toBe("equivalent");
    const cells = proof.matrix.filter((c) => c.path === "/lock/");
    const byCredentials = Object.fromEntries(cells.map((c) => [c.credentials, [c.baseline!.outcome, c.candidate!.outcome, c.proven]]));
    expect(byCredentials).toEqual({
      none: ["auth-required", "auth-required", true],
      valid: ["served", "served", true],
      "wrong-password": ["auth-required", "auth-required", true],
      "other-realm": ["auth-required", "auth-required", true],
    });
    // The valid probe answered a Digest challenge on both sides: the request went twice, the second with Digest.
    const valid = cells.find((c) => c.credentials === "valid")!;
    for (const side of run.observations) {
      const outcome = side.requests.find((r) => r.name === valid.probe)!.outcome;
      expect(outcome.kind === "response" && outcome.challenged, side.side.id).toBe(true);
    }
  });

  it("lets the probe user into an operator's own password file beside its real user, and writes nothing into the tree", async (context) => {
    const baseline = skipWithout(context);
    if (baseline === null) return;
    const before = digests(`${WITNESSED}own-users`);
    const { proof, run } = await prove(baseline, "own-users/original", null);
    expect(digests(`${WITNESSED}own-users`)).toEqual(before);
    expect(proof.counterexamples.map(short)).toEqual([]);
    const valid = proof.matrix.filter((c) => c.path?.startsWith("/wiki") && c.credentials === "valid");
    expect(valid.length).toBeGreaterThan(0);
    for (const cell of valid) expect([cell.baseline!.credentials, cell.candidate!.credentials], cell.cell).toEqual(["accepted", "accepted"]);
    // The staged copy kept the operator's user and gained the probe users: listed as a staged edit.
    for (const side of run.observations) {
      expect(side.world!.stores).toEqual([{ path: "/etc/teamwiki/htpasswd", directive: "AuthUserFile", format: "file", held: "tree" }]);
      expect(side.tree!.adaptations).toContainEqual(expect.objectContaining({ kind: "probe-identity", file: "etc/teamwiki/apache.conf" }));
    }
    expectWitnessed(proof.matrix);
  });
});
