// `--engines ADDR[=N],...`: the engines one run spreads over (engine/engine-target.ts parses the list). Shared by
// the commands that run scenarios, so the flag means the same everywhere.
import { type EngineSlot, parseEngineList } from "../engine/engine-target.ts";
import { HarnessError } from "../errors.ts";

export function enginesOption(value: string | undefined, env: NodeJS.ProcessEnv = process.env): EngineSlot[] | undefined {
  if (value === undefined) return undefined;
  const slots = parseEngineList(value, env);
  if (typeof slots === "string") {
    throw new HarnessError("HARNESS_USAGE", `--engines ${JSON.stringify(value)}: ${slots}.`, {
      hint: "Give engines as DOCKER_HOST names them, comma-separated, each with =N for the scenarios it runs at once: --engines unix:///var/run/docker.sock=2,ssh://ops@build-2=4",
    });
  }
  return slots;
}
