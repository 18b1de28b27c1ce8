import { readFileSync } from "node:fs";
import { repoPath } from "../repo-paths.ts";

/** The version in the repository's package.json, which reports record as the tool's. */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(repoPath("package.json"), "utf8")) as { version: string };
  return pkg.version;
}
