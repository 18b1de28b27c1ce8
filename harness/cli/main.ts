// The command line, and its one error boundary: every HarnessError becomes a message and an exit status
// from the contract (exit-status.ts); library code never exits. Each command's module is imported when that command
// runs: `lint`, `plan`, `config` and `migrate` then never load the engine's packages (dockerode, testcontainers,
// undici) nor zod, which cost more of a small lint's time than the lint itself (test/unit/cli/lazy-commands.test.ts).
import pc from "picocolors";
import { formatPosition, HarnessError, isHarnessError } from "../errors.ts";
import { errorText } from "../source-stack.ts";
import { EXIT, exitStatusFor } from "./exit-status.ts";
import { USAGE } from "./parse-options.ts";

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // `run --help` as every other tool takes it: the usage, exit 0 (not an unknown option). After `--` it is an argument.
  const ask = rest.indexOf("--help") >= 0 ? rest.indexOf("--help") : rest.indexOf("-h");
  if (command !== undefined && ask >= 0 && !rest.slice(0, ask).includes("--")) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  try {
    switch (command) {
      case "run":
        return await (await import("./run-command.ts")).runRunCommand(rest, { demo: false });
      case "demo":
        return await (await import("./run-command.ts")).runRunCommand(rest, { demo: true });
      case "plan":
        return await (await import("./plan-command.ts")).runPlanCommand(rest);
      case "images":
        return await (await import("./images-command.ts")).runImagesCommand(rest);
      case "engine":
        return await (await import("./engine-command.ts")).runEngineCommand(rest);
      case "catalogue":
        return await (await import("./catalogue-command.ts")).runCatalogueCommand(rest);
      case "config":
        return await (await import("./config-command.ts")).runConfigCommand(rest);
      case "lint":
        return await (await import("./lint-command.ts")).runLintCommand(rest);
      case "migrate":
        return await (await import("./migrate-command.ts")).runMigrateCommand(rest);
      case "fleet":
        return await (await import("./fleet-command.ts")).runFleetCommand(rest);
      case "merge-reports":
        return await (await import("./fleet-command.ts")).runMergeReportsCommand(rest);
      case "prove":
        return await (await import("./prove-command.ts")).runProveCommand(rest);
      case "replay":
        return await (await import("./replay-command.ts")).runReplayCommand(rest);
      case "bisect":
        return await (await import("./bisect-command.ts")).runBisectCommand(rest);
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
