import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { slotsIn } from "../../../harness/plan/late-binding.ts";
import { planScenario } from "../../../harness/plan/plan-scenario.ts";
import type { ScenarioPlan, SidePlan } from "../../../harness/plan/scenario-plan.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { treeScenario, writtenFor } from "../../../harness/plan/tree/tree-scenario.ts";
import { scenarioVariables } from "../../../harness/plan/variables.ts";
import { renderPlanText } from "../../../harness/report/plan-text.ts";
import { interpolate, scanVariables } from "../../../harness/scenario/interpolate.ts";
import { loadScenarios, parseScenario } from "../../../harness/scenario/load-scenario.ts";
import { forFamily, type Scenario } from "../../../harness/scenario/scenario.ts";
import { officialDefaults } from "../../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";

const CATALOGUE = fileURLToPath(new URL("../../../scenarios/catalogue/", import.meta.url));

/** What `plan --versions 2.2.34,2.4.68` plans with when no image was ever inspected: no engine at all. */
const OFFLINE_SIDES = [
  { side: BASELINE, inspection: officialDefaults("httpd:2.2.34", httpdVersion("2.2.34")) },
  { side: CANDIDATE, inspection: officialDefaults("httpd:2.4", httpdVersion("2.4.68")) },
];

/** Every string inside a JSON-like value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The slots a plan may hold: the addresses only the engine knows, for this scenario's clients and backends. */
function lateSlots(scenario: Scenario): Set<string> {
  return new Set([
    "network.gateway",
    "network.subnet",
    ...scenario.clients.flatMap((client) => [`clients.${client.name}.ip`, `clients.${client.name}.hostname`]),
    ...scenario.backends.map((backend) => `backends.${backend.name}.ip`),
  ]);
}


/** The site config of the scenario for one side, its variables filled as the plan fills them. */
function siteText(scenario: Scenario, side: SidePlan): string {
  const { inspection } = OFFLINE_SIDES.find((s) => s.side.id === side.side.id)!;
  const vars = scenarioVariables({ profile: inspection.profile, clients: scenario.clients, backends: scenario.backends });
  return interpolate(forFamily(scenario.server.config, inspection.version.family) ?? "", vars, scenario.server.at);
}

/** Everything wrong with one side's plan, as sentences (an empty list when all is well). */
function sideProblems(scenario: Scenario, side: SidePlan): string[] {
  const problems: string[] = [];
  const site = siteText(scenario, side);
  if (side.config.text.trim() === "") problems.push("the config is empty");
  if (!side.config.path.startsWith("/")) problems.push(`the config path ${side.config.path} is not absolute`);
  if (scenario.server.base === "none") {
    if (side.config.text !== (site.endsWith("\n") ? site : `${site}\n`)) problems.push("base none: the config is not the site config");
  } else if (!side.config.text.includes(site)) {
    problems.push("the config does not hold the site config");
  }
  for (const file of side.files) if (!file.path.startsWith("/")) problems.push(`file path ${file.path} is not absolute`);
  const known = lateSlots(scenario);
  for (const text of stringsIn(side)) {
    for (const name of slotsIn(text)) if (!known.has(name)) problems.push(`unknown slot ⟪${name}⟫`);
    for (const token of scanVariables(text)) if (token.kind === "variable") problems.push(`unexpanded {{${token.name}}}`);
  }
  if (side.requests.length !== scenario.requests.length) problems.push(`${side.requests.length} requests planned, ${scenario.requests.length} in the scenario`);
  if (side.requests.map((r) => r.name).join() !== scenario.requests.map((r) => r.name).join()) problems.push("the requests are not the scenario's, in order");
  return [...new Set(problems)];
}

describe("planScenario over the whole catalogue, with the official layout's defaults (no engine)", async () => {
  const scenarios = await loadScenarios([CATALOGUE]);

  it("finds the catalogue", () => {
    expect(scenarios.length).toBeGreaterThan(50);
  });

  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))("plans %s on both sides", (_, scenario) => {
    const plan = planScenario(scenario, OFFLINE_SIDES);
    expect(plan.scenario).toEqual({ id: scenario.id, file: scenario.file, title: scenario.title });
    expect(plan.sides.map((side) => [side.side.id, side.server.version, side.server.family, side.server.facts])).toEqual([
      ["baseline", "2.2.34", "2.2", "defaults"],
      ["candidate", "2.4.68", "2.4", "defaults"],
    ]);
    expect(plan.sides.map((side) => ({ side: side.side.id, problems: sideProblems(scenario, side) }))).toEqual([
      { side: "baseline", problems: [] },
      { side: "candidate", problems: [] },
    ]);
    // Plain data: what `plan --format json` prints is the plan itself.
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });
});

describe("planScenario", () => {
  const TEXT = `id: plan-parts
title: Every part of a plan
clients: [{ name: allowed }]
backends:
  - { name: origin, kind: https-origin, certificate: valid }
server:
  tls: { certificate: valid, clientCa: true }
  modules: { "2.2": [ssl, proxy, proxy_http, disk_cache], "2.4": [ssl, proxy, proxy_http, disk_cache] }
  config: |
    Define LOGS \${APACHE_LOG_DIR}
    <Location /x>
        Require ip {{clients.allowed.ip}} {{clients.host.ip}}
    </Location>
    ProxyPass /p https://{{backends.origin.host}}:{{backends.origin.port}}/
    SSLCACertificateFile {{certs.dir}}/ca.crt
  files:
    htdocs/index.html: "docroot {{server.docroot}} {{{{greeting}} \${DOCUMENT_URI}"
    conf/secret: { content: "x", mode: "0600" }
  prepare:
    "2.4": ["htpasswd -bc {{server.root}}/conf/passwd alice secret"]
requests:
  - { name: page, path: "/x?from={{clients.allowed.ip}}", host: "{{backends.origin.host}}", headers: ["X-Via: {{network.gateway}}"], body: "b={{network.subnet}}", client: allowed }
  - { name: raw, raw: "GET / HTTP/1.0\\r\\nHost: {{backends.origin.ip}}\\r\\n\\r\\n", repeat: false }
  - { name: hash, exec: "cat {{server.config}}" }
`;
  const scenario = parseScenario(TEXT, "plan-parts.scenario.yaml");
  const plan: ScenarioPlan = planScenario(scenario, OFFLINE_SIDES);
  const [baseline, candidate] = plan.sides as [SidePlan, SidePlan];

  it("names the scenario's clients, backends and the server certificate once for all sides", () => {
    expect({ clients: plan.clients, backends: plan.backends.map((b) => b.name), serverCertificate: plan.serverCertificate }).toEqual({
      clients: ["allowed"],
      backends: ["origin"],
      serverCertificate: { kind: "valid", subject: null },
    });
  });

  it("fills paths, backend hosts and ports, leaves addresses as slots and passes Apache's ${VAR} through", () => {
    const site = candidate.config.text.slice(candidate.config.text.indexOf("# --- site ---"));
    expect(site).toBe(
      "# --- site ---\n" +
        "Define LOGS ${APACHE_LOG_DIR}\n" +
        "<Location /x>\n" +
        "    Require ip ⟪clients.allowed.ip⟫ ⟪network.gateway⟫\n" +
        "</Location>\n" +
        "ProxyPass /p https://origin:443/\n" +
        "SSLCACertificateFile /harness/certs/ca.crt\n",
    );
    expect(candidate.config.path).toBe("/usr/local/apache2/conf/httpd.conf");
  });

  it("stages the scenario's files under the server root, and the certificates the run generates", () => {
    expect(candidate.files).toEqual([
      { path: "/usr/local/apache2/htdocs/index.html", content: { text: "docroot /usr/local/apache2/htdocs {{greeting}} ${DOCUMENT_URI}" }, mode: 0o644 },
      { path: "/usr/local/apache2/conf/secret", content: { text: "x" }, mode: 0o600 },
      { path: "/harness/certs/ca.crt", content: { generated: "ca-certificate" } },
      { path: "/harness/certs/ca.crl", content: { generated: "ca-crl" } },
      { path: "/harness/certs/server.crt", content: { generated: "server-certificate" } },
      { path: "/harness/certs/server.key", content: { generated: "server-key" }, mode: 0o600 },
    ]);
    expect(candidate.listenTls).toBe(true);
  });

  it("stages no server certificate when the server does not listen with TLS", () => {
    const plain = planScenario(parseScenario("id: t\ntitle: T\n", "t.scenario.yaml"), OFFLINE_SIDES);
    expect(plain.serverCertificate).toBeNull();
    expect(plain.sides[0]?.files.map((f) => f.path)).toEqual(["/harness/certs/ca.crt", "/harness/certs/ca.crl"]);
    expect(plain.sides[0]?.listenTls).toBe(false);
  });

  it("gives each side its own family's prepare steps and modules, and names the modules its image lacks", () => {
    expect([baseline.prepare, candidate.prepare]).toEqual([[], ["htpasswd -bc /usr/local/apache2/conf/passwd alice secret"]]);
    expect([baseline.missingModules, candidate.missingModules]).toEqual([[], ["disk_cache"]]);
    expect(baseline.config.text).toContain("LoadModule disk_cache_module /usr/local/apache2/modules/mod_disk_cache.so");
  });

  it("fills the requests' variables and keeps their options", () => {
    expect(candidate.requests).toEqual([
      {
        name: "page",
        client: "allowed",
        mode: "http",
        method: "GET",
        path: "/x?from=⟪clients.allowed.ip⟫",
        port: null,
        hostHeader: "origin",
        headers: [["X-Via", "⟪network.gateway⟫"]],
        body: "b=⟪network.subnet⟫",
        auth: null,
        tls: false,
        clientCertificate: null,
        httpVersion: "1.1",
        raw: null,
        trickleMs: null,
        exec: null,
        keepAliveRequests: 1,
        repeat: true,
        timeoutMs: 10_000,
        loopback: null,
      },
      expect.objectContaining({ name: "raw", mode: "raw", raw: "GET / HTTP/1.0\r\nHost: ⟪backends.origin.ip⟫\r\n\r\n", repeat: false }),
      expect.objectContaining({ name: "hash", mode: "exec", exec: "cat /usr/local/apache2/conf/httpd.conf" }),
    ]);
    expect(baseline.requests).toEqual(candidate.requests);
  });

  it("starts no local client when no request comes from one", () => {
    expect([baseline.localClient, candidate.localClient]).toEqual([false, false]);
  });

  it("sends a local client's requests to its loopback address and fills its variables with the address", () => {
    const local = planScenario(
      parseScenario(
        `id: local
title: Local
server:
  config: "Require ip {{clients.localhost.ip}} {{clients.localhost6.ip}}"
requests:
  - { name: v4, path: "/s?from={{clients.localhost.ip}}", client: localhost }
  - { name: v6, raw: "GET / HTTP/1.0\\r\\n\\r\\n", client: localhost6, tls: true }
  - { name: outside, path: / }
`,
        "local.scenario.yaml",
      ),
      OFFLINE_SIDES,
    );
    expect(local.clients).toEqual([]);
    for (const side of local.sides) {
      expect(side.localClient).toBe(true);
      expect(side.config.text).toContain("\nRequire ip 127.0.0.1 ::1\n");
      expect(side.requests.map((r) => [r.name, r.client, r.loopback, r.path])).toEqual([
        ["v4", "localhost", "127.0.0.1", "/s?from=127.0.0.1"],
        ["v6", "localhost6", "::1", ""],
        ["outside", "host", null, "/"],
      ]);
    }
    expect(renderPlanText([local])).toContain("local client: a tools container in the server's network namespace, sending to 127.0.0.1 and ::1\n");
  });

  it("says where each side's facts come from", () => {
    expect(candidate.server).toEqual({ image: "httpd:2.4", version: "2.4.68", family: "2.4", profile: "official", facts: "defaults" });
  });

  it("plans only the sides it is given", () => {
    const candidateOnly = planScenario(scenario, [OFFLINE_SIDES[1]!]);
    expect(candidateOnly.sides.map((s) => s.side)).toEqual([CANDIDATE]);
    expect(candidateOnly.sides[0]).toEqual(candidate);
  });
});

describe("renderPlanText", () => {
  const scenario = parseScenario(
    `id: status-page
title: The status page
clients: [{ name: allowed }]
server:
  modules: [status]
  config: |
    <Location /server-status>
        SetHandler server-status
        Require ip {{clients.allowed.ip}}
    </Location>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: status, path: /server-status, client: allowed }
  - { name: hash, exec: "htpasswd -nb u p", repeat: false }
`,
    "status-page.scenario.yaml",
  );
  const text = renderPlanText([planScenario(scenario, OFFLINE_SIDES)]);

  it("prints the scenario, then each side's header saying where its facts come from", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("=== status-page: The status page (status-page.scenario.yaml)");
    expect(lines.filter((line) => line.startsWith("--- "))).toEqual([
      "--- baseline: httpd:2.2.34, httpd 2.2.34 (official layout; facts: official layout's defaults for this version (no inspection cached))",
      "--- candidate: httpd:2.4, httpd 2.4.68 (official layout; facts: official layout's defaults for this version (no inspection cached))",
    ]);
  });

  it("prints each side's config lines, its files, and its requests", () => {
    const candidate = text.slice(text.indexOf("--- candidate"));
    expect(candidate).toContain("/usr/local/apache2/conf/httpd.conf:\n  | # Generated by httpd-upgrade-harness: minimal base for httpd 2.4 (official layout)\n");
    expect(candidate).toContain("  | LoadModule status_module /usr/local/apache2/modules/mod_status.so\n");
    expect(candidate).toContain("  | <Location /server-status>\n  |     SetHandler server-status\n  |     Require ip ⟪clients.allowed.ip⟫\n  | </Location>\n");
    expect(candidate).toContain("files:\n  /usr/local/apache2/htdocs/index.html mode 0644: 6 bytes\n  /harness/certs/ca.crt: generated at run time (ca-certificate)\n");
    expect(candidate).toContain("requests:\n  status from allowed: GET /server-status\n  hash from host: exec: htpasswd -nb u p (sent once)\n");
  });

  it("prints only the sides asked for, and explains the slots", () => {
    const onlyBaseline = renderPlanText([planScenario(scenario, OFFLINE_SIDES)], { sides: ["baseline"] });
    expect(onlyBaseline).toContain("--- baseline:");
    expect(onlyBaseline).not.toContain("--- candidate:");
    expect(onlyBaseline.trimEnd().split("\n").at(-1)).toBe("⟪name⟫ marks an address the engine gives when the containers start.");
  });

  it("says facts come from an inspection when they do", () => {
    const inspected = { ...OFFLINE_SIDES[1]!, inspection: { ...OFFLINE_SIDES[1]!.inspection, source: "cache" as const } };
    expect(renderPlanText([planScenario(scenario, [inspected])])).toContain("(official layout; facts: from the last inspection (cached))");
  });
});

describe("planScenario of a configuration tree", async () => {
  const path = fileURLToPath(new URL("../../../configs/debian-ssl", import.meta.url));
  const tree = await loadTree(path);
  const ref = { at: { file: path, line: 1, column: 1 }, path, layout: null, defines: [], writtenFor: writtenFor(tree, []) };
  const scenario = treeScenario({ id: "debian-ssl", baseline: { tree, ref }, candidate: { tree, ref } });

  it("plans each side from the tree, asks the smoke requests on both and names the harness's certificate the tree's SSL stubs use", () => {
    const plan = planScenario(scenario, OFFLINE_SIDES, new Map([[path, tree]]));
    expect(plan.sides.map((side) => [side.server.family, side.config.path, side.tree?.mount])).toEqual([
      ["2.2", "/etc/apache2/apache2.conf", "/etc/apache2"],
      ["2.4", "/etc/apache2/apache2.conf", "/etc/apache2"],
    ]);
    expect(plan.serverCertificate).toEqual({ kind: "valid", subject: null });
    for (const side of plan.sides) expect(side.requests.map((r) => [r.port, r.tls])).toEqual(scenario.requests.map((r) => [r.port, r.tls]));
    expect(scenario.requests.map((r) => [r.port, r.tls])).toEqual([
      [80, false],
      [443, true],
    ]);
  });

  it("refuses, as the harness's own fault, a tree that was not loaded before planning", () => {
    expect(() => planScenario(scenario, OFFLINE_SIDES)).toThrow(expect.objectContaining({ code: "HARNESS_INTERNAL" }));
  });
});
