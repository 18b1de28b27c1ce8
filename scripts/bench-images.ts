// What every part of `npm run bench` shares: the images it runs (the real 2.2 when HTTPD_BASELINE_IMAGE names one
// that is here, else the local 2.4 image on both sides, so both sides still boot and answer), and the one way a
// figure is printed against its target.
import { DEFAULT_BASELINE_IMAGE } from "../harness/engine/default-images.ts";
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";

export interface BenchImages {
  baseline: string;
  candidate: string;
  tools: string;
}

export async function benchImages(): Promise<BenchImages> {
  const engine = await connectEngine();
  const candidate = await ensureRecipeImage(engine, "httpd-2.4");
  const tools = await ensureRecipeImage(engine, "tools");
  const wanted = process.env.HTTPD_BASELINE_IMAGE ?? DEFAULT_BASELINE_IMAGE;
  const baseline = (await imageExists(engine, wanted)) ? wanted : candidate;
  return { baseline, candidate, tools };
}

/** "name: figure (target ≤ x) PASS" — the line every target is printed as. */
export function verdictLine(name: string, value: number, target: number, sense: "≤" | "<" | "≥", format: (v: number) => string): string {
  const pass = sense === "≤" ? value <= target : sense === "<" ? value < target : value >= target;
  return `${name}: ${format(value)} (target ${sense} ${format(target)}) ${pass ? "PASS" : "MISS"}`;
}
