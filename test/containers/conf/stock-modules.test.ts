// Fragments on each image's own stock httpd.conf, probed as `run --config` probes them: what follows from a module
// 2.2's stock config loads and 2.4's does not is one cause per module (never `unexplained`), with the severity its
// outcome calls for; `--target-modules` loads the modules on the candidate and the causes go. Real answers (2.2.34
// against 2.4.68): staging-lock's Digest lock 401 → 200 and its hook's source (mod_auth_digest, mod_cgi: security);
// queuewatch-cgi's index.cgi source (mod_cgi: security); tool-status-alias's Expires and Cache-Control (mod_expires:
// behaviour); hostwatch-cgi's ScriptAlias directory, 403 from 2.2's mod_cgi and 404 on 2.4, and its plugin that 2.2
// refused to run (ExecCGI off) and 2.4 sends as text (mod_cgi: security); docshelf-rewrite's RewriteRule [F] on
// backups (403 → 200) and its HTTPS redirect (301 → 200), both inside its <Directory>, tied to the probes whose
// region meets that section (mod_rewrite: security). The comparisons need a real 2.2 (HTTPD_BASELINE_IMAGE); without
// one, the 2.4 side's own answers,
// with and without the modules (an `httpd -M` file), are still checked.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { runTrees } from "../../helpers/run-trees.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const SAMPLES = ["docshelf-rewrite", "hostwatch-cgi", "queuewatch-cgi", "staging-lock", "tool-status-alias"];

type Row = [module: string, severity: string, security: boolean];

/** The module causes each sample shows with a real 2.2 baseline, by the module the title names. */
// Every fragment also shows mod_ssl's: 2.2's stock config loads it without a session cache and warns (AH01873).
const CAUSES: Record<string, Row[]> = {
  "docshelf-rewrite": [["mod_rewrite", "security", true], ["mod_ssl", "expected", false]],
  "hostwatch-cgi": [["mod_cgi", "security", true], ["mod_ssl", "expected", false]],
  "queuewatch-cgi": [["mod_cgi", "security", true], ["mod_ssl", "expected", false]],
  "staging-lock": [["mod_auth_digest", "security", true], ["mod_cgi", "security", true], ["mod_ssl", "expected", false]],
  "tool-status-alias": [["mod_expires", "behaviour", false], ["mod_ssl", "expected", false]],
};

function causes(report: ReportScenario): Row[] {
  return report.findings
    .filter((f) => f.rule === "stock-module-not-loaded")
    .map((f): Row => [/^(mod_\w+)/.exec(f.title)?.[1] ?? f.title, f.severity, f.security])
    .sort();
}

function unexplained(report: ReportScenario): string[] {
  return report.findings.filter((f) => f.rule === "unexplained").flatMap((f) => f.differences.map((d) => `${d.request ?? "(server)"} ${d.field}: ${d.baseline} → ${d.candidate}`));
}

/** The candidate's answers to the requests whose line starts with `sent`. */
function answers(report: ReportScenario, sent: string) {
  return report.requests.filter((r) => r.sent.startsWith(sent)).map((r) => r.candidate);
}

const header = (headers: ReadonlyArray<readonly [string, string]> | undefined, name: string) => headers?.find(([key]) => key.toLowerCase() === name)?.[1] ?? null;

describe("fragments on the images' stock configs: one cause per module, gone with --target-modules", { timeout: 900_000 }, () => {
  const session = `test-stock-modules-${randomBytes(4).toString("hex")}`;
  const compared = new Map<string, ReportScenario>();
  const comparedWith = new Map<string, ReportScenario>();
  const alone = new Map<string, ReportScenario>();
  const aloneWith = new Map<string, ReportScenario>();
  let dir = "";

  beforeAll(async () => {
    process.env.HARNESS_SESSION = session;
    dir = await mkdtemp(join(tmpdir(), "stock-modules-"));
    // What a distribution's 2.4 might load (`httpd -M`'s form): the modules the samples need.
    const modules = join(dir, "target-modules.txt");
    await writeFile(modules, "Loaded Modules:\n expires_module (shared)\n cgi_module (shared)\n auth_digest_module (shared)\n rewrite_module (shared)\n");
    const paths = SAMPLES.map((name) => `${CONFIGS}${name}`);
    const images = inject("images");
    if (images.baseline) {
      for (const [id, report] of await runTrees(paths, { probes: true, concurrency: 3 })) compared.set(id, report);
      for (const [id, report] of await runTrees(paths, { probes: true, concurrency: 3, targetModules: "successors" })) comparedWith.set(id, report);
      // The candidate's own answers are in these runs already (probes take minutes on a shared engine).
      for (const [id, report] of compared) alone.set(id, report);
      for (const [id, report] of comparedWith) aloneWith.set(id, report);
      return;
    }
    for (const [id, report] of await runTrees(paths, { probes: true, concurrency: 3, baseline: null })) alone.set(id, report);
    for (const [id, report] of await runTrees(paths, { probes: true, concurrency: 3, baseline: null, targetModules: modules })) aloneWith.set(id, report);
  }, 900_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("with a 2.2 baseline: no unexplained row, and each module's cause with its outcome's severity", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image (HTTPD_BASELINE_IMAGE)");
    for (const id of SAMPLES) {
      const report = compared.get(id)!;
      expect({ id, error: report.error, causes: causes(report), unexplained: unexplained(report) }).toEqual({ id, error: null, causes: CAUSES[id], unexplained: [] });
      for (const finding of report.findings.filter((f) => f.rule === "stock-module-not-loaded")) {
        // The successor to load, by its LoadModule line, and the lines of the fragment that need it.
        expect(finding.title).toMatch(/LoadModule \w+_module modules\/mod_\w+\.so/);
        // The lines of the fragment that need it (mod_ssl's log line needs none of them).
        if (!finding.title.startsWith("mod_ssl ")) expect(finding.config.length, finding.title).toBeGreaterThan(0);
        expect(finding.gating).toBe(finding.security);
      }
    }
    // The lock's requests are the Digest module's, the hook's source the CGI module's: each difference under its own.
    const lock = compared.get("staging-lock")!.findings.find((f) => f.title.startsWith("mod_auth_digest"))!;
    expect(lock.differences).toContainEqual(expect.objectContaining({ field: "status", baseline: "401", candidate: "200" }));
    expect(lock.config.map((c) => `${c.file}:${c.line}`)).toContain("etc/stagelock/apache.conf:16");
    const hook = compared.get("staging-lock")!.findings.find((f) => f.title.startsWith("mod_cgi"))!;
    expect(hook.differences.some((d) => d.field === "body" && /^#!\/bin\/sh/.test(String(d.candidate)))).toBe(true);
    // A handler's 403 is no access decision: the directory's 403 → 404 is mod_cgi's change, not a widening; the
    // plugin 2.2 refused to run and 2.4 sends as text is an exposure.
    const hostwatch = compared.get("hostwatch-cgi")!;
    const cgi = hostwatch.findings.find((f) => f.title.startsWith("mod_cgi"))!;
    expect(cgi.differences).toContainEqual(expect.objectContaining({ field: "status", baseline: "403", candidate: "404" }));
    expect(hostwatch.findings.map((f) => f.rule)).not.toContain("access-widened");
    const plugin = hostwatch.probes!.cells.find((c) => c.path === "/hostwatch/plugins/check_db.cgi" && c.cell.includes("|valid:"))!;
    expect({ class: plugin.class, baseline: plugin.baseline?.outcome, refusal: plugin.baseline?.handlerRefusal?.split(" ")[0], candidate: plugin.candidate?.outcome }).toEqual({ class: "source-exposed", baseline: "denied", refusal: "AH02809", candidate: "source-served" });
    const expires = compared.get("tool-status-alias")!.findings.find((f) => f.title.startsWith("mod_expires"))!;
    expect(new Set(expires.differences.map((d) => d.field))).toEqual(new Set(["header:expires", "header:cache-control"]));
    expect(expires.differences.every((d) => d.class === "expected-change")).toBe(true);
    // The rewrite in docshelf's <Directory>: the backups 2.2 refused and the redirect it sent, on the requests whose
    // path meets that section, with the guarded lines; nothing on the requests outside it.
    const docshelf = compared.get("docshelf-rewrite")!;
    const rewrite = docshelf.findings.find((f) => f.title.startsWith("mod_rewrite"))!;
    expect(rewrite.title).toContain("LoadModule rewrite_module modules/mod_rewrite.so");
    const pathOf = (name: string | null) => docshelf.requests.find((r) => r.name === name)?.sent.split(" ")[1] ?? "";
    const statuses = rewrite.differences.filter((d) => d.field === "status").map((d) => `${pathOf(d.request)}: ${d.baseline} → ${d.candidate}`);
    expect(statuses.sort()).toEqual([
      "/docshelf/: 301 → 200",
      "/docshelf/archive/: 302 → 200",
      "/docshelf/archive/index.html: 302 → 200",
      "/docshelf/index.html.bak: 403 → 200",
      "/docshelf/index.html~: 403 → 200",
    ]);
    expect(rewrite.differences).toContainEqual(expect.objectContaining({ field: "header:location", baseline: expect.stringMatching(/^https:\/\/[^/]+\/docshelf\/$/), candidate: null }));
    // The <Directory>'s guarded lines and archive/.htaccess's, each tied to the requests that meet it.
    expect(rewrite.config.map((c) => `${c.file}:${c.line}`)).toEqual(["etc/docshelf/apache.conf:32", "usr/share/docshelf/www/archive/.htaccess:3"]);
    expect(rewrite.evidence).toContain("status differs on /docshelf/: RewriteRule (~|\\.bak)$ - [F] and the lines with it in <Directory /usr/share/docshelf/www> are skipped on 2.4 (mod_rewrite is not loaded)");
    expect(rewrite.evidence).toContain("status differs on /docshelf/archive/: RewriteEngine On and the lines with it in usr/share/docshelf/www/archive/.htaccess are skipped on 2.4 (mod_rewrite is not loaded)");
    expect(rewrite.differences.every((d) => pathOf(d.request).startsWith("/docshelf/"))).toBe(true);
  });

  it("with --target-modules successors: the module causes are gone, what remains is told", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image (HTTPD_BASELINE_IMAGE)");
    for (const id of SAMPLES) {
      const report = comparedWith.get(id)!;
      expect({ id, error: report.error, causes: causes(report) }).toEqual({ id, error: null, causes: [] });
    }
    // 2.4 now runs the script and asks for the password as 2.2 did.
    expect(comparedWith.get("queuewatch-cgi")!.findings.map((f) => f.rule)).not.toContain("handler-not-loaded");
    expect(comparedWith.get("staging-lock")!.findings.map((f) => f.rule)).not.toContain("protection-module-not-loaded");
  });

  it("on 2.4: the stock config sends the script's text, opens the lock, drops Expires; with the modules loaded it does not", () => {
    const script = (map: Map<string, ReportScenario>) => answers(map.get("queuewatch-cgi")!, "GET / (Host: queuewatch.example.com)").map((a) => a?.body ?? "");
    expect(script(alone).some((body) => body.startsWith("#!/bin/sh"))).toBe(true);
    expect(script(aloneWith).length).toBeGreaterThan(0);
    expect(script(aloneWith).every((body) => !body.startsWith("#!/bin/sh"))).toBe(true);
    expect(script(aloneWith).some((body) => body.includes("<h1>queuewatch</h1>"))).toBe(true);

    const lock = (map: Map<string, ReportScenario>) => answers(map.get("staging-lock")!, "GET / ").map((a) => a?.status);
    expect(lock(alone)).toContain(200);
    expect(lock(alone)).not.toContain(401);
    expect(lock(aloneWith)).toContain(401);

    // The plugin whose directory does not allow ExecCGI: its source on the stock 2.4, a 403 with mod_cgi loaded.
    const plugin = (map: Map<string, ReportScenario>) => answers(map.get("hostwatch-cgi")!, "GET /hostwatch/plugins/check_db.cgi as probe-user").map((a) => a?.status);
    expect(plugin(alone)).toContain(200);
    expect(plugin(aloneWith)).toContain(403);
    expect(plugin(aloneWith)).not.toContain(200);

    const graphs = (map: Map<string, ReportScenario>) => answers(map.get("tool-status-alias")!, "GET /statgraph/").map((a) => header(a?.headers, "expires"));
    expect(graphs(alone).every((value) => value === null)).toBe(true);
    expect(graphs(aloneWith).some((value) => value !== null)).toBe(true);

    // docshelf's front page, a backup and the archive: served on the stock config; redirected, refused and sent on
    // with mod_rewrite (the <Directory>'s rules and archive/.htaccess's).
    const shelf = (map: Map<string, ReportScenario>, sent: string) => map.get("docshelf-rewrite")!.requests.filter((r) => r.sent === sent).map((r) => r.candidate?.status);
    expect(shelf(alone, "GET /docshelf/")).toEqual([200]);
    expect(shelf(aloneWith, "GET /docshelf/")).toEqual([301]);
    expect(shelf(alone, "GET /docshelf/index.html.bak")).toEqual([200]);
    expect(shelf(aloneWith, "GET /docshelf/index.html.bak")).toEqual([403]);
    expect(shelf(alone, "GET /docshelf/archive/")).toEqual([200]);
    expect(shelf(aloneWith, "GET /docshelf/archive/")).toEqual([302]);
  });

  it("leaves no container or network behind", async () => {
    const engine = await connectEngine();
    expect(await listHarnessResources(engine, { session })).toEqual({ containers: [], networks: [] });
  });
});
