#!/usr/bin/env node
// Runs the TypeScript CLI with no build step between a clone and a run. Loading the 340 source modules one by one
// through tsx took about 2.3 s at every start; esbuild bundles them into one module in about 0.2 s, which loads in
// about 1 s. The bundle is kept under node_modules/.cache, named after the sources' paths, sizes and mtimes, so an
// unchanged checkout starts from it and an edited one is bundled again. Where bundling cannot be done (a read-only
// checkout, esbuild missing) or HARNESS_NO_BUNDLE=1 asks, the sources run through tsx as before.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const sources = join(root, "harness");

/** The bundle's file for the sources as they are now. */
function bundleFile() {
  const hash = createHash("sha256");
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const { size, mtimeMs } = statSync(path);
    hash.update(`${path}\0${size}\0${mtimeMs}\n`);
  }
  hash.update(process.version);
  return join(root, "node_modules", ".cache", "httpd-upgrade-harness", `cli-${hash.digest("hex").slice(0, 16)}.mjs`);
}

async function bundled() {
  const file = bundleFile();
  if (!existsSync(file)) {
    const { build } = await import("esbuild");
    const repoPaths = join(sources, "repo-paths.ts");
    const result = await build({
      entryPoints: [join(sources, "cli", "main.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // The packages stay in node_modules, resolved from the bundle's place as from the sources'.
      packages: "external",
      // Stack traces (HARNESS_INTERNAL) name the source files and lines: the map goes beside the bundle, and the
      // harness reads it only when it prints or records a stack (harness/source-stack.ts). Loaded with the bundle,
      // Node keeps the whole map parsed, some 18 MB of every command's memory.
      sourcemap: "linked",
      outfile: file,
      // harness/repo-paths.ts is the one module that reads its own URL: it gets the URL it has in the checkout.
      define: { "import.meta.url": JSON.stringify(pathToFileURL(repoPaths).href) },
      write: false,
      logLevel: "silent",
    });
    const directory = dirname(file);
    mkdirSync(directory, { recursive: true });
    // Bundles of earlier sources go; a concurrent start that is loading one has it read already or bundles anew.
    for (const old of readdirSync(directory)) {
      if (old.startsWith("cli-") && (old.endsWith(".mjs") || old.endsWith(".mjs.map")) && !join(directory, old).startsWith(file)) rmSync(join(directory, old), { force: true });
    }
    // The map first: a bundle in place has its map.
    for (const output of [...result.outputFiles].sort((a, b) => Number(a.path === file) - Number(b.path === file))) {
      const temporary = `${output.path}.${process.pid}.tmp`;
      writeFileSync(temporary, output.contents);
      renameSync(temporary, output.path);
    }
  }
  return import(pathToFileURL(file).href);
}

async function throughTsx() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("../harness/cli/main.ts");
}

let cli;
if (process.env.HARNESS_NO_BUNDLE === "1") cli = await throughTsx();
else {
  try {
    cli = await bundled();
  } catch {
    cli = await throughTsx();
  }
}
process.exitCode = await cli.main(process.argv.slice(2));
// The command is over: nothing it started may keep the process alive past a grace period (a request to an engine
// that stopped answering, which the command has given up on and said so). Unref'd: a process with nothing left
// exits at once, as before.
setTimeout(() => process.exit(), 10_000).unref();
