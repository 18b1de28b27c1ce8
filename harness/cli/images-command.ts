import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { connectEngine } from "../engine/engine.ts";
import { IMAGE_RECIPES, type ImageRecipe } from "../engine/image-recipes.ts";
import { ensureRecipeImage, imageExists, recipeStatus } from "../engine/images.ts";
import { HarnessError } from "../errors.ts";
import { EXIT } from "./exit-status.ts";
import { parseOptions } from "./parse-options.ts";

/** The recipes `images --build [ID...]` builds: the ones named, or else every recipe built on a parent (the base is
 * built as their parent, so a new recipe is built by set-up too) but those built only when named. */
export function recipesToBuild(ids: readonly string[]): ImageRecipe[] {
  if (ids.length === 0) return IMAGE_RECIPES.filter((r) => r.build.kind === "dockerfile" && !r.buildOnlyWhenNamed);
  return ids.map((id) => {
    const recipe = IMAGE_RECIPES.find((r) => r.id === id);
    if (recipe) return recipe;
    throw new HarnessError("HARNESS_USAGE", `images --build: no recipe ${JSON.stringify(id)}; known: ${IMAGE_RECIPES.map((r) => r.id).join(", ")}`);
  });
}

export async function runImagesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { build: { type: "boolean", default: false } });
  if (positionals.length > 0 && !values.build) {
    throw new HarnessError("HARNESS_USAGE", `images takes recipe ids only after --build (images --build ${positionals.join(" ")}).`);
  }
  const toBuild = values.build ? recipesToBuild(positionals) : [];
  const engine = await connectEngine();
  for (const recipe of toBuild) {
    const tag = await ensureRecipeImage(engine, recipe.id, (line) => process.stderr.write(`${line}\n`));
    if (positionals.length > 0) process.stderr.write(`${recipe.id}: ${tag}\n`);
  }
  const out: string[] = ["Images the harness builds (tag = hash of the recipe under docker/):"];
  for (const status of await recipeStatus(engine)) {
    const state = status.present ? "present" : status.buildOnlyWhenNamed ? "on request" : "would build";
    const how = !status.present && status.buildOnlyWhenNamed ? ` (images --build ${status.id})` : "";
    out.push(`  ${state.padEnd(13)} ${status.tag.padEnd(34)} ${status.description}${how}`);
  }
  out.push("Images the harness takes as inputs:");
  for (const [role, env, fallback] of [
    ["baseline ", "HTTPD_BASELINE_IMAGE", DEFAULT_BASELINE_IMAGE],
    ["candidate", "HTTPD_CANDIDATE_IMAGE", DEFAULT_CANDIDATE_IMAGE],
  ] as const) {
    const image = process.env[env] || fallback;
    const present = await imageExists(engine, image);
    const otherwise = role === "candidate" && image === DEFAULT_CANDIDATE_IMAGE ? "pulled, or else the local 2.4 image" : "pulled where a registry answers";
    out.push(`  ${role} ${image.padEnd(28)} ${present ? "present" : `missing: ${otherwise}`}  (${env})`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return EXIT.ok;
}
