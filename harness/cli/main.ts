// The command line, and its one error boundary: every HarnessError becomes a message and an exit status
// from the contract (exit-status.ts); library code never exits.
import pc from "picocolors";
import { formatPosition, HarnessError, isHarnessError } from "../errors.ts";
import { errorText } from "../source-stack.ts";
import { EXIT, exitStatusFor } from "./exit-status.ts";
import { runBisectCommand } from "./bisect-command.ts";
import { runCatalogueCommand } from "./catalogue-command.ts";
import { runConfigCommand } from "./config-command.ts";
import { runEngineCommand } from "./engine-command.ts";
import { runFleetCommand, runMergeReportsCommand } from "./fleet-command.ts";
import { runImagesCommand } from "./images-command.ts";
import { runLintCommand } from "./lint-command.ts";
import { runMigrateCommand } from "./migrate-command.ts";
import { runProveCommand } from "./prove-command.ts";
import { runReplayCommand } from "./replay-command.ts";
import { USAGE } from "./parse-options.ts";
import { runPlanCommand } from "./plan-command.ts";
import { runRunCommand } from "./run-command.ts";

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
      case "engine":
        return await runEngineCommand(rest);
      case "catalogue":
        return await runCatalogueCommand(rest);
      case "config":
        return await runConfigCommand(rest);
      case "lint":
        return await runLintCommand(rest);
      case "migrate":
        return await runMigrateCommand(rest);
      case "fleet":
        return await runFleetCommand(rest);
      case "merge-reports":
        return await runMergeReportsCommand(rest);
      case "prove":
        return await runProveCommand(rest);
      case "replay":
        return await runReplayCommand(rest);
      case "bisect":
        return await runBisectCommand(rest);
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
    if (process.env.DEBUG && error.cause) process.stderr.write(`cause: ${errorText(error.cause)}\n`);
    return exitStatusFor(error.code);
  }
  process.stderr.write(`${pc.red("internal error")}: ${errorText(error)}\n`);
  process.stderr.write("This is a bug in httpd-upgrade-harness; please report it with the output above.\n");
  return EXIT.environment;
}
