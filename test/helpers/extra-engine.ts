// For tests that spread a run over several engines: a second local Docker engine beside the first, started by
// scripts/ensure-extra-engine.sh (a dockerd in a network namespace of its own, reached over tcp:// like a remote
// engine). Needs root on Debian, as the script does.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Engine, openEngine } from "../../harness/engine/engine.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/ensure-extra-engine.sh", import.meta.url));
const run = promisify(execFile);

/** Why this machine cannot start one, or null when it can. */
export function extraEngineUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "a second engine needs root (scripts/ensure-extra-engine.sh makes a network namespace)";
  try {
    readFileSync("/etc/debian_version");
  } catch {
    return "scripts/ensure-extra-engine.sh starts Debian's dockerd only";
  }
  return null;
}

export interface ExtraEngine {
  name: string;
  /** Its DOCKER_HOST address: tcp://198.19.K.2:2375. */
  url: string;
  engine: Engine;
  /** Kills its dockerd at once (SIGKILL), as a machine that goes away: its containers stay behind. */
  kill: () => void;
  /** Starts it again (after `kill`): the script clears what the killed one left and starts a new dockerd. */
  restart: () => Promise<void>;
  /** Stops it and removes its namespace, link and processes; its data root (and the images on it) stay. */
  stop: () => Promise<void>;
}

async function ensure(name: string): Promise<string> {
  const { stdout } = await run("bash", [SCRIPT, name], { timeout: 120_000 });
  const url = stdout.trim().split("\n").at(-1) ?? "";
  if (!/^tcp:\/\/[\d.]+:\d+$/.test(url)) throw new Error(`ensure-extra-engine.sh ${name} printed no engine address: ${JSON.stringify(stdout)}`);
  return url;
}

export async function startExtraEngine(name: string): Promise<ExtraEngine> {
  const url = await ensure(name);
  const engine = await openEngine({ url, source: `scripts/ensure-extra-engine.sh ${name}`, named: true, tls: null });
  return {
    name,
    url,
    engine,
    kill: () => {
      const pid = Number(readFileSync(`/run/harness-engine-${name}/dockerd.pid`, "utf8"));
      process.kill(pid, "SIGKILL");
    },
    restart: async () => {
      const again = await ensure(name);
      if (again !== url) throw new Error(`${name} came back at ${again}, not ${url}`);
    },
    stop: async () => {
      await run("bash", [SCRIPT, name, "--stop"], { timeout: 120_000 });
    },
  };
}
