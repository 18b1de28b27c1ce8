import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { errorText, sourceStack } from "../../harness/source-stack.ts";

const SOURCE_STACK = fileURLToPath(new URL("../../harness/source-stack.ts", import.meta.url));

/** A module bundled as bin/httpd-upgrade-harness.js bundles the CLI (split: an entry that imports the module when
 * asked, the module in a chunk, each with its map beside it), whose function throws, called in a plain node process
 * (no test runner mapping its stacks): its stack as it is, and through errorText. */
async function bundledFailure(dir: string): Promise<{ raw: string; mapped: string }> {
  const source = join(dir, "thrower.ts");
  writeFileSync(source, ["// a comment line", "export function fail(): void {", '  const reason: string = "no such thing";', "  throw new TypeError(reason);", "}", ""].join("\n"));
  const entry = join(dir, "entry.ts");
  writeFileSync(entry, 'export const thrower = () => import("./thrower.ts");\n');
  const bundle = join(dir, "cli-0123456789abcdef");
  const result = await build({
    entryPoints: { main: entry },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    sourcemap: "linked",
    outdir: bundle,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunk-[hash]",
    write: false,
    logLevel: "silent",
  });
  mkdirSync(bundle);
  for (const output of result.outputFiles) writeFileSync(output.path, output.contents);
  // The module under test built to plain JavaScript too: a loader such as tsx would map every stack itself.
  const stacks = join(dir, "source-stack.mjs");
  await build({ entryPoints: [SOURCE_STACK], bundle: true, platform: "node", format: "esm", outfile: stacks, logLevel: "silent" });
  const script = [
    `const { errorText } = await import(${JSON.stringify(pathToFileURL(stacks).href)});`,
    `const { thrower } = await import(${JSON.stringify(pathToFileURL(join(bundle, "main.mjs")).href)});`,
    "const { fail } = await thrower();",
    "try { fail(); } catch (error) { process.stdout.write(JSON.stringify({ raw: error.stack, mapped: errorText(error) })); }",
  ].join("\n");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { raw: string; mapped: string };
}

describe("sourceStack", () => {
  it("names the source file and line of every frame in the bundle's chunks, from the map beside each", async () => {
    const dir = mkdtempSync(join(tmpdir(), "source-stack-"));
    try {
      const { raw, mapped } = await bundledFailure(dir);
      expect(raw).toMatch(/cli-0123456789abcdef\/chunk-[A-Z0-9]+\.mjs:\d+:\d+/);
      expect(mapped).toContain("TypeError: no such thing");
      expect(mapped).toContain(`${join(dir, "thrower.ts")}:4:9`);
      expect(mapped).not.toMatch(/cli-0123456789abcdef\/[^:]+\.mjs:\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves a stack alone where no bundle frame or no map is", () => {
    const plain = "Error: x\n    at f (/work/harness/cli/main.ts:10:5)";
    expect(sourceStack(plain)).toBe(plain);
    const mapless = "Error: x\n    at f (file:///nowhere/cli-fedcba9876543210.mjs:3:7)";
    expect(sourceStack(mapless)).toBe(mapless);
    expect(errorText("a string")).toBe("a string");
  });
});
