// Clients at the very addresses and names a config names: a client at 10.77.1.5 passes `Require ip 10.77.1.5`,
// one named under .probe.test passes `Require host .probe.test` (a double-reverse lookup through Docker's DNS),
// an outsider on the scenario network gets 403; the same with 2.2's Order/Deny/Allow on the real 2.2 when
// HTTPD_BASELINE_IMAGE is set; an IPv6 client at 2001:db8:77::5 when the engine has IPv6 (else the typed error
// naming it); and nothing of the run's is left on the engine afterwards. The address the server saw is echoed
// in a header (mod_rewrite copies REMOTE_ADDR and REMOTE_HOST into the environment, mod_headers writes them).
import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { LABEL_SCENARIO } from "../../../harness/engine/labels.ts";
import type { RequestObservation, SideObservation } from "../../../harness/observe/observation.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

const ECHO = `
    HostnameLookups Double
    RewriteEngine On
    RewriteRule ^ - [E=SEEN_FROM:%{REMOTE_ADDR},E=SEEN_AS:%{REMOTE_HOST}]
    Header always set X-Remote "%{SEEN_FROM}e"
    Header always set X-Remote-Host "%{SEEN_AS}e"`;

const CLIENTS = `
clients:
  - { name: office, address: 10.77.1.5 }
  - { name: partner, domain: .probe.test }
  - { name: outsider }
requests:
  - { name: from-office, client: office, path: / }
  - { name: from-partner, client: partner, path: / }
  - { name: from-outsider, client: outsider, path: / }
  - { name: from-host, path: / }
`;

const REQUIRE = `
id: fixed-clients-require
title: Require ip and Require host reach clients at the configured address and domain
server:
  modules: [authz_host, rewrite, headers]
  config: |${ECHO}
    <Directory "{{server.docroot}}">
        <RequireAny>
            Require ip 10.77.1.5
            Require host .probe.test
        </RequireAny>
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
${CLIENTS}
`;

const ALLOW_FROM = `
id: fixed-clients-allow-from
title: Allow from an address and a domain reaches clients at the configured address and domain
server:
  modules: { "2.2": [authz_host, rewrite, headers], "2.4": [authz_host, access_compat, rewrite, headers] }
  config: |${ECHO}
    <Directory "{{server.docroot}}">
        Order deny,allow
        Deny from all
        Allow from 10.77.1.5 .probe.test
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
${CLIENTS}
`;

const IPV6 = `
id: fixed-clients-ipv6
title: Require ip and Require host reach IPv6 clients at the configured address and domain
clients: [{ name: v6, address: "2001:db8:77::5" }, { name: v6named, address: "2001:db8:77::6", domain: .probe6.test }, { name: outsider }]
server:
  modules: [authz_host, rewrite, headers]
  config: |${ECHO}
    <Directory "{{server.docroot}}">
        Require ip 2001:db8:77::5
    </Directory>
    <Directory "{{server.docroot}}/named">
        Require host .probe6.test
    </Directory>
  files: { htdocs/index.html: "hello\\n", htdocs/named/index.html: "named\\n" }
requests:
  - { name: from-v6, client: v6, path: / }
  - { name: from-outsider, client: outsider, path: / }
  - { name: named-from-v6named, client: v6named, path: /named/ }
  - { name: named-from-outsider, client: outsider, path: /named/ }
`;

/** A full name: container www on a network named example.com, both global on the engine. Two scenarios of one
 * run want the same name and subnet: the second waits for the first (engine/claim.ts) instead of clashing. */
const fullName = (id: string) => `
id: ${id}
title: Require host with a full name reaches the client of that name
clients: [{ name: www, domain: www.example.com, address: 10.77.2.9 }, { name: outsider }]
server:
  modules: [authz_host, rewrite, headers]
  config: |${ECHO}
    <Directory "{{server.docroot}}">
        Require host www.example.com
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: from-www, client: www, path: / }
  - { name: from-outsider, client: outsider, path: / }
  - { name: reverse, exec: "getent hosts 10.77.2.9" }
  - { name: forward, exec: "getent hosts www.example.com" }
`;

function answer(side: SideObservation, name: string) {
  const request: RequestObservation | undefined = side.requests.find((r) => r.name === name);
  const outcome = request?.outcome;
  if (outcome?.kind !== "response") throw new Error(`${side.side.id} ${name}: expected a response, got ${JSON.stringify(outcome).slice(0, 400)}`);
  const header = (wanted: string) => outcome.headers.find(([header]) => header.toLowerCase() === wanted.toLowerCase())?.[1];
  return { status: outcome.status, remote: header("X-Remote"), host: header("X-Remote-Host") };
}

function sides(run: ScenarioRun): SideObservation[] {
  expect(run.error ?? null).toBeNull();
  expect(run.observations.length).toBeGreaterThan(0);
  return run.observations;
}

function expectAddressAndDomainAllowed(side: SideObservation): void {
  expect(side.started, `${side.side.id} started`).toBe(true);
  expect(answer(side, "from-office")).toMatchObject({ status: 200, remote: "10.77.1.5" });
  const partner = answer(side, "from-partner");
  expect(partner.status).toBe(200);
  expect(partner.host).toMatch(/\.probe\.test$/);
  expect(answer(side, "from-outsider").status).toBe(403);
  expect(answer(side, "from-host").status).toBe(403);
}

/** No container or network of these scenarios is left (they carry the scenario's id in a label), and no network
 * holds their subnets. */
async function expectNothingLeft(): Promise<void> {
  const engine = await connectEngine();
  const ours = (labels: Record<string, string> | undefined) => (labels?.[LABEL_SCENARIO] ?? "").startsWith("fixed-clients");
  const filters = { label: [LABEL_SCENARIO] };
  const containers = await engine.docker.listContainers({ all: true, filters });
  expect(containers.filter((c) => ours(c.Labels)).map((c) => c.Names[0])).toEqual([]);
  const networks = await engine.docker.listNetworks();
  expect(networks.filter((n) => ours(n.Labels) || /probe\.test$|^example\.com$/.test(n.Name)).map((n) => n.Name)).toEqual([]);
  const subnets = networks.flatMap((n) => (n.IPAM?.Config ?? []).map((c) => c.Subnet ?? ""));
  expect(subnets.filter((subnet) => /^10\.77\.[0-9]+\.0\/24$/.test(subnet) || subnet === "2001:db8:77::/64")).toEqual([]);
}

describe("clients at fixed addresses and names", { timeout: 300_000 }, () => {
  it("2.4: Require ip 10.77.1.5 and Require host .probe.test admit those clients and refuse an outsider", async () => {
    const { runs } = await runYamlScenarios([REQUIRE]);
    for (const side of sides(runs[0]!)) expectAddressAndDomainAllowed(side);
    await expectNothingLeft();
  });

  it("2.2: Order deny,allow / Deny from all / Allow from 10.77.1.5 .probe.test does the same", async (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image (HTTPD_BASELINE_IMAGE)");
    const { runs } = await runYamlScenarios([ALLOW_FROM], { baseline: images.baseline });
    const [baseline, candidate] = sides(runs[0]!);
    expect(baseline?.server.version.family).toBe("2.2");
    expectAddressAndDomainAllowed(baseline!);
    expectAddressAndDomainAllowed(candidate!);
    await expectNothingLeft();
  });

  it("a full name www.example.com resolves both ways inside the server, and two scenarios wanting it take turns", async () => {
    const { runs } = await runYamlScenarios([fullName("fixed-clients-full-name-a"), fullName("fixed-clients-full-name-b")]);
    for (const run of runs) {
      for (const side of sides(run)) {
        expect(answer(side, "from-www")).toMatchObject({ status: 200, remote: "10.77.2.9", host: "www.example.com" });
        expect(answer(side, "from-outsider").status).toBe(403);
        const exec = (name: string) => side.requests.find((r) => r.name === name)?.outcome;
        expect(exec("reverse")).toMatchObject({ kind: "exec", exitCode: 0 });
        expect(exec("reverse")).toMatchObject({ stdout: expect.stringMatching(/^10\.77\.2\.9\s+www\.example\.com\b/) });
        expect(exec("forward")).toMatchObject({ kind: "exec", exitCode: 0, stdout: expect.stringMatching(/^10\.77\.2\.9\s/) });
      }
    }
    await expectNothingLeft();
    const engine = await connectEngine();
    const networks = await engine.docker.listNetworks({ filters: { name: ["example.com"] } });
    expect(networks.map((n) => n.Name).filter((name) => name === "example.com")).toEqual([]);
  });

  it("two scenarios asking for one address at once share the run's client there, and their servers stay in the subnet's upper half", async () => {
    const shared = (id: string): string => `
id: ${id}
title: a client at 10.77.4.5 that another scenario of the run asks for too
server:
  modules: [authz_host, rewrite, headers]
  config: |${ECHO}
    RewriteRule ^ - [E=SERVER_AT:%{SERVER_ADDR}]
    Header always set X-Server "%{SERVER_AT}e"
    <Directory "{{server.docroot}}">
        Require ip 10.77.4.5
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
clients: [{ name: office, address: 10.77.4.5 }]
requests:
  # Holds the scenario on the network long enough for the other to join it.
  - { name: hold, exec: "sleep 2" }
  - { name: from-office, client: office, path: / }
`;
    const { runs } = await runYamlScenarios([shared("fixed-clients-shared-a"), shared("fixed-clients-shared-b")]);
    const names = new Set<string>();
    for (const run of runs) {
      for (const side of sides(run)) {
        const office = answer(side, "from-office");
        expect(office).toMatchObject({ status: 200, remote: "10.77.4.5" });
        names.add(office.host ?? "");
        const request = side.requests.find((r) => r.name === "from-office")!.outcome;
        const server = request.kind === "response" ? request.headers.find(([h]) => h.toLowerCase() === "x-server")?.[1] : undefined;
        expect(Number(/^10\.77\.4\.(\d+)$/.exec(server ?? "")?.[1]), `server at ${server}`).toBeGreaterThanOrEqual(128);
      }
    }
    // One client container answered for both scenarios: the server's reverse lookup of 10.77.4.5 found one name.
    expect([...names]).toHaveLength(1);
    expect([...names][0]).toMatch(/^run-.+\.harness-/);
    await expectNothingLeft();
  });

  it("two runs on one engine asking for one address take turns on its subnet, each with a client of its own", async () => {
    const wanting = (id: string): string => `
id: ${id}
title: a client at 10.77.5.5 that a scenario of another run on the same engine asks for too
server:
  modules: [authz_host, rewrite, headers]
  config: |${ECHO}
    <Directory "{{server.docroot}}">
        Require ip 10.77.5.5
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
clients: [{ name: office, address: 10.77.5.5 }]
requests:
  # Holds the subnet long enough for the other run to find it taken.
  - { name: hold, exec: "sleep 2" }
  - { name: from-office, client: office, path: / }
`;
    // Two harness runs at once, as two CI jobs on one engine: an engine holds one network per subnet, so one run
    // waits in its claim until the other's shared network there is gone.
    const [first, second] = await Promise.all([
      runYamlScenarios([wanting("fixed-clients-two-runs-a")]),
      runYamlScenarios([wanting("fixed-clients-two-runs-b")]),
    ]);
    const names = new Set<string>();
    for (const { runs } of [first, second]) {
      for (const side of sides(runs[0]!)) {
        const office = answer(side, "from-office");
        expect(office).toMatchObject({ status: 200, remote: "10.77.5.5" });
        names.add((office.host ?? "").replace(/^run-([^-]+-[^-]+)-.*$/, "$1"));
      }
    }
    // Each run's client answered its own scenario: two runs' names, not one shared across runs.
    expect(names.size).toBe(2);
    await expectNothingLeft();
  });

  it("a subnet that a network of someone else's holds is HARNESS_CLIENT_ADDRESS naming the client and the address", async () => {
    const engine = await connectEngine();
    const foreign = await engine.docker.createNetwork({ Name: `not-harness-${process.pid}`, Driver: "bridge", IPAM: { Config: [{ Subnet: "10.77.3.0/24" }] } });
    try {
      const { runs } = await runYamlScenarios([
        `
id: fixed-clients-taken-subnet
title: a client whose subnet is taken
clients: [{ name: office, address: 10.77.3.5 }]
requests: [{ name: from-office, client: office, path: / }]
`,
      ]);
      expect(runs[0]!.error?.code).toBe("HARNESS_CLIENT_ADDRESS");
      expect(runs[0]!.error?.message).toContain("client office at 10.77.3.5");
      expect(runs[0]!.error?.message).toContain(`not-harness-${process.pid}`);
    } finally {
      await foreign.remove();
    }
    await expectNothingLeft();
  });

  it("IPv6: a client at 2001:db8:77::5 passes Require ip, one named under .probe6.test passes Require host, or the run names it in HARNESS_CLIENT_ADDRESS", async () => {
    const { runs } = await runYamlScenarios([IPV6]);
    const run = runs[0]!;
    if (run.error !== null) {
      // An engine without IPv6: the typed error, naming the client and its address.
      expect(run.error.code).toBe("HARNESS_CLIENT_ADDRESS");
      expect(run.error.message).toContain("client v6 at 2001:db8:77::5");
    } else {
      for (const side of sides(run)) {
        expect(answer(side, "from-v6")).toMatchObject({ status: 200, remote: "2001:db8:77::5" });
        expect(answer(side, "from-outsider").status).toBe(403);
        // Docker's DNS answers ip6.arpa too: an IPv6 client's name is found both ways.
        expect(answer(side, "named-from-v6named")).toMatchObject({ status: 200, remote: "2001:db8:77::6", host: expect.stringMatching(/\.probe6\.test$/) });
        expect(answer(side, "named-from-outsider").status).toBe(403);
      }
    }
    await expectNothingLeft();
  });
});
