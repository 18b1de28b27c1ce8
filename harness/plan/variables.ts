// Pure: the {{...}} variables a scenario's config, files and requests may use, for one side. Paths and names
// are known when planning; addresses are given by the engine only when the containers exist, so a plan holds
// them as late-bound slots (late-binding.ts) that the observe stage fills.
import { backendPort } from "../backends/backend-ports.ts";
import { LOCAL_CLIENT_HOSTNAME, LOCAL_CLIENTS } from "../scenario/reserved-clients.ts";
import type { BackendSpec, ClientSpec } from "../scenario/scenario.ts";
import type { HttpdProfile } from "../server/httpd-profile.ts";
import { slot } from "./late-binding.ts";

export const CERTS_DIR = "/harness/certs";

export interface VariableSources {
  profile: HttpdProfile;
  clients: ReadonlyArray<Pick<ClientSpec, "name">>;
  backends: ReadonlyArray<Pick<BackendSpec, "name" | "kind">>;
}

export function scenarioVariables(sources: VariableSources): Record<string, string> {
  const vars: Record<string, string> = {
    "server.root": sources.profile.serverRoot,
    "server.docroot": sources.profile.docRoot,
    "server.config": sources.profile.configFile,
    "network.gateway": slot("network.gateway"),
    "network.subnet": slot("network.subnet"),
    "certs.dir": CERTS_DIR,
    // Requests from the host arrive through the published port, so the server sees the network's gateway.
    "clients.host.ip": slot("network.gateway"),
    "clients.host.hostname": slot("network.gateway"),
  };
  // Known now: the local clients send from the server's own loopback addresses.
  for (const [name, address] of Object.entries(LOCAL_CLIENTS)) {
    vars[`clients.${name}.ip`] = address;
    vars[`clients.${name}.hostname`] = LOCAL_CLIENT_HOSTNAME;
  }
  for (const client of sources.clients) {
    vars[`clients.${client.name}.ip`] = slot(`clients.${client.name}.ip`);
    vars[`clients.${client.name}.hostname`] = slot(`clients.${client.name}.hostname`);
  }
  for (const backend of sources.backends) {
    vars[`backends.${backend.name}.host`] = backend.name;
    vars[`backends.${backend.name}.ip`] = slot(`backends.${backend.name}.ip`);
    vars[`backends.${backend.name}.port`] = String(backendPort(backend.kind));
  }
  return vars;
}
