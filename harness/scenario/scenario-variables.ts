// The {{...}} variables a scenario may use: fixed ones for the server and the network, and one set per declared
// client and backend. The runner supplies a value for each name listed here (see docs/scenario-format.md).
import { LOCAL_CLIENTS } from "./reserved-clients.ts";
import type { BackendSpec, ClientSpec } from "./scenario.ts";

export const FIXED_VARIABLES: readonly string[] = [
  "server.root",
  "server.docroot",
  "server.config",
  "network.gateway",
  "network.subnet",
  "certs.dir",
];

/** Every variable name the scenario may use. `{{clients.host.ip}}` and `{{clients.host.hostname}}` (the network's
 * gateway: what the server sees for requests from the host) are always there, and so are those of the local
 * clients (`{{clients.localhost.ip}}` is 127.0.0.1, `{{clients.localhost6.ip}}` ::1). */
export function scenarioVariableNames(scenario: {
  clients: ReadonlyArray<Pick<ClientSpec, "name">>;
  backends: ReadonlyArray<Pick<BackendSpec, "name">>;
}): string[] {
  const names = [...FIXED_VARIABLES, "clients.host.ip", "clients.host.hostname"];
  for (const name of Object.keys(LOCAL_CLIENTS)) names.push(`clients.${name}.ip`, `clients.${name}.hostname`);
  for (const client of scenario.clients) names.push(`clients.${client.name}.ip`, `clients.${client.name}.hostname`);
  for (const backend of scenario.backends) {
    names.push(`backends.${backend.name}.host`, `backends.${backend.name}.ip`, `backends.${backend.name}.port`);
  }
  return names;
}
