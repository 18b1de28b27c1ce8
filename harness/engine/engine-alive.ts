import type { Engine } from "./engine.ts";

/** Whether the engine still answers a ping within `timeoutMs`: after a scenario fails, it tells a broken
 * scenario from an engine that went away mid-run. */
export async function engineAnswers(engine: Engine, timeoutMs = 5_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      engine.docker.ping().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
