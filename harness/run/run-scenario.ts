// Runs one scenario on both sides: its network, client containers and backends first (the servers' config
// names their addresses), then the two servers side by side, then everything is removed.
import { issueServerCertificate } from "../backends/certificate-factory.ts";
import { type StartedOrigin, startOrigin } from "../backends/origin-container.ts";
import { type StartedClientContainer, startClientContainer } from "../clients/client-container.ts";
import { createScenarioNetwork, type HarnessNetwork } from "../engine/network.ts";
import { isHarnessError } from "../errors.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { SIDES, type Side, type SideObservation } from "./observation.ts";
import type { RunContext } from "./run-context.ts";
import { runSide } from "./run-side.ts";
import type { ScenarioRun } from "./scenario-run.ts";

export async function runScenario(scenario: Scenario, context: RunContext): Promise<ScenarioRun> {
  const started = Date.now();
  const run = await runScenarioUntimed(scenario, context);
  // Measured after the cleanup, which is part of what a scenario costs.
  return { ...run, durationMs: Date.now() - started };
}

async function runScenarioUntimed(scenario: Scenario, context: RunContext): Promise<ScenarioRun> {
  const { scope } = context;
  let network: HarnessNetwork | undefined;
  const clients = new Map<string, StartedClientContainer>();
  const origins: StartedOrigin[] = [];
  const observations: Partial<Record<Side, SideObservation>> = {};
  try {
    network = await createScenarioNetwork(scope, scenario.id);
    const net = network;
    const [startedClients, startedOrigins] = await Promise.all([
      Promise.all(
        scenario.clients.map((client) =>
          startClientContainer(scope, { scenario: scenario.id, network: net.name, image: context.helperImages.tools, name: client.name }),
        ),
      ),
      Promise.all(
        scenario.backends.map((backend) =>
          startOrigin(scope, backend, { scenario: scenario.id, network: net.name, images: context.helperImages, ca: context.certificates.ca }),
        ),
      ),
    ]);
    for (const client of startedClients) clients.set(client.name, client);
    origins.push(...startedOrigins);
    const serverCertificate = scenario.server.tls
      ? await issueServerCertificate(context.certificates.ca, { kind: scenario.server.tls.certificate, dnsName: "server", ipAddresses: [] })
      : null;
    const sides = SIDES.filter((side) => context.sides[side] !== undefined);
    const results = await Promise.all(
      sides.map((side) =>
        runSide({
          side,
          inspection: context.sides[side]!,
          scenario,
          context,
          network: net,
          clients,
          backends: origins.map((o) => ({ name: o.name, host: o.host, ip: o.ip, port: o.port })),
          serverCertificate,
        }),
      ),
    );
    sides.forEach((side, index) => {
      observations[side] = results[index]!;
    });
    return { scenario, observations, skipped: context.skipped, error: null, durationMs: 0 };
  } catch (error) {
    return {
      scenario,
      observations,
      skipped: context.skipped,
      error: isHarnessError(error)
        ? { code: error.code, message: error.hint ? `${error.message}\n${error.hint}` : error.message }
        : { code: "HARNESS_INTERNAL", message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      durationMs: 0,
    };
  } finally {
    await Promise.all([...clients.values()].map((c) => c.container.remove()));
    await Promise.all(origins.map((o) => o.container.remove()));
    if (network) await scope.removeNetwork(network.id);
  }
}
