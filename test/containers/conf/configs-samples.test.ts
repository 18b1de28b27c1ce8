// Every sample tree of configs/ runs end to end through the harness on real servers, with no request written by
// hand: the smoke requests come from the trees' own virtual hosts. 2.4 always; the 2.2 side needs a real 2.2
// image (HTTPD_BASELINE_IMAGE) and reports itself skipped with the reason without one.
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { runTrees } from "../../helpers/run-trees.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe("the configs/ samples on real servers", { timeout: 600_000 }, () => {
  const reports = new Map<string, ReportScenario>();
  // A session of this file's own, so the leak check below sees this run's resources and no other test file's.
  const session = `test-configs-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    process.env.HARNESS_SESSION = session;
    for (const [id, report] of await runTrees(SAMPLES.map((name) => `${CONFIGS}${name}`), { concurrency: 3 })) reports.set(id, report);
  }, 600_000);

  it("has a report for every sample, with smoke requests made from its virtual hosts and none written by hand", () => {
    expect([...reports.keys()].sort()).toEqual(SAMPLES);
    for (const report of reports.values()) {
      expect(report.error).toBeNull();
      expect(report.requests.length).toBeGreaterThan(0);
      for (const request of report.requests) expect(request.name).toMatch(/^GET https?:\/\/\S+:\d+\/$/);
    }
    expect(reports.get("name-vhosts")!.requests.map((r) => r.name)).toEqual([
      "GET http://blog.example.org:80/",
      "GET http://default.example.org:80/",
      "GET http://intranet.example.org:80/",
      "GET http://www.example.org:80/",
    ]);
  });

  it("on 2.4, says why a 2.2 tree does not load, at the operator's own file and line", () => {
    const candidate = (id: string) => reports.get(id)!.configTest.candidate;
    expect(candidate("debian-ssl")).toMatchObject({ ok: false, syntaxError: { file: "/etc/apache2/apache2.conf", reason: expect.stringContaining("Invalid command 'LockFile'") } });
    expect(candidate("rhel-balancer")).toMatchObject({ ok: false, syntaxError: { file: "/etc/httpd/conf/httpd.conf", reason: expect.stringContaining("LockFile") } });
    expect(candidate("app-htaccess")?.ok).toBe(false);
    // The trees whose only 2.4 breakage was module lines start once the harness carries them over.
    for (const id of ["name-vhosts", "official-stock", "static-expires", "tool-status-alias"]) {
      expect(candidate(id)?.ok).toBe(true);
      expect(reports.get(id)!.servers.candidate?.started).toBe(true);
      for (const request of reports.get(id)!.requests) expect(request.candidate?.status).toEqual(expect.any(Number));
    }
  });

  it("lists every line it changed and every stub it made in the report, with reasons", () => {
    const debian = reports.get("debian-ssl")!.servers.candidate!.tree!;
    expect(debian).toMatchObject({ layout: "debian", mount: "/etc/apache2", mainFile: "/etc/apache2/apache2.conf" });
    expect(debian.adaptations).toContainEqual(expect.objectContaining({ kind: "module-renamed", file: "mods-enabled/authz_default.load", now: expect.stringContaining("authz_core_module") }));
    expect(debian.adaptations).toContainEqual(expect.objectContaining({ kind: "module-added", now: expect.stringContaining("mpm_prefork_module") }));
    expect(debian.stubs).toContainEqual(expect.objectContaining({ kind: "certificate", target: "/etc/ssl/certs/ssl-cert-snakeoil.pem" }));
    expect(debian.stubs).toContainEqual(expect.objectContaining({ kind: "user", target: "www-data" }));
    const vhosts = reports.get("name-vhosts")!.servers.candidate!.tree!;
    expect(vhosts.adaptations.filter((a) => a.kind === "log-captured").map((a) => a.was)).toEqual([
      expect.stringContaining("rotatelogs"),
      expect.stringContaining("logger"),
      "ErrorLog syslog:local1",
    ]);
  });

  it("follows each virtual host's own error log: the denial on 2.4 comes from the intranet host's syslog log, captured", () => {
    const intranet = reports.get("name-vhosts")!.requests.find((r) => r.name === "GET http://intranet.example.org:80/")!;
    // The host's requests reach the server from the engine's gateway, which the intranet vhost does not allow.
    expect(intranet.candidate?.status).toBe(403);
    expect(intranet.candidate?.errorLog).toEqual([expect.objectContaining({ code: "AH01797", message: expect.stringContaining("intranet.example.org") })]);
  });

  it("on 2.2, loads and serves every sample tree as it is", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    for (const [id, report] of reports) {
      expect({ id, ok: report.configTest.baseline?.ok, started: report.servers.baseline?.started }).toEqual({ id, ok: true, started: true });
      for (const request of report.requests) expect({ id, request: request.name, status: request.baseline?.status }).toEqual({ id, request: request.name, status: expect.any(Number) });
    }
    const intranet = reports.get("name-vhosts")!.requests.find((r) => r.name === "GET http://intranet.example.org:80/")!;
    expect(intranet.baseline?.errorLog).toEqual([expect.objectContaining({ event: "AH01797", message: expect.stringContaining("intranet.example.org") })]);
  });

  it("leaves no container or network behind", async () => {
    const engine = await connectEngine();
    expect(await listHarnessResources(engine, { session })).toEqual({ containers: [], networks: [] });
  });
});
