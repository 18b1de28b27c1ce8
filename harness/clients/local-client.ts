// The local clients (`client: localhost`, `client: localhost6`): a tools container that joins the server
// container's network namespace, so its requests go to 127.0.0.1 or ::1 and come from there, as software on the
// server machine would send them, while the server image needs no HTTP client of its own. It sends with the
// same curl and raw client as the network clients (client-container.ts).
import { createHash } from "node:crypto";
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { SendingClient } from "./client-container.ts";

export interface LocalClientContext {
  scenario: string;
  /** The side whose server it joins ("baseline", "candidate"): each side's server has its own. */
  side: string;
  image: string;
  /** The server container whose network namespace it joins; the client must be removed before it. */
  server: HarnessContainer;
}

export async function startLocalClient(scope: RunScope, context: LocalClientContext): Promise<SendingClient> {
  const scenarioKey = createHash("sha256").update(context.scenario).digest("hex").slice(0, 8);
  const container = await HarnessContainer.create(scope, {
    image: context.image,
    name: `${scope.runId}-${scenarioKey}-${context.side}-local`,
    role: "client",
    scenario: context.scenario,
    agent: true,
    joinNetworkOf: context.server.id,
  });
  await container.start();
  return { container };
}

/** Starts the local client at its first use only, once (a scenario with no request from localhost or
 * localhost6 never makes one); `remove` removes it if it was started and is this client's own (not a seat's
 * holder, which stays with its seat). */
export class LazyLocalClient {
  #started: Promise<SendingClient> | null = null;

  constructor(
    private readonly start: () => Promise<SendingClient>,
    private readonly options: { owned: boolean } = { owned: true },
  ) {}

  get(): Promise<SendingClient> {
    this.#started ??= this.start();
    return this.#started;
  }

  async remove(): Promise<void> {
    if (this.#started === null || !this.options.owned) return;
    // A client that failed to start left nothing to remove here (the run scope removes what it created).
    const client = await this.#started.catch(() => null);
    await client?.container.remove();
  }
}
