// The local clients against real servers: a status page open to 127.0.0.1 and ::1 only is denied to the host
// client and served to `client: localhost` and `client: localhost6`, which send from inside the server's own
// network namespace. What address the server saw is sent back in a header (mod_rewrite copies REMOTE_ADDR into
// the environment, mod_headers writes it out), so the test sees 127.0.0.1 and ::1 as httpd saw them.
//
// Both versions' syntax: 2.4's `Require ip` and `Require local`, and 2.2's Order/Deny/Allow (through
// access_compat on 2.4). With HTTPD_BASELINE_IMAGE set, the 2.2 scenario also runs on the real 2.2.
import { describe, expect, inject, it } from "vitest";
import type { RequestObservation, SideObservation } from "../../../harness/observe/observation.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

/** The part every scenario shares: the remote address echoed back, and the requests from each client. */
const ECHO_REMOTE = `
    RewriteEngine On
    RewriteRule ^ - [E=SEEN_FROM:%{REMOTE_ADDR}]
    Header always set X-Remote "%{SEEN_FROM}e"`;

const REQUESTS = `
requests:
  - { name: from-host, path: /server-status?auto }
  - { name: from-localhost, path: /server-status?auto, client: localhost, host: admin.test, headers: ["X-Probe: 1"] }
  - { name: from-localhost6, path: /server-status?auto, client: localhost6 }
  - { name: raw-localhost6, client: localhost6, raw: "GET /server-status?auto HTTP/1.0\\r\\n\\r\\n" }
  - { name: keep-alive-localhost, path: /server-status?auto, client: localhost, keepAlive: 2, expect: { both: { connectionReused: true } } }
`;

const REQUIRE_IP = `
id: localhost-require-ip
title: A status page open to 127.0.0.1 and ::1 only (2.4 Require ip, Require local)
server:
  modules: [status, authz_host, rewrite, headers]
  config: |${ECHO_REMOTE}
    <Location /server-status>
        SetHandler server-status
        Require ip 127.0.0.1 ::1
    </Location>
    <Location /local>
        Require local
    </Location>
  files: { htdocs/local/index.html: "local only\\n" }
${REQUESTS}
  - { name: require-local-host, path: /local/ }
  - { name: require-local-localhost6, path: /local/, client: localhost6 }
`;

const ALLOW_FROM = `
id: localhost-allow-from
title: A status page open to 127.0.0.1 and ::1 only (2.2 Order deny,allow / Allow from)
server:
  modules: { "2.2": [status, authz_host, rewrite, headers], "2.4": [status, authz_host, access_compat, rewrite, headers] }
  config: |${ECHO_REMOTE}
    <Location /server-status>
        SetHandler server-status
        Order deny,allow
        Deny from all
        Allow from 127.0.0.1 ::1
    </Location>
${REQUESTS}
`;

const TLS = `
id: localhost-tls
title: HTTPS (curl and raw) with SNI and a client certificate from ::1
server:
  modules: [ssl, authz_host, rewrite, headers]
  tls: { certificate: valid, clientCa: true }
  config: |
    <VirtualHost *:443>
        ServerName server
        SSLEngine on
        SSLCertificateFile {{certs.dir}}/server.crt
        SSLCertificateKeyFile {{certs.dir}}/server.key
        SSLCACertificateFile {{certs.dir}}/ca.crt
        SSLVerifyClient require
        # mod_rewrite's rules are not inherited by a virtual host: the echo goes inside it.${ECHO_REMOTE}
        <Location />
            Require ip {{clients.localhost.ip}} {{clients.localhost6.ip}}
        </Location>
    </VirtualHost>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: tls-host, path: /, tls: true, host: server, clientCertificate: valid }
  - { name: tls-localhost6, path: /, tls: true, host: server, clientCertificate: valid, client: localhost6 }
  - { name: tls-localhost, path: /, tls: true, client: localhost, clientCertificate: valid }
  - { name: raw-tls-localhost6, client: localhost6, raw: "GET / HTTP/1.0\\r\\nHost: server\\r\\n\\r\\n", tls: true, host: server, clientCertificate: valid }
  - { name: raw-tls-no-certificate, client: localhost, raw: "GET / HTTP/1.0\\r\\nHost: server\\r\\n\\r\\n", tls: true, host: server }
`;

function answer(side: SideObservation, name: string) {
  const request: RequestObservation | undefined = side.requests.find((r) => r.name === name);
  const outcome = request?.outcome;
  if (outcome?.kind !== "response") throw new Error(`${side.side.id} ${name}: expected a response, got ${JSON.stringify(outcome).slice(0, 400)}`);
  const header = (wanted: string) => outcome.headers.find(([header]) => header.toLowerCase() === wanted.toLowerCase())?.[1];
  return { status: outcome.status, remote: header("X-Remote"), body: outcome.body, connectionReused: outcome.connectionReused };
}

/** What every status-page scenario must show on a side. */
function expectStatusPageLocalOnly(side: SideObservation): void {
  expect(side.started, `${side.side.id} started`).toBe(true);
  const host = answer(side, "from-host");
  expect(host.status).toBe(403);
  // The host client comes through the published port: the server sees the network's gateway, not loopback.
  expect(host.remote).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  expect(host.remote).not.toBe("127.0.0.1");

  const v4 = answer(side, "from-localhost");
  expect([v4.status, v4.remote]).toEqual([200, "127.0.0.1"]);
  expect(v4.body).toContain("Scoreboard:");
  const v6 = answer(side, "from-localhost6");
  expect([v6.status, v6.remote]).toEqual([200, "::1"]);
  expect(answer(side, "raw-localhost6")).toMatchObject({ status: 200, remote: "::1" });
  expect(answer(side, "keep-alive-localhost")).toMatchObject({ status: 200, remote: "127.0.0.1", connectionReused: true });
}

function sides(run: ScenarioRun): SideObservation[] {
  expect(run.error ?? null).toBeNull();
  expect(run.observations.length).toBeGreaterThan(0);
  return run.observations;
}

describe("requests from localhost and localhost6", { timeout: 240_000 }, () => {
  it("reach a status page open to 127.0.0.1 and ::1 only, which the host client cannot (2.4 syntax and 2.2 syntax on 2.4)", async () => {
    const { runs, reports } = await runYamlScenarios([REQUIRE_IP, ALLOW_FROM]);
    for (const run of runs) for (const side of sides(run)) expectStatusPageLocalOnly(side);

    for (const side of sides(runs[0]!)) {
      expect(answer(side, "require-local-host").status).toBe(403);
      expect(answer(side, "require-local-localhost6")).toMatchObject({ status: 200, remote: "::1", body: "local only\n" });
    }
    // The scenarios' own expectations (connectionReused) are judged as met.
    for (const report of reports) expect(report.expectations.candidate).toMatchObject({ ok: true });
  });

  it("send HTTPS, from curl and raw, with SNI and a client certificate to ::1 and 127.0.0.1", async () => {
    const { runs } = await runYamlScenarios([TLS]);
    for (const side of sides(runs[0]!)) {
      expect(answer(side, "tls-host").status).toBe(403);
      expect(answer(side, "tls-localhost6")).toMatchObject({ status: 200, remote: "::1", body: "hello\n" });
      expect(answer(side, "tls-localhost")).toMatchObject({ status: 200, remote: "127.0.0.1" });
      expect(answer(side, "raw-tls-localhost6")).toMatchObject({ status: 200, remote: "::1", body: "hello\n" });
      // SSLVerifyClient require: without a certificate the TLS connection fails, it does not answer in plain HTTP.
      const refused = side.requests.find((r) => r.name === "raw-tls-no-certificate")?.outcome;
      expect(refused).toMatchObject({ kind: "transport-error" });
    }
  });

  it("reach the status page on httpd 2.2 with Order deny,allow / Allow from 127.0.0.1 ::1", async (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    const { runs } = await runYamlScenarios([ALLOW_FROM], { baseline: images.baseline });
    const [baseline, candidate] = sides(runs[0]!);
    expect(baseline?.server.version.family).toBe("2.2");
    expectStatusPageLocalOnly(baseline!);
    expectStatusPageLocalOnly(candidate!);
  });
});
