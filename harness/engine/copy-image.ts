// An image moved from one engine to another (`docker save | docker load` through this process), so that a run
// spread over several engines builds or pulls each image once: a second engine gets the first one's bytes, and
// with them the same image id, which the run checks (observe/run-harness.ts).
import { HarnessError } from "../errors.ts";
import type { Engine } from "./engine.ts";
import { describeEngineTarget } from "./engine-target.ts";
import { imageExists } from "./images.ts";
import { log } from "./log.ts";

/** The image's id (sha256:...) on this engine, or null when it is not there. */
export async function imageId(engine: Engine, image: string): Promise<string | null> {
  try {
    const inspected = (await engine.docker.getImage(image).inspect()) as { Id?: string };
    return inspected.Id ?? null;
  } catch {
    return null;
  }
}

/** Streams `image` from `from` into `to`; HARNESS_IMAGE_MISSING naming both engines when it fails. */
export async function copyImage(from: Engine, to: Engine, image: string): Promise<void> {
  const started = Date.now();
  try {
    const archive = (await from.docker.getImage(image).get()) as NodeJS.ReadableStream;
    const loading = (await to.docker.loadImage(archive, { quiet: true })) as NodeJS.ReadableStream;
    await new Promise<void>((resolve, reject) => {
      to.docker.modem.followProgress(loading, (error: Error | null, output: Array<{ error?: string }>) => {
        const failed = output?.find((event) => event.error)?.error;
        if (error || failed) reject(error ?? new Error(failed));
        else resolve();
      });
    });
  } catch (cause) {
    throw new HarnessError("HARNESS_IMAGE_MISSING", `Could not copy ${image} from ${describeEngineTarget(from.target)} to ${describeEngineTarget(to.target)}: ${(cause as Error).message}`, {
      cause,
      hint: `Load it on the second engine yourself (\`docker save ${image} | DOCKER_HOST=... docker load\`), or leave that engine out of --engines.`,
    });
  }
  if (!(await imageExists(to, image))) {
    throw new HarnessError("HARNESS_IMAGE_MISSING", `Copying ${image} to ${describeEngineTarget(to.target)} left no image of that name there.`);
  }
  log("copied %s to %s in %d ms", image, to.target.url, Date.now() - started);
}

/** `image` on `engine`: already there, or copied from the first of `sources` that has it; null when none has it. */
export async function copyFromAny(engine: Engine, image: string, sources: readonly Engine[], note?: (message: string) => void): Promise<string | null> {
  if (await imageExists(engine, image)) return image;
  for (const source of sources) {
    if (source === engine || !(await imageExists(source, image))) continue;
    note?.(`copying ${image} from ${source.target.url} to ${engine.target.url}`);
    await copyImage(source, engine, image);
    return image;
  }
  return null;
}
