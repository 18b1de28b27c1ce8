import { describe, expect, it } from "vitest";
import { DEBIAN_PROFILE, OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { CERTS_DIR, scenarioVariables } from "../../../harness/run/variables.ts";

// The recording's user-defined network for case c: gateway 172.18.0.1, backend at 172.18.0.2.
const NETWORK = { gateway: "172.18.0.1", subnet: "172.18.0.0/16" };

describe("scenarioVariables", () => {
  it("gives the server paths, the network, the certificates directory and the host client as the gateway", () => {
    expect(scenarioVariables({ profile: OFFICIAL_PROFILE, network: NETWORK, clients: [], backends: [] })).toEqual({
      "server.root": "/usr/local/apache2",
      "server.docroot": "/usr/local/apache2/htdocs",
      "server.config": "/usr/local/apache2/conf/httpd.conf",
      "network.gateway": "172.18.0.1",
      "network.subnet": "172.18.0.0/16",
      "certs.dir": "/harness/certs",
      "clients.host.ip": "172.18.0.1",
      "clients.host.hostname": "172.18.0.1",
    });
    expect(CERTS_DIR).toBe("/harness/certs");
  });

  it("adds each client's address and host name and each backend's host, address and port", () => {
    const vars = scenarioVariables({
      profile: DEBIAN_PROFILE,
      network: NETWORK,
      clients: [
        { name: "allowed", ip: "172.18.0.3", hostname: "allowed.test" },
        { name: "denied", ip: "172.18.0.4", hostname: "denied.test" },
      ],
      backends: [{ name: "backend", host: "backend", ip: "172.18.0.2", port: 443 }],
    });
    expect(vars).toEqual({
      "server.root": "/etc/apache2",
      "server.docroot": "/var/www/html",
      "server.config": "/etc/apache2/apache2.conf",
      "network.gateway": "172.18.0.1",
      "network.subnet": "172.18.0.0/16",
      "certs.dir": "/harness/certs",
      "clients.host.ip": "172.18.0.1",
      "clients.host.hostname": "172.18.0.1",
      "clients.allowed.ip": "172.18.0.3",
      "clients.allowed.hostname": "allowed.test",
      "clients.denied.ip": "172.18.0.4",
      "clients.denied.hostname": "denied.test",
      "backends.backend.host": "backend",
      "backends.backend.ip": "172.18.0.2",
      "backends.backend.port": "443",
    });
  });
});
