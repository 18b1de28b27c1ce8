#!/usr/bin/env node
// Runs the TypeScript CLI with no build step between a clone and a run. Loading the 340 source modules one by one
// through tsx took about 2.3 s at every start; esbuild bundles them in about 0.2 s. The bundle is split: main.mjs
// holds the dispatcher, and each command's code is a chunk main.mjs imports when that command runs, so `lint` loads
// neither the engine's packages nor the chunks of `run` (harness/cli/main.ts). The bundle is a directory under
// node_modules/.cache, named after the sources' paths, sizes and mtimes, so an unchanged checkout starts from it and
// an edited one is bundled again. Where bundling cannot be done (a read-only checkout, esbuild missing) or
// HARNESS_NO_BUNDLE=1 asks, the sources run through tsx as before.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const sources = join(root, "harness");

/** How long another bundle is kept: a process started from it may still be about to import its command's chunk. */
const OLD_BUNDLE_GRACE_MS = 10 * 60 * 1000;

/** The bundle's directory for the sources as they are now. */
function bundleDir() {
  const hash = createHash("sha256");
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const { size, mtimeMs } = statSync(path);
    hash.update(`${path}\0${size}\0${mtimeMs}\n`);
  }
  hash.update(process.version);
  return join(root, "node_modules", ".cache", "httpd-upgrade-harness", `cli-${hash.digest("hex").slice(0, 16)}`);
}

async function bundled() {
  const directory = bundleDir();
  const main = join(directory, "main.mjs");
  if (!existsSync(main)) {
    const { build } = await import("esbuild");
    const repoPaths = join(sources, "repo-paths.ts");
    const result = await build({
      entryPoints: { main: join(sources, "cli", "main.ts") },
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // The packages stay in node_modules, resolved from the bundle's place as from the sources'; each is imported by
      // the chunks that use it, not by main.mjs.
      packages: "external",
      // Stack traces (HARNESS_INTERNAL) name the source files and lines: each chunk's map goes beside it, and the
      // harness reads one only when it prints or records a stack (harness/source-stack.ts). Loaded with the bundle,
      // Node keeps the whole map parsed, some 18 MB of every command's memory.
      sourcemap: "linked",
      outdir: directory,
      outExtension: { ".js": ".mjs" },
      chunkNames: "chunk-[hash]",
      // harness/repo-paths.ts is the one module that reads its own URL: it gets the URL it has in the checkout.
      define: { "import.meta.url": JSON.stringify(pathToFileURL(repoPaths).href) },
      write: false,
      logLevel: "silent",
    });
    const cache = dirname(directory);
    mkdirSync(cache, { recursive: true });
    // Bundles of earlier sources go once nothing can be starting from them any more.
    for (const old of readdirSync(cache)) {
      const path = join(cache, old);
      if (!old.startsWith("cli-") || path === directory) continue;
      try {
        if (Date.now() - statSync(path).mtimeMs > OLD_BUNDLE_GRACE_MS) rmSync(path, { recursive: true, force: true });
      } catch {
        // Gone already: another start removed it.
      }
    }
    // Written whole beside its place, then renamed into it: a concurrent start sees the whole bundle or none.
    const temporary = `${directory}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { recursive: true });
    for (const output of result.outputFiles) writeFileSync(join(temporary, relative(directory, output.path)), output.contents);
    try {
      renameSync(temporary, directory);
    } catch (error) {
      // Another start put the same bundle in place first.
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(main)) throw error;
    }
  }
  return import(pathToFileURL(main).href);
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
