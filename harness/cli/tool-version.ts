import { readFileSync } from "node:fs";

/** The version in the repository's package.json, which reports record as the tool's. */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}
