// Pure: the ${...} variables a scenario's config, files and requests may use, for one side.
import type { HttpdProfile } from "../server/httpd-profile.ts";

export const CERTS_DIR = "/harness/certs";

export interface VariableSources {
  profile: HttpdProfile;
  network: { gateway: string; subnet: string };
  clients: Array<{ name: string; ip: string; hostname: string }>;
  backends: Array<{ name: string; host: string; ip: string; port: number }>;
}

export function scenarioVariables(sources: VariableSources): Record<string, string> {
  const vars: Record<string, string> = {
    "server.root": sources.profile.serverRoot,
    "server.docroot": sources.profile.docRoot,
    "server.config": sources.profile.configFile,
    "network.gateway": sources.network.gateway,
    "network.subnet": sources.network.subnet,
    "certs.dir": CERTS_DIR,
    // Requests from the host arrive through the published port, so the server sees the network's gateway.
    "clients.host.ip": sources.network.gateway,
    "clients.host.hostname": sources.network.gateway,
  };
  for (const client of sources.clients) {
    vars[`clients.${client.name}.ip`] = client.ip;
    vars[`clients.${client.name}.hostname`] = client.hostname;
  }
  for (const backend of sources.backends) {
    vars[`backends.${backend.name}.host`] = backend.host;
    vars[`backends.${backend.name}.ip`] = backend.ip;
    vars[`backends.${backend.name}.port`] = String(backend.port);
  }
  return vars;
}
