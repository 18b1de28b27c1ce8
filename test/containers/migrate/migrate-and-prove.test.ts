// The proof obligations on real servers, for every configs/ sample: what `migrate` writes passes real
// 2.4's config test and starts (CI has no 2.2: this part runs the port alone); with a real 2.2
// (HTTPD_BASELINE_IMAGE) `prove` finds the port equivalent to the original over its witnessed cells, with power (at
// least 95 % of the port's mutants killed, survivors named), and a deliberately wrong hand port (a Require that
// widens access, a lost Satisfy Any) is caught with counterexamples of both kinds. The proofs run one after another: each already runs two servers and a few clients.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { proveTrees } from "../../../harness/cli/prove-trees.ts";
import { writeTree } from "../../../harness/cli/write-tree.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { proofVerdictLine } from "../../../harness/judge/prove/judge-proof.ts";
import { migrateTree } from "../../../harness/migrate/migrate-tree.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { runTrees } from "../../helpers/run-trees.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const PORTS = fileURLToPath(new URL("../../fixtures/conf/ports/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe("migrate's output on real 2.4", { timeout: 600_000 }, () => {
  const reports = new Map<string, ReportScenario>();
  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), "migrated-"));
    const ports: string[] = [];
    for (const sample of SAMPLES) {
      const migration = migrateTree(await loadTree(`${CONFIGS}${sample}`), { defines: [], annotate: true, rollback: new Set() });
      writeTree(migration.migrated.source, join(out, sample));
      ports.push(join(out, sample));
    }
    const runs = await runTrees(SAMPLES.map((s) => `${CONFIGS}${s}`), { candidateConfigs: ports, baseline: null, concurrency: 3 });
    for (const [id, report] of runs) reports.set(id, report);
  }, 600_000);

  for (const sample of SAMPLES) {
    it(`${sample}: the migrated tree passes 2.4's config test as written and starts`, () => {
      const report = reports.get(sample)!;
      expect(report.error).toBeNull();
      expect(report.configTest.candidate, JSON.stringify(report.configTest.candidate)).toMatchObject({ ok: true });
      expect(report.servers.candidate?.started).toBe(true);
      // Taken as a 2.4 tree: the harness renamed or dropped none of its modules.
      expect(report.servers.candidate!.tree!.adaptations.filter((a) => a.kind === "module-renamed" || a.kind === "module-absent")).toEqual([]);
    });
  }
});

describe("prove on real 2.2.34 and 2.4", { timeout: 900_000 }, () => {
  const images = inject("images");
  const prove = async (sample: string, port: Parameters<typeof proveTrees>[0]["port"], portPath: string, power = false) =>
    proveTrees({ original: await loadTree(`${CONFIGS}${sample}`), originalPath: `${CONFIGS}${sample}`, port, portPath, defines: [], baselineImage: images.baseline!, candidateImage: images.candidate, ignore: null, power });

  for (const sample of SAMPLES) {
    it(`${sample}: migrate's port is equivalent to the original`, async (context) => {
      if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no 2.2 image: set HTTPD_BASELINE_IMAGE");
      const migration = migrateTree(await loadTree(`${CONFIGS}${sample}`), { defines: [], annotate: false, rollback: new Set() });
      const { proof, run } = await prove(sample, migration.migrated, `${CONFIGS}${sample} (migrated)`, true);
      expect(run.observations.map((o) => o.configTest.ok)).toEqual([true, true]);
      expect(proof.counterexamples.map((c) => `${c.kind} ${c.request.method} ${c.request.vhost}${c.request.path} ${c.request.client.id} ${c.request.credentials}: ${c.baseline.status} vs ${c.candidate.status}`)).toEqual([]);
      expect(proofVerdictLine(proof)).toMatch(/^equivalent over \d+ of \d+ cells; power: \d+ of \d+ mutants killed$/);
      expect(proof.cells.proven).toBeGreaterThan(0);
      // The probes could have seen a wrong port: at least 95 % of the port's mutants are killed; the rest are named.
      const power = proof.power!;
      for (const survivor of power.survivors) console.log(`${sample}: surviving mutant ${survivor.file}:${survivor.line} ${survivor.mutation} in ${survivor.region} (${survivor.cells.length} cells)`);
      expect(power.mutants).toBeGreaterThan(0);
      expect(power.killed / power.mutants, JSON.stringify(power.survivors)).toBeGreaterThanOrEqual(0.95);
      // Every counted cell was witnessed on both sides.
      for (const cell of proof.matrix.filter((c) => c.proven)) {
        expect([cell.baseline!.object, cell.candidate!.object], cell.cell).not.toContain("missing");
        if (cell.credentials === "valid") expect([cell.baseline!.credentials, cell.candidate!.credentials], cell.cell).toEqual(["accepted", "accepted"]);
      }
    });
  }

  it("catches a wrong hand port of tool-status-alias: a Require that widens access and a lost Satisfy Any", async (context) => {
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no 2.2 image: set HTTPD_BASELINE_IMAGE");
    const wrong = join(mkdtempSync(join(tmpdir(), "wrong-port-")), "tool-status-alias-24");
    cpSync(`${PORTS}tool-status-alias-24`, wrong, { recursive: true });
    const file = join(wrong, "etc/statgraph/apache.conf");
    const text = readFileSync(file, "utf8");
    // The graphs: <RequireAny> (2.2's Satisfy Any) written as <RequireAll>; the collector's page opened to all.
    const broken = text.replace("<RequireAny>", "<RequireAll>").replace("</RequireAny>", "</RequireAll>").replace(/Require ip 127\.0\.0\.1 ::1\s*\n(?![\s\S]*Require ip 127)/, "Require all granted\n");
    expect(broken).not.toBe(text);
    writeFileSync(file, broken);
    const { proof } = await prove("tool-status-alias", await loadTree(wrong), wrong);
    expect(proof.verdict).toBe("counterexamples");
    const first = proof.counterexamples[0]!;
    expect(first).toMatchObject({ kind: "widened", request: { path: expect.stringMatching(/^\/statgraph-status/), client: { id: "outsider" } }, baseline: { status: 403 } });
    expect(first.config.candidate.map((l) => l.text)).toContain("Require all granted");
    // Satisfy Any lost: this machine now needs a password for the graphs.
    expect(proof.counterexamples).toContainEqual(expect.objectContaining({ kind: "narrowed", request: expect.objectContaining({ path: "/statgraph/", client: expect.objectContaining({ id: "localhost" }), credentials: "none" }), baseline: expect.objectContaining({ status: 200 }), candidate: expect.objectContaining({ status: 401 }) }));
  });
});
