import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { pack } from "tar-stream";
import { HarnessError } from "../errors.ts";
import { repoPath } from "../repo-paths.ts";
import type { Engine } from "./engine.ts";
import { ENGINES_OPTION } from "./engine-target.ts";
import { DOCKER_DIR, IMAGE_RECIPES, type ImageRecipe, recipeNamed } from "./image-recipes.ts";
import { imageLabels } from "./labels.ts";
import { log } from "./log.ts";

const run = promisify(execFile);

/** One entry of a build context: a file, or a symlink kept as a link. */
export type ContextEntry = { name: string; mode: number } & ({ content: Buffer } | { linkname: string });

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** What the tag is a hash of: the recipe's files under docker/, then the repository's files it names. */
function recipeFiles(recipe: ImageRecipe): ContextEntry[] {
  const dir = join(DOCKER_DIR, recipe.directory);
  const own = readdirSync(dir)
    .filter((name) => name !== "README.md")
    .sort()
    .map((name) => ({ name, content: readFileSync(join(dir, name)), mode: statSync(join(dir, name)).mode & 0o777 }));
  return [...own, ...repositoryFiles(recipe.repositoryPaths ?? [])];
}

/** The repository's files under the given paths, as `repository/<path>`, in one order whatever the file system's. */
function repositoryFiles(paths: readonly string[]): ContextEntry[] {
  const entries: ContextEntry[] = [];
  const visit = (relative: string): void => {
    const absolute = repoPath(relative);
    const stat = lstatSync(absolute);
    const name = `repository/${relative}`;
    const mode = stat.mode & 0o777;
    if (stat.isSymbolicLink()) entries.push({ name, mode, linkname: readlinkSync(absolute) });
    else if (stat.isDirectory()) for (const child of readdirSync(absolute)) visit(`${relative}/${child}`);
    else if (stat.isFile()) entries.push({ name, mode, content: readFileSync(absolute) });
  };
  for (const path of paths) visit(path);
  return entries.sort(byName);
}

/** The build machine's files a recipe takes (never hashed), empty where this machine has none. */
function buildMachineFiles(recipe: ImageRecipe): ContextEntry[] {
  return Object.entries(recipe.buildMachineFiles ?? {}).map(([name, path]) => ({
    name,
    mode: 0o644,
    content: existsSync(path) ? readFileSync(path) : Buffer.alloc(0),
  }));
}

function recipeById(id: ImageRecipe["id"]): ImageRecipe {
  const recipe = IMAGE_RECIPES.find((r) => r.id === id);
  if (!recipe) throw new HarnessError("HARNESS_INTERNAL", `unknown image recipe ${id}`);
  return recipe;
}

/**
 * The content-hashed tag of a recipe: its files, its build args, and its parent's tag, so a new base rebuilds
 * its children. A recipe's tag prefix (e.g. the httpd version) goes before the hash.
 */
export function recipeTag(id: ImageRecipe["id"]): string {
  const recipe = recipeById(id);
  const hash = createHash("sha256");
  if (recipe.build.kind === "dockerfile") hash.update(recipeTag(recipe.build.parent));
  for (const file of recipeFiles(recipe)) {
    hash.update(file.name).update("\0");
    if ("linkname" in file) hash.update("symlink\0").update(file.linkname).update("\0");
    else hash.update(file.content).update("\0");
  }
  for (const [name, value] of Object.entries(recipe.buildArgs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update("build-arg\0").update(name).update("\0").update(value).update("\0");
  }
  return `${recipe.repository}:${recipe.tagPrefix ?? ""}${hash.digest("hex").slice(0, 12)}`;
}

export async function imageExists(engine: Engine, image: string): Promise<boolean> {
  try {
    await engine.docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}

export interface ImageStatus {
  id: ImageRecipe["id"];
  tag: string;
  present: boolean;
  /** Not built by set-up: `images --build ID` builds it (the harness's own image). */
  buildOnlyWhenNamed: boolean;
  description: string;
}

export async function recipeStatus(engine: Engine): Promise<ImageStatus[]> {
  return Promise.all(
    IMAGE_RECIPES.map(async (recipe) => {
      const tag = recipeTag(recipe.id);
      return { id: recipe.id, tag, present: await imageExists(engine, tag), buildOnlyWhenNamed: recipe.buildOnlyWhenNamed === true, description: recipe.description };
    }),
  );
}

/** Builds under way, by engine and tag: a run over several engines builds on each only what it could not copy. */
const building = new Map<string, Promise<string>>();

/** Returns the recipe's tag, building it (and its parent) first when it is not there. */
export function ensureRecipeImage(engine: Engine, id: ImageRecipe["id"], onProgress?: (line: string) => void): Promise<string> {
  const tag = recipeTag(id);
  const key = `${engine.target.url}\u0000${tag}`;
  let pending = building.get(key);
  if (!pending) {
    pending = (async () => {
      if (await imageExists(engine, tag)) return tag;
      const recipe = recipeById(id);
      onProgress?.(`building ${tag} (${recipe.description}); this happens once per recipe change`);
      const started = Date.now();
      if (recipe.build.kind === "script") await buildWithScript(engine, recipe, tag);
      else await buildWithDockerfile(engine, recipe, tag, await ensureRecipeImage(engine, recipe.build.parent, onProgress));
      onProgress?.(`built ${tag} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      return tag;
    })();
    building.set(key, pending);
    pending.catch(() => building.delete(key));
  }
  return pending;
}

async function buildWithScript(engine: Engine, recipe: ImageRecipe, tag: string): Promise<void> {
  if (recipe.build.kind !== "script") return;
  try {
    // The script imports with the docker CLI: pointed at the engine this build is for when --engines named it.
    const env = engine.target.source === ENGINES_OPTION ? { ...process.env, DOCKER_HOST: engine.target.url } : process.env;
    await run("bash", [join(DOCKER_DIR, recipe.directory, recipe.build.script), tag], { maxBuffer: 16 * 1024 * 1024, env });
  } catch (cause) {
    const stderr = String((cause as { stderr?: string }).stderr ?? "").trim().split("\n").slice(-15).join("\n");
    throw new HarnessError("HARNESS_IMAGE_BUILD", `Building ${tag} failed:\n${stderr}`, {
      cause,
      hint: `Run \`bash docker/${recipe.directory}/${recipe.build.script} ${tag}\` to see the whole output.`,
    });
  }
}

/** What a Dockerfile recipe is built from: the hashed files, then the building machine's. */
export function buildContext(id: ImageRecipe["id"]): ContextEntry[] {
  const recipe = recipeById(id);
  return [...recipeFiles(recipe), ...buildMachineFiles(recipe)];
}

async function buildWithDockerfile(engine: Engine, recipe: ImageRecipe, tag: string, parentTag: string): Promise<void> {
  const archive = pack();
  for (const file of buildContext(recipe.id)) {
    if ("linkname" in file) archive.entry({ name: file.name, type: "symlink", linkname: file.linkname, mode: file.mode, mtime: new Date(0) });
    else archive.entry({ name: file.name, mode: file.mode, mtime: new Date(0) }, file.content);
  }
  archive.finalize();
  const stream = await engine.docker.buildImage(archive as unknown as NodeJS.ReadableStream, {
    t: tag,
    buildargs: { ...recipe.buildArgs, BASE_IMAGE: parentTag },
    // Image labels only: Docker copies them to every container made from the image (engine/labels.ts).
    labels: imageLabels(tag),
    rm: true,
    forcerm: true,
  });
  const tail: string[] = [];
  const failure = await new Promise<string | null>((resolve) => {
    engine.docker.modem.followProgress(
      stream,
      (error: Error | null, output: Array<{ error?: string }>) => {
        const failed = output?.find((event) => event.error)?.error;
        resolve(error ? String(error) : failed ?? null);
      },
      (event: { stream?: string; error?: string }) => {
        const line = (event.stream ?? event.error ?? "").trimEnd();
        if (line) {
          log("build %s: %s", tag, line);
          tail.push(line);
          if (tail.length > 20) tail.shift();
        }
      },
    );
  });
  if (failure !== null || !(await imageExists(engine, tag))) {
    throw new HarnessError("HARNESS_IMAGE_BUILD", `Building ${tag} from docker/${recipe.directory} failed: ${failure ?? "no image"}\n${tail.join("\n")}`, {
      hint: "Set DEBUG=harness:docker for the whole build output.",
    });
  }
}

/** Pulls an image, resolving when the engine has finished (or failed). */
async function pullImage(engine: Engine, image: string): Promise<void> {
  const stream = (await engine.docker.pull(image)) as NodeJS.ReadableStream;
  await new Promise<void>((resolve, reject) => {
    engine.docker.modem.followProgress(stream, (error: Error | null, output: Array<{ error?: string }>) => {
      const failed = output?.find((event) => event.error)?.error;
      if (error || failed) reject(error ?? new Error(failed));
      else resolve();
    });
  });
}

/** A user's image: used when present, pulled when a registry answers, HARNESS_IMAGE_MISSING otherwise. */
export async function resolveUserImage(engine: Engine, image: string, options: { pullTimeoutMs?: number } = {}): Promise<string> {
  if (await imageExists(engine, image)) return image;
  log("image %s not present; trying to pull", image);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pullImage(engine, image),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("pull timed out")), options.pullTimeoutMs ?? 30_000);
      }),
    ]);
    if (await imageExists(engine, image)) return image;
  } catch (cause) {
    throw new HarnessError("HARNESS_IMAGE_MISSING", `The image ${image} is not on this engine and could not be pulled.`, {
      cause,
      hint: `Load or build it (\`docker load\`, \`docker build -t ${image} ...\`), or name another image.`,
    });
  } finally {
    clearTimeout(timer);
  }
  throw new HarnessError("HARNESS_IMAGE_MISSING", `The image ${image} is not on this engine and could not be pulled.`);
}

/** An httpd image as the command line names it: `recipe:ID` is the harness's own recipe (built when missing),
 * anything else a user's image (resolveUserImage). Returns the image to run. */
export async function resolveNamedImage(
  engine: Engine,
  image: string,
  options: { pullTimeoutMs?: number; onProgress?: (line: string) => void } = {},
): Promise<string> {
  const named = recipeNamed(image);
  if (named === null) return resolveUserImage(engine, image, options);
  if ("error" in named) throw new HarnessError("HARNESS_USAGE", named.error);
  return ensureRecipeImage(engine, named.recipe.id, options.onProgress);
}
