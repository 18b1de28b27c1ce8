import { describeEngineTarget } from "../engine/engine-target.ts";
import { namedEngineTarget, openEngine } from "../engine/engine.ts";
import { EXIT } from "./exit-status.ts";
import { parseOptions } from "./parse-options.ts";

/** `engine [--check]`: the engine the environment names (the one `run` uses, and scripts/ensure-engine.sh checks),
 * as `key=value` lines; with --check, whether it answers (exit 3 naming it when it does not). */
export async function runEngineCommand(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { check: { type: "boolean", default: false } });
  const target = namedEngineTarget();
  const lines = [`url=${target.url}`, `source=${target.source}`, `named=${target.named}`, `tls=${target.tls ? (target.tls.verify ? "verify" : "no-verify") : "off"}`];
  if (values.check) {
    const engine = await openEngine(target);
    const version = (await engine.docker.version().catch(() => null))?.Version ?? "unknown";
    lines.push(`ports-on=${engine.host}`, `answers=yes (server ${version})`);
    process.stderr.write(`engine ${describeEngineTarget(target)} answers\n`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return EXIT.ok;
}
