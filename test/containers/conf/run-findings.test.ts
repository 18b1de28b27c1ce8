// `run --config` on every configs/ sample, read as an operator reads it: one finding per cause, each with its rule,
// severity and security flag, and nothing unexplained. The lists below are what real servers gave (2.2.34 against
// 2.4.68, checked by hand); the comments say which construct, at which file and line, each finding stands for.
// The 2.2 side needs a real 2.2 image (HTTPD_BASELINE_IMAGE); without one, the trees 2.4 refuses still run on
// the candidate alone and must still list every blocking cause and fail the run.
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

type Row = [rule: string, severity: string, security: boolean];
const blocking = (rule: string): Row => [rule, "blocking", false];

// The blocking causes every full 2.2 tree shares: Order/Allow/Deny/Satisfy are mod_access_compat's on 2.4 (M2),
// authn_default/authz_default are gone (M4), User/Group are mod_unixd's (M5), and no tree loads an MPM.
const FULL_TREE = [blocking("M2"), blocking("M4"), blocking("M5"), blocking("mpm-not-loaded")];

/** Per sample: the findings a run with a real 2.2 baseline gives, and for a tree 2.4 refuses, the rule whose line
 * the config test names (confirmed). */
const EXPECTED: Record<string, { findings: Row[]; confirmed?: string; clock?: Row[] }> = {
  // The snippet's aliases are not on the smoke request's path (its CGI findings are the probes', in
  // stock-modules.test.ts): only the stock configs' differences remain (mod_ssl's AH01873, as for queuewatch-cgi).
  "hostwatch-cgi": { findings: [["stock-module-not-loaded", "expected", false], ["D3", "expected", false]] },
  // conf/extra/httpd-vhosts.conf:27 RewriteLog (S15) is the line 2.4's config test stops at; the rest are
  // conf/httpd.conf:42 Order (M2), :12/:15 authn_default/authz_default (M4), :30 User (M5), :9 Listen and no MPM.
  "app-htaccess": { findings: [blocking("S15"), ...FULL_TREE], confirmed: "S15" },
  // apache2.conf:21 LockFile (R9, with mods-enabled/ssl.conf:14 SSLMutex) stops 2.4 first; read for Debian's own
  // 2.4 (lint's default for the layout), which has mod_log_config and mod_unixd compiled in, so LogFormat and
  // User are no causes there (no B4, no M5); mods-enabled/deflate.conf:3 AddOutputFilterByType needs mod_filter
  // (N4); mods-enabled/ssl.conf's SSLSessionCache shmcb needs mod_socache_shmcb, which 2.2's mod_ssl carried
  // (ssl-session-cache-provider; 2.4.68 refuses it without the module).
  "debian-ssl": {
    findings: [blocking("R9"), blocking("M2"), blocking("M4"), blocking("mpm-not-loaded"), blocking("N4"), blocking("ssl-session-cache-provider")],
    confirmed: "R9",
  },
  // conf/extra/httpd-ssl.conf:20 SSLMutex (R9); its SSLSessionCache shmcb needs mod_socache_shmcb on 2.4. 2.2's
  // own start-up warning (the stub certificate's CN) folds under the refusal: it is not a deprecated rule's evidence.
  "https-origin-proxy": { findings: [blocking("R9"), ...FULL_TREE, blocking("ssl-session-cache-provider")], confirmed: "R9" },
  // conf/httpd.conf:67 DefaultType text/plain: 2.4 warns AH00117 (E1); the vhosts' ETags lose their inode part
  // (D3, expected).
  // Like tool-status-alias: the snippet's Alias is not on the smoke request's path (its rewrite's mod_rewrite cause
  // is the probes', test/containers/conf/stock-modules.test.ts), so only the stock configs' differences remain.
  "docshelf-rewrite": { findings: [["stock-module-not-loaded", "expected", false], ["D3", "expected", false]] },
  "name-vhosts": { findings: [["E1", "deprecated", false], ["D3", "expected", false]] },
  // The official image's stock file in shape: the harness carries its module lines to 2.4 (renamed, gone, the MPM,
  // mod_unixd and the balancer's mod_slotmem_shm loaded with -C), so it starts; conf/httpd.conf:139 DefaultType
  // text/plain (E1) and the ETags' lost inode part (D3, expected) are what GET / shows (2.2.34 against 2.4.68).
  "official-stock": { findings: [["E1", "deprecated", false], ["D3", "expected", false]] },
  // etc/queuewatch/apache.conf:15 AddHandler cgi-script .cgi: 2.4's stock config loads no CGI module, so GET / sends
  // index.cgi's source: the stock-module cause of mod_cgi (handler-not-loaded's claim, security). The file's
  // Accept-Ranges is benign, and 2.2's stock mod_ssl warns of no session cache (AH01873) where 2.4's stock config
  // loads no mod_ssl: mod_ssl's stock-module cause (expected).
  "queuewatch-cgi": { findings: [["stock-module-not-loaded", "security", true], ["accept-ranges", "expected", false], ["stock-module-not-loaded", "expected", false]] },
  // conf/httpd.conf:27 LockFile (R9); :104/:105 disk_cache/mem_cache and conf.d/cache.conf's directives (B2);
  // conf.d/balancer.conf:13/:18 the balancer without lbmethod modules (B3); conf/httpd.conf:98 mod_proxy_balancer
  // without mod_slotmem_shm, which 2.4 exits without at start-up (start-companion); :60 authn_alias (N3).
  "rhel-balancer": { findings: [blocking("R9"), blocking("B2"), blocking("B3"), ...FULL_TREE, blocking("N3"), blocking("start-companion")], confirmed: "R9" },
  // etc/stagelock/apache.conf:16 AuthType Digest inside <IfModule mod_auth_digest.c>: 2.4's stock config does not
  // load mod_auth_digest, so / is 200 without a password where 2.2 asked for one: the stock-module cause of
  // mod_auth_digest (protection-module-not-loaded's claim, security); mod_ssl's AH01873 as for queuewatch-cgi.
  "staging-lock": { findings: [["stock-module-not-loaded", "security", true], ["stock-module-not-loaded", "expected", false]] },
  // conf/httpd.conf:62 DefaultType text/plain (E1); the rest of the tree answers alike.
  // ExpiresByType's Expires and max-age count from each request's own second: when the two sides' requests fall in
  // different seconds, the skew shows as expires-skew (expected); in the same second, not at all.
  "static-expires": { findings: [["E1", "deprecated", false]], clock: [["expires-skew", "expected", false]] },
  // The snippet's aliases are not on the smoke request's path: only the stock configs' differences remain (mod_ssl's
  // AH01873, as for queuewatch-cgi).
  "tool-status-alias": { findings: [["stock-module-not-loaded", "expected", false], ["D3", "expected", false]] },
};

/** The trees 2.4 refuses, and so the ones a candidate-only run must still explain. */
const REFUSED = Object.keys(EXPECTED).filter((id) => EXPECTED[id]!.confirmed !== undefined);

function rows(report: ReportScenario): Row[] {
  return report.findings.map((f): Row => [f.rule, f.severity, f.security]).sort();
}

describe("run --config on the configs/ samples: one finding per cause", { timeout: 600_000 }, () => {
  const reports = new Map<string, ReportScenario>();
  const alone = new Map<string, ReportScenario>();
  const session = `test-run-findings-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    process.env.HARNESS_SESSION = session;
    const images = inject("images");
    if (images.baseline) for (const [id, report] of await runTrees(SAMPLES.map((name) => `${CONFIGS}${name}`), { concurrency: 3 })) reports.set(id, report);
    // The refused trees stop at the config test: cheap to run again with no baseline at all.
    for (const [id, report] of await runTrees(REFUSED.map((name) => `${CONFIGS}${name}`), { baseline: null, concurrency: 3 })) alone.set(id, report);
  }, 600_000);

  it("knows every sample", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(SAMPLES);
  });

  it("with a 2.2 baseline, gives exactly the findings each sample's causes call for, and none unexplained", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    for (const id of SAMPLES) {
      const report = reports.get(id)!;
      // What no rule claimed, spelled out, so that a failure says what was left.
      const unexplained = report.findings.filter((f) => f.rule === "unexplained").flatMap((f) => f.differences.map((d) => `${d.request ?? "(server)"} ${d.field}: ${d.baseline} → ${d.candidate}`));
      const clock = (EXPECTED[id]!.clock ?? []).map((row) => row.join(" "));
      const findings = rows(report).filter((row) => !clock.includes(row.join(" ")));
      expect({ id, error: report.error, findings, unexplained }).toEqual({ id, error: null, findings: [...EXPECTED[id]!.findings].sort(), unexplained: [] });
      const confirmed = report.findings.filter((f) => f.confirmed === true).map((f) => f.rule);
      expect({ id, confirmed }).toEqual({ id, confirmed: EXPECTED[id]!.confirmed === undefined ? [] : [EXPECTED[id]!.confirmed] });
    }
  });

  it("flags 2.4 opening the staging lock: 401 on 2.2, 200 on 2.4, at the Digest lines' file and line", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    const lock = reports.get("staging-lock")!.findings.find((f) => f.rule === "stock-module-not-loaded" && f.title.startsWith("mod_auth_digest "))!;
    expect(lock).toMatchObject({ severity: "security", security: true, gating: true, requests: { count: 1 } });
    expect(lock.config.map((c) => `${c.file}:${c.line}`)).toContain("etc/stagelock/apache.conf:16");
    expect(lock.differences).toContainEqual(expect.objectContaining({ field: "status", baseline: "401", candidate: "200" }));
  });

  it("flags 2.4 sending the CGI script's source where 2.2 ran it, with the source's own body and no type", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    const script = reports.get("queuewatch-cgi")!.findings.find((f) => f.rule === "stock-module-not-loaded" && f.title.startsWith("mod_cgi "))!;
    expect(script).toMatchObject({ severity: "security", security: true, gating: true, requests: { count: 1 } });
    expect(script.config).toEqual([{ file: "etc/queuewatch/apache.conf", line: 15, directive: "AddHandler cgi-script .cgi" }]);
    const body = script.differences.find((d) => d.field === "body")!;
    expect(body.baseline).toContain("<h1>queuewatch</h1>");
    expect(body.candidate).toMatch(/^#!\/bin\/sh\n[\s\S]*RELAY_PASSWORD=/);
    // The file's own validators fold under the same cause, not under "unexplained"; so does the body's framing,
    // which varies: 2.2 sends the script's output with a Content-Length on some runs and chunked on others.
    const framing = new Set(["header:content-length", "header:transfer-encoding"]);
    expect(script.differences.map((d) => d.field).filter((field) => !framing.has(field)).sort()).toEqual(["body", "header:content-type", "header:etag", "header:last-modified"]);
  });

  it("fails the run exactly for the samples with a blocking or security cause, and never calls one 'same'", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    for (const id of SAMPLES) {
      const report = reports.get(id)!;
      const fails = EXPECTED[id]!.findings.some(([, severity, security]) => severity === "blocking" || security);
      expect({ id, gating: report.findings.some((f) => f.gating), same: report.verdict === "same" }).toEqual({ id, gating: fails, same: false });
    }
  });

  it("without a baseline, lists every blocking cause of a tree 2.4 refuses, the config test's one confirmed, and fails the run", () => {
    expect([...alone.keys()].sort()).toEqual(REFUSED);
    for (const id of REFUSED) {
      const report = alone.get(id)!;
      const expected = EXPECTED[id]!;
      expect({ id, error: report.error, findings: rows(report) }).toEqual({ id, error: null, findings: expected.findings.filter(([, severity]) => severity === "blocking").sort() });
      expect({ id, confirmed: report.findings.filter((f) => f.confirmed === true).map((f) => f.rule) }).toEqual({ id, confirmed: [expected.confirmed] });
      expect({ id, gating: report.findings.every((f) => f.gating), verdict: report.verdict }).toEqual({ id, gating: true, verdict: expect.not.stringMatching(/^same$/) });
    }
  });

  it("leaves no container or network behind", async () => {
    const engine = await connectEngine();
    expect(await listHarnessResources(engine, { session })).toEqual({ containers: [], networks: [] });
  });
});
