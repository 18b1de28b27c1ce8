// The command line, and its one error boundary: every HarnessError becomes a message and an exit status
// from the contract (exit-status.ts); library code never exits.
import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import pc from "picocolors";
import { formatPosition, HarnessError, isHarnessError } from "../errors.ts";
import { EXIT, exitStatusFor } from "./exit-status.ts";
import { runCatalogueCommand } from "./catalogue-command.ts";
import { runImagesCommand } from "./images-command.ts";
import { runPlanCommand } from "./plan-command.ts";
import { runRunCommand } from "./run-command.ts";

const USAGE = `Usage:
  httpd-upgrade-harness run [SCENARIO_FILES_OR_DIRS...] [--baseline IMAGE] [--candidate IMAGE]
                            [--report FORMAT:PATH]... [--allow-missing-baseline] [--concurrency N] [--no-noise]
  httpd-upgrade-harness plan [SCENARIO_FILES_OR_DIRS...] [--baseline IMAGE] [--candidate IMAGE]
                            [--versions 2.2.34,2.4.68] [--side baseline|candidate] [--format text|json]
                                          what a run would do, without an engine (also: run --dry-run)
  httpd-upgrade-harness demo              the catalogue, baseline against candidate, as a table
  httpd-upgrade-harness images [--build]  the images the harness uses: present, or what would be built
  httpd-upgrade-harness catalogue         every seed row of the upgrade guide and the scenarios covering it

FORMAT is json, junit, markdown or html. Images also come from HTTPD_BASELINE_IMAGE / HTTPD_CANDIDATE_IMAGE.
Exit status: 0 no regression, 1 regressions found, 2 bad input, 3 environment (engine, image).`;

export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "run":
        return await runRunCommand(rest, { demo: false });
      case "demo":
        return await runRunCommand(rest, { demo: true });
      case "plan":
        return await runPlanCommand(rest);
      case "images":
        return await runImagesCommand(rest);
      case "catalogue":
        return await runCatalogueCommand(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? EXIT.badInput : EXIT.ok;
      default:
        throw new HarnessError("HARNESS_USAGE", `Unknown command ${JSON.stringify(command)}.`, { hint: USAGE });
    }
  } catch (error) {
    return reportError(error);
  }
}

function reportError(error: unknown): number {
  if (isHarnessError(error)) {
    const where = error.position ? `${formatPosition(error.position)}: ` : "";
    process.stderr.write(`${pc.red("error")} ${error.code}: ${where}${error.message}\n`);
    if (error.hint) process.stderr.write(`${error.hint}\n`);
    if (process.env.DEBUG && error.cause) process.stderr.write(`cause: ${String((error.cause as Error).stack ?? error.cause)}\n`);
    return exitStatusFor(error.code);
  }
  process.stderr.write(`${pc.red("internal error")}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.stderr.write("This is a bug in httpd-upgrade-harness; please report it with the output above.\n");
  return EXIT.environment;
}

/** Shared by commands: node's parseArgs with usage errors as HarnessErrors. */
export function parseOptions<const T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (cause) {
    throw new HarnessError("HARNESS_USAGE", (cause as Error).message, { cause, hint: USAGE });
  }
}
