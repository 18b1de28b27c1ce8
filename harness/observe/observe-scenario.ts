// Observes one scenario on every side: its network, client containers and backends first (their addresses
// bind the plan's late slots), then the sides' servers side by side, then everything is removed.
import { type StartedOrigin, startOrigin } from "../backends/origin-container.ts";
import type { OriginSeat } from "../backends/origin-seat.ts";
import { type StartedClientContainer, startClientContainer } from "../clients/client-container.ts";
import { type ClientNetworkPlan, planClientNetworks } from "../clients/client-networks.ts";
import { clientNetworkPrefix, createClientNetwork, createScenarioNetwork, type HarnessNetwork } from "../engine/network.ts";
import { isHarnessError } from "../errors.ts";
import { errorText } from "../source-stack.ts";
import { bindAll } from "../plan/late-binding.ts";
import { seatOnNetworks, type ServerSeat } from "../server/server-seat.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { SideObservation } from "./observation.ts";
import type { ObserveContext } from "./observe-context.ts";
import { observeSide } from "./observe-side.ts";
import { ScenarioLane } from "./scenario-lane.ts";
import type { SharedNetworkUse } from "./shared-client-networks.ts";
import type { ScenarioRun } from "./scenario-run.ts";

/** With a lane, the scenario runs on the lane's network (scenario-lane.ts); without one, on a network of its own. */
export async function observeScenario(scenario: Scenario, plan: ScenarioPlan, context: ObserveContext, lane?: ScenarioLane): Promise<ScenarioRun> {
  const started = Date.now();
  const run = await observePlan(scenario, plan, context, lane);
  // Measured after the cleanup, which is part of what a scenario costs.
  return { ...run, durationMs: Date.now() - started };
}

/** The values of a plan's late slots, from what the engine gave. */
export function slotValues(
  network: Pick<HarnessNetwork, "gateway" | "subnet">,
  clients: Iterable<Pick<StartedClientContainer, "name" | "ip" | "hostname">>,
  origins: Iterable<Pick<StartedOrigin, "name" | "ip">>,
): Record<string, string> {
  const values: Record<string, string> = { "network.gateway": network.gateway, "network.subnet": network.subnet };
  for (const client of clients) {
    values[`clients.${client.name}.ip`] = client.ip;
    values[`clients.${client.name}.hostname`] = client.hostname;
  }
  for (const origin of origins) values[`backends.${origin.name}.ip`] = origin.ip;
  return values;
}

function sharedOrder(placed: ClientNetworkPlan): string {
  return placed.shareable && placed.subnet ? `${placed.subnet.subnet} ${placed.subnet.gateway}` : "";
}

/** Like Promise.all, but a failure is thrown only once every start has ended: a client still starting when
 * another failed would otherwise be left on its network past the clean-up. */
async function allStarted<T>(starts: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

/** What each side is doing, for the message of a scenario stopped by its time limit. A step may say more when
 * asked (`detail`): what it waits for at that moment, such as another run holding a subnet. */
export class PendingSteps {
  readonly #steps = new Map<string, { what: string; since: number; detail?: (() => string | null) | undefined }>();

  constructor(private readonly now: () => number = Date.now) {}

  note(side: string, what: string, detail?: () => string | null): void {
    this.#steps.set(side, { what, since: this.now(), detail });
  }

  done(side: string): void {
    this.#steps.delete(side);
  }

  describe(): string {
    if (this.#steps.size === 0) return "setting up the network, clients and backends";
    return [...this.#steps]
      .map(([side, step]) => {
        const detail = step.detail?.() ?? null;
        return `${side}: ${step.what} (for ${((this.now() - step.since) / 1000).toFixed(0)} s)${detail === null ? "" : `, ${detail}`}`;
      })
      .join("; ");
  }
}

function waitedNote(waitedMs: number): string {
  return waitedMs >= 1000 ? ` (not counting ${(waitedMs / 1000).toFixed(0)} s in line for other runs' client subnets)` : "";
}

/** Whether servers on a lane's seats run in its hosts: the run's word, else HARNESS_REUSE (0 turns it off). */
export function reuseServers(context: Pick<ObserveContext, "reuseServers">, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return context.reuseServers ?? env.HARNESS_REUSE !== "0";
}

/** Pure: when a scenario that started at `started` passes its time limit, not counting `excludedMs` spent waiting for
 * other runs to let it have a client subnet, and never past the run's deadline. A scenario in line for a subnet
 * (engine/claim-queue.ts) is not stuck: the run before it in line uses it, and the claim gives up after its own
 * wait (10 minutes). Counted, three runs of a suite on one engine that probe from the same three subnets made
 * scenarios pass 300 s waiting their turns. */
export function scenarioDue(started: number, limitMs: number, excludedMs: number, runDeadline: number | null): number {
  const due = started + limitMs + excludedMs;
  return runDeadline === null ? due : Math.min(due, runDeadline);
}

/** The scenario's time limit: its own, or the run's default, cut to what is left of the run. */
export function scenarioTimeLimit(plan: Pick<ScenarioPlan, "timeLimitMs">, context: Pick<ObserveContext, "scenarioTimeLimitMs" | "runDeadline">, now = Date.now()): number {
  const own = plan.timeLimitMs ?? context.scenarioTimeLimitMs;
  return context.runDeadline === null ? own : Math.max(0, Math.min(own, context.runDeadline - now));
}

async function observePlan(scenario: Scenario, plan: ScenarioPlan, context: ObserveContext, lane: ScenarioLane | undefined): Promise<ScenarioRun> {
  const { scope } = context;
  let network: HarnessNetwork | undefined;
  const clientNetworks: HarnessNetwork[] = [];
  /** The client networks and clients this scenario made, removed at its end; shared ones are left instead. */
  const ownClientNetworks: HarnessNetwork[] = [];
  const shared: SharedNetworkUse[] = [];
  /** The lane's seats on this scenario's client networks, taken off them at its end (before the networks go). */
  const seatedOn: Array<{ seat: ServerSeat; network: string }> = [];
  const sharedClients = new Map<string, StartedClientContainer>();
  const clients = new Map<string, StartedClientContainer>();
  const origins: StartedOrigin[] = [];
  /** The lane's origin seats the backends took, given back (off the network) once the backends are gone. */
  const originSeats: OriginSeat[] = [];
  const observations: SideObservation[] = [];
  const pending = new PendingSteps();
  /** The scenario's joins of shared networks: the time they waited for other runs is not counted (scenarioDue). */
  const joins: Array<{ placed: ClientNetworkPlan; from: number; to: number | null }> = [];
  const waitedForOthers = (now: number): number =>
    context.sharedClients ? joins.reduce((sum, join) => sum + context.sharedClients!.waitedBetween(join.placed, join.from, join.to ?? now), 0) : 0;
  const stop = new AbortController();
  const result = (error: ScenarioRun["error"]): ScenarioRun => ({ scenario, plan, observations: [...observations], skipped: context.skipped, error, durationMs: 0 });

  const work = async (): Promise<void> => {
    // A stay on a network closed to new scenarios is left before joining: the network made after it waits for it.
    if (lane) await lane.leaveClosedStays();
    network = lane ? await lane.network() : await createScenarioNetwork(scope, scenario.id);
    const net = network;
    // Clients with fixed addresses or names get networks of their own first, and start before the servers join
    // those networks, so that no server takes an address a client asks for.
    const specs = scenario.clients.filter((client) => plan.clients.includes(client.name));
    const layout = planClientNetworks(specs, clientNetworkPrefix(scope.runId, scenario.id));
    const wanted = new Set(plan.clients);
    // Shared networks first, in one order for every scenario: a shared network closed to new scenarios waits for
    // those on it to finish, so joining in one order keeps two scenarios from waiting on each other.
    const sharedFirst = [...layout].sort((a, b) => Number(b.shareable) - Number(a.shareable) || sharedOrder(a).localeCompare(sharedOrder(b)));
    for (const placed of sharedFirst) {
      // A network of addresses only is the run's, shared with other scenarios asking for the same subnet.
      if (placed.shareable && context.sharedClients) {
        const runNetworks = context.sharedClients;
        // Named in the time limit's message with what it waits for: another run may hold the subnet.
        pending.note("clients", `joining the run's shared network of ${placed.subnet!.subnet}`, () => runNetworks.waiting(placed));
        const joining = { placed, from: Date.now(), to: null as number | null };
        joins.push(joining);
        const use = await runNetworks.join(placed, wanted);
        joining.to = Date.now();
        pending.done("clients");
        // Past the time limit, the clean-up below has run already: give it back at once, or it is held for good.
        if (stop.signal.aborted) {
          await use.leave();
          return;
        }
        shared.push(use);
        lane?.using(use.network.id);
        clientNetworks.push(use.network);
        for (const client of use.clients) sharedClients.set(client.name, client);
        continue;
      }
      const made = await createClientNetwork(scope, { name: placed.name, scenario: scenario.id, subnet: placed.subnet, subject: placed.subject, signal: stop.signal });
      clientNetworks.push(made);
      ownClientNetworks.push(made);
    }
    const placement = new Map(layout.flatMap((placed) => placed.clients.map((client) => [client.name, { network: placed.name, client }] as const)));
    const [startedClients, startedOrigins] = await Promise.all([
      allStarted(
        plan.clients.filter((name) => !sharedClients.has(name)).map((name) => {
          const own = placement.get(name);
          // Recorded as each starts, so that when another fails the finally below removes it before its network.
          return startClientContainer(scope, {
            scenario: scenario.id,
            network: own?.network ?? net.name,
            image: context.helperImages.tools,
            name,
            address: own?.client.address ?? null,
            containerName: own?.client.containerName ?? null,
            signal: stop.signal,
          }).then((client) => {
            clients.set(client.name, client);
            return client;
          });
        }),
      ),
      allStarted(
        plan.backends.map(async (backend) => {
          // On a lane, the backend takes one of its origin seats, under the backend's name for this scenario.
          const seat = lane ? await lane.originSeat(backend.name) : undefined;
          if (seat) originSeats.push(seat);
          const origin = await startOrigin(scope, backend, { scenario: scenario.id, network: net.name, images: context.helperImages, ca: context.certificates.ca, seat });
          origins.push(origin);
          return origin;
        }),
      ),
    ]);
    for (const client of sharedClients.values()) clients.set(client.name, client);
    const values = slotValues(net, [...startedClients, ...sharedClients.values()], startedOrigins);
    const serverCertificate = plan.serverCertificate ? await context.certificates.server(plan.serverCertificate.kind, plan.serverCertificate.subject) : null;
    // On a lane, servers take the lane's seats, unless one needs ports the seats do not publish. The seats stay on
    // the run's shared client networks (scenario-lane.ts) and join the scenario's own ones for its time; a side
    // with a local client takes a seat with IPv6 (for ::1), and the holder is its local client; one that sends
    // nothing from the host may take a seat that publishes no ports.
    const seatKinds = lane !== undefined ? ScenarioLane.seatsFor(plan) : null;
    const ownNetworks = ownClientNetworks.map((made) => made.name);
    const seats: ServerSeat[] = [];
    if (lane && seatKinds) {
      const reuse = reuseServers(context);
      const taken = await allStarted(seatKinds.map((kind, index) => lane.seat(kind.side, kind.ipv6, kind.fromHost, reuse ? context.sides[index]!.inspection : undefined)));
      await lane.stayOn(taken, shared);
      for (const seat of taken) {
        // Recorded before the connects, so that the clean-up takes the seat off every one again (an unclean end
        // removes the seats, and with them their connections).
        seatedOn.push(...ownNetworks.map((name) => ({ seat, network: name })));
        seats.push(await seatOnNetworks(seat, ownNetworks));
      }
    }
    const results = await Promise.all(
      plan.sides.map((sidePlan, index) =>
        observeSide({
          seat: seats[index],
          ...(lane && seats[index] && reuseServers(context) ? { hosts: lane } : {}),
          plan: bindAll(sidePlan, values),
          inspection: context.sides[index]!.inspection,
          scenario: scenario.id,
          context,
          network: net,
          clientNetworks: clientNetworks.map((n) => n.name),
          clients,
          serverCertificate,
          signal: stop.signal,
          onStep: (what) => pending.note(sidePlan.side.id, what),
        }),
      ),
    );
    observations.push(...results);
  };

  const limitMs = scenarioTimeLimit(plan, context);
  const clockStarted = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    // Looked at when the limit is due, and again for as long as the scenario waited for other runs meanwhile.
    const look = (): void => {
      const left = scenarioDue(clockStarted, limitMs, waitedForOthers(Date.now()), context.runDeadline) - Date.now();
      if (left <= 0) resolve("deadline");
      else timer = setTimeout(look, left);
    };
    timer = setTimeout(look, limitMs);
  });
  const running = work();
  // Once the deadline wins, the work is abandoned: its containers are removed below, which ends what hangs.
  running.catch(() => undefined);
  let clean = false;
  try {
    const first = await Promise.race([running.then(() => "done" as const), deadline]);
    if (first === "deadline") {
      stop.abort();
      return result({
        code: "HARNESS_DEADLINE",
        message: `The scenario passed its time limit of ${(limitMs / 1000).toFixed(0)} s${waitedNote(waitedForOthers(Date.now()))}; pending: ${pending.describe()}. Its containers were removed.`,
      });
    }
    clean = true;
    return result(null);
  } catch (error) {
    return result(
      isHarnessError(error)
        ? { code: error.code, message: error.hint ? `${error.message}\n${error.hint}` : error.message }
        : { code: "HARNESS_INTERNAL", message: errorText(error) },
    );
  } finally {
    clearTimeout(timer);
    stop.abort();
    await Promise.all([...clients.values()].filter((c) => !sharedClients.has(c.name)).map((c) => c.container.remove()));
    await Promise.all(origins.map((o) => o.container.remove()));
    if (lane) {
      // Off the client networks before they are removed or given back; a seat left after an unclean end is
      // removed with the lane's seats.
      if (clean) {
        await Promise.all(seatedOn.map(({ seat, network }) => seat.holder.disconnect(network)));
        await Promise.all(originSeats.map((seat) => lane.releaseOriginSeat(seat)));
      } else await lane.retire();
    } else if (network) await scope.removeNetwork(network.id);
    await Promise.all(ownClientNetworks.map((n) => scope.removeNetwork(n.id)));
    await Promise.all(shared.map((use) => use.leave()));
    lane?.scenarioEnded();
    if (lane && clean) await lane.leaveClosedStays();
  }
}
