import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { connectEngine } from "../engine/engine.ts";
import { IMAGE_RECIPES } from "../engine/image-recipes.ts";
import { ensureRecipeImage, imageExists, recipeStatus } from "../engine/images.ts";
import { EXIT } from "./exit-status.ts";
import { parseOptions } from "./parse-options.ts";

export async function runImagesCommand(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { build: { type: "boolean", default: false } });
  const engine = await connectEngine();
  if (values.build) {
    // Every recipe built on a parent (the base is built as their parent), so a new recipe is built by setup too.
    for (const recipe of IMAGE_RECIPES.filter((r) => r.build.kind === "dockerfile")) {
      await ensureRecipeImage(engine, recipe.id, (line) => process.stderr.write(`${line}\n`));
    }
  }
  const out: string[] = ["Images the harness builds (tag = hash of the recipe under docker/):"];
  for (const status of await recipeStatus(engine)) {
    out.push(`  ${status.present ? "present      " : "would build  "} ${status.tag.padEnd(34)} ${status.description}`);
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
