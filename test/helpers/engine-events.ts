// For tests that check what the engine did during some work: its events, recorded as they happen (the engine keeps
// only its last 256 for a later query, which other test files on the engine fill within seconds).
import { randomBytes } from "node:crypto";
import { connectEngine } from "../../harness/engine/engine.ts";

export interface EngineEvent {
  Type: string;
  Action: string;
  timeNano: number;
  Actor: { ID: string; Attributes: Record<string, string> };
}

/** Records the engine's events of `filters` from now on, until `stop`. The engine sends an event a moment after the
 * action, in the order the actions happened: `stop` makes and removes a fence (a volume of its own) and ends the
 * recording once the fence's event has come, so every event of the work before it is in, however slow the engine
 * is, without a fixed pause. */
export async function recordEngineEvents(filters: { type: string[]; event?: string[] }): Promise<{ stop: () => Promise<EngineEvent[]> }> {
  const engine = await connectEngine();
  // The fence's volume events besides the asked-for ones (dropped again in `stop`); as the engine's JSON.
  const asked = { type: [...filters.type, "volume"], ...(filters.event ? { event: [...new Set([...filters.event, "create"])] } : {}) };
  const stream = (await engine.docker.getEvents({ filters: JSON.stringify(asked) })) as NodeJS.ReadableStream & { destroy: () => void };
  const events: EngineEvent[] = [];
  let pending = "";
  let seen = (_event: EngineEvent): void => {};
  stream.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines.filter(Boolean)) {
      const event = JSON.parse(line) as EngineEvent;
      events.push(event);
      seen(event);
    }
  });
  return {
    stop: async () => {
      const fence = `harness-test-fence-${randomBytes(6).toString("hex")}`;
      const arrived = new Promise<void>((resolve) => {
        seen = (event) => {
          if (event.Type === "volume" && event.Actor.ID === fence) resolve();
        };
      });
      await engine.docker.createVolume({ Name: fence });
      try {
        await arrived;
      } finally {
        stream.destroy();
        await engine.docker.getVolume(fence).remove();
      }
      const requested = new Set(filters.type);
      return events.filter((event) => requested.has(event.Type) && (filters.event === undefined || filters.event.includes(event.Action)));
    },
  };
}
