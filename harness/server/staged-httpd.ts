// A side staged in a container that runs no server: the files, environment and setup steps a run would use,
// then httpd asked questions with the run's arguments (`-S`, `-M`, `-t -D DUMP_INCLUDES`). Each question is its
// own exec in the one container, so httpd reads exactly the staged tree every time and nothing is started.
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { HarnessError } from "../errors.ts";
import type { ImageInspection } from "./inspect-image.ts";
import { type BundleFile, packBundle } from "./site-bundle.ts";
import { MARKER, type StartExtras, shellQuote } from "./start-script.ts";

export interface StagedLaunch {
  inspection: ImageInspection;
  scenario: string;
  /** The main config: where it is staged and its text. */
  config: { path: string; text: string };
  /** Further files, absolute paths. */
  files: BundleFile[];
  extras: StartExtras;
}

export interface HttpdAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Pure: the environment lines every command of the container starts with (the image's, then the plan's). */
export function environmentScript(inspection: ImageInspection, environment: Readonly<Record<string, string>>): string[] {
  const { profile } = inspection;
  return [...(profile.environment ? [profile.environment] : []), ...Object.entries(environment).map(([name, value]) => `export ${name}=${shellQuote(value)}`)];
}

/** Pure: what the container runs: the environment and the setup steps, a marker line, then it waits. */
export function stagingScript(inspection: ImageInspection, extras: StartExtras): string {
  const { profile } = inspection;
  return [
    ...environmentScript(inspection, extras.environment),
    profile.preStart,
    ...extras.setup,
    `echo "${MARKER} staged"`,
    // Kept alive for the questions; removed by its scope.
    "exec sleep 3600",
  ].join("\n");
}

export class StagedHttpd implements AsyncDisposable {
  constructor(
    readonly container: HarnessContainer,
    readonly launch: StagedLaunch,
  ) {}

  /** Runs the image's httpd with the plan's arguments followed by `args`, in the plan's environment. */
  async ask(args: readonly string[]): Promise<HttpdAnswer> {
    const { inspection, extras } = this.launch;
    const command = [inspection.profile.binary, ...[...extras.args, ...args].map(shellQuote)].join(" ");
    const script = [...environmentScript(inspection, extras.environment), `cd ${inspection.profile.serverRoot}`, command].join("\n");
    const result = await this.container.exec(["/bin/sh", "-c", script], { timeoutMs: 30_000 });
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.container.remove();
  }
}

/** Stages a side and waits until its setup steps have run. */
export async function stageHttpd(scope: RunScope, launch: StagedLaunch): Promise<StagedHttpd> {
  const archive = await packBundle([{ path: launch.config.path, content: launch.config.text }, ...launch.files]);
  const container = await HarnessContainer.create(scope, {
    image: launch.inspection.image,
    role: "server",
    scenario: launch.scenario,
    entrypoint: ["/bin/sh", "-c"],
    command: [stagingScript(launch.inspection, launch.extras)],
    archive,
  });
  const staged = new StagedHttpd(container, launch);
  try {
    await container.start();
    // -1 when the container ended (a setup step failed) or took too long.
    const ready = await container.stdout.waitForLine((line) => line === `${MARKER} staged`, { timeoutMs: 30_000 });
    if (ready < 0) {
      await container.stderr.waitForQuiet(50, 1_000);
      throw new HarnessError("HARNESS_CONTAINER", `staging ${launch.scenario} in ${launch.inspection.image} failed before httpd ran:\n${container.stderr.lines.join("\n")}`);
    }
    return staged;
  } catch (error) {
    await container.remove();
    throw error;
  }
}
