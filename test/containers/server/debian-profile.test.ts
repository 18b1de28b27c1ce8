// The second profile: Debian's binary apache2 package (/etc/apache2, envvars, modules compiled in).
import { describe, expect, inject, it } from "vitest";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

const minimal = `
id: debian-minimal
title: the server-status case on Debian's layout, minimal base
seed: [A6]
server:
  modules: [authz_host, access_compat, status]
  config: |
    <Directory "{{server.docroot}}">
        Order deny,allow
        Deny from all
    </Directory>
    <Location /server-status>
        SetHandler server-status
        Require ip {{clients.host.ip}}
    </Location>
requests:
  - name: server-status
    path: /server-status
    expect: { "2.4": { status: 403, errorLog: [{ code: AH01797, message: "client denied by server configuration: /var/www/html/server-status" }] } }
`;

const stock = `
id: debian-stock
title: Debian's own apache2.conf with a site appended
seed: [B4]
server:
  base: stock
  config: |
    ServerName localhost
requests:
  - { name: default-page, path: /, expect: { "2.4": { status: 200, body: "Apache2 Debian Default Page" } } }
`;

describe("the Debian apache2 profile", { timeout: 240_000 }, () => {
  it("runs a scenario on Debian's layout: modules it compiles in are not loaded, nor reported missing", async () => {
    const { runs, reports } = await runYamlScenarios([minimal], { candidate: inject("images").debian });
    const report = reports[0]!;
    expect(report.error).toBeNull();
    expect(report.servers.candidate).toMatchObject({ family: "2.4", started: true, missingModules: [] });
    expect(runs[0]!.observations.find((o) => o.side.id === "candidate")!.server.profile).toBe("debian");
    expect(report.servers.candidate!.renderedConfig).toMatch(/^ServerRoot "\/etc\/apache2"$/m);
    expect(report.servers.candidate!.renderedConfig).not.toMatch(/LoadModule unixd_module/);
    expect(report.expectations.candidate.failures).toEqual([]);
  });

  it("starts Debian's own apache2.conf with the site appended", async () => {
    const { reports } = await runYamlScenarios([stock], { candidate: inject("images").debian });
    const report = reports[0]!;
    expect(report.error).toBeNull();
    expect(report.configTest.candidate).toMatchObject({ ok: true });
    expect(report.expectations.candidate.failures).toEqual([]);
  });
});
