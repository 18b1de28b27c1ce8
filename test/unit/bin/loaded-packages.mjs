// Preloaded with `node --import` by cli-lazy-commands.test.ts: appends to LOADED_PACKAGES_LOG every module the
// process loads, as ESM resolves it (an import of a package from the bundle or the sources, in the hooks' thread)
// and as CommonJS caches it (a package's own requires, when the process exits), one URL or path a line.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const log = process.env.LOADED_PACKAGES_LOG;
if (log) {
  register("./loaded-packages-hooks.mjs", { parentURL: import.meta.url, data: { log } });
  process.on("exit", () => appendFileSync(log, Object.keys(createRequire(import.meta.url).cache).map((path) => `${path}\n`).join("")));
}
