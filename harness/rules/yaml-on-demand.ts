// The yaml package, loaded the first time a YAML file is read, not when a module that can read one is imported:
// every lint imports the ignore file's and the baseline's readers, and most lints read neither file, while
// loading yaml took 0.1–0.15 s of each lint's start. Synchronous (a CommonJS require, as Node's own ESM import of
// yaml resolves to its CommonJS build), so the readers keep their synchronous signatures. Resolved from the
// checkout's root (repo-paths.ts), as an import from the sources or the CLI's bundle resolves it.
import { createRequire } from "node:module";
import { repoPath } from "../repo-paths.ts";

type Yaml = typeof import("yaml");

let loaded: Yaml | undefined;

export function yaml(): Yaml {
  return (loaded ??= createRequire(repoPath("package.json"))("yaml") as Yaml);
}
