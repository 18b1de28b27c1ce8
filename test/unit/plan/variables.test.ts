import { describe, expect, it } from "vitest";
import { slot, slotsIn } from "../../../harness/plan/late-binding.ts";
import { CERTS_DIR, scenarioVariables } from "../../../harness/plan/variables.ts";
import { DEBIAN_PROFILE, OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { scenarioVariableNames } from "../../../harness/scenario/scenario-variables.ts";

describe("scenarioVariables", () => {
  it("gives the server paths, the certificates directory and the local clients' loopback addresses, and slots for the network and the host client", () => {
    expect(scenarioVariables({ profile: OFFICIAL_PROFILE, clients: [], backends: [] })).toEqual({
      "server.root": "/usr/local/apache2",
      "server.docroot": "/usr/local/apache2/htdocs",
      "server.config": "/usr/local/apache2/conf/httpd.conf",
      "network.gateway": "⟪network.gateway⟫",
      "network.subnet": "⟪network.subnet⟫",
      "certs.dir": "/harness/certs",
      // Requests from the host arrive through the published port: the server sees the network's gateway.
      "clients.host.ip": "⟪network.gateway⟫",
      "clients.host.hostname": "⟪network.gateway⟫",
      // The local clients send from inside the server's network namespace: no slot, the address is known.
      "clients.localhost.ip": "127.0.0.1",
      "clients.localhost.hostname": "localhost",
      "clients.localhost6.ip": "::1",
      "clients.localhost6.hostname": "localhost",
    });
    expect(CERTS_DIR).toBe("/harness/certs");
  });

  it("adds slots for each client's address and host name and each backend's address; a backend's host and port are known", () => {
    const vars = scenarioVariables({
      profile: DEBIAN_PROFILE,
      clients: [{ name: "allowed" }, { name: "denied" }],
      backends: [
        { name: "backend", kind: "https-origin" },
        { name: "plain", kind: "http-origin" },
        { name: "app", kind: "scgi-origin" },
        { name: "target", kind: "forward-proxy-target" },
      ],
    });
    expect(vars).toEqual({
      "server.root": "/etc/apache2",
      "server.docroot": "/var/www/html",
      "server.config": "/etc/apache2/apache2.conf",
      "network.gateway": "⟪network.gateway⟫",
      "network.subnet": "⟪network.subnet⟫",
      "certs.dir": "/harness/certs",
      "clients.host.ip": "⟪network.gateway⟫",
      "clients.host.hostname": "⟪network.gateway⟫",
      "clients.localhost.ip": "127.0.0.1",
      "clients.localhost.hostname": "localhost",
      "clients.localhost6.ip": "::1",
      "clients.localhost6.hostname": "localhost",
      "clients.allowed.ip": "⟪clients.allowed.ip⟫",
      "clients.allowed.hostname": "⟪clients.allowed.hostname⟫",
      "clients.denied.ip": "⟪clients.denied.ip⟫",
      "clients.denied.hostname": "⟪clients.denied.hostname⟫",
      "backends.backend.host": "backend",
      "backends.backend.ip": "⟪backends.backend.ip⟫",
      "backends.backend.port": "443",
      "backends.plain.host": "plain",
      "backends.plain.ip": "⟪backends.plain.ip⟫",
      "backends.plain.port": "80",
      "backends.app.host": "app",
      "backends.app.ip": "⟪backends.app.ip⟫",
      "backends.app.port": "4000",
      "backends.target.host": "target",
      "backends.target.ip": "⟪backends.target.ip⟫",
      "backends.target.port": "80",
    });
  });

  it("names every address slot after the variable it stands for (the host client's after the gateway)", () => {
    const vars = scenarioVariables({ profile: OFFICIAL_PROFILE, clients: [{ name: "c" }], backends: [{ name: "b", kind: "http-origin" }] });
    const slotted = Object.entries(vars).filter(([, value]) => slotsIn(value).length > 0);
    expect(slotted.map(([name, value]) => [name, value === slot(name) || value === slot("network.gateway")])).toEqual(
      slotted.map(([name]) => [name, true]),
    );
    expect(slotted.map(([name]) => name)).toEqual([
      "network.gateway", "network.subnet", "clients.host.ip", "clients.host.hostname", "clients.c.ip", "clients.c.hostname", "backends.b.ip",
    ]);
  });
});

describe("the variable names the loader accepts and the values the plan gives", () => {
  it("are the same names: a variable the loader lets through always has a value, and no value goes unnamed", () => {
    const clients = [{ name: "allowed" }, { name: "denied" }];
    const backends = [{ name: "origin", kind: "https-origin" as const }, { name: "scgi", kind: "scgi-origin" as const }];
    const values = scenarioVariables({ profile: OFFICIAL_PROFILE, clients, backends });
    expect(Object.keys(values).sort()).toEqual(scenarioVariableNames({ clients, backends }).sort());
  });
});
