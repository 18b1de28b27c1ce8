// `run --ignore FILE`: the fleet's ignore file. Without the option, `.httpd-upgrade-ignore.yaml` in the working
// directory is used when it is there (a fleet keeps it next to its configs); a named file that is missing is bad
// input, an absent default is no ignore file at all.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { IGNORE_FILE_NAME, type IgnoreFile, loadIgnoreFile } from "../rules/ignore-file.ts";

export async function ignoreFileFor(option: string | undefined, cwd: string = process.cwd()): Promise<IgnoreFile | null> {
  if (option !== undefined) return loadIgnoreFile(option);
  const fallback = join(cwd, IGNORE_FILE_NAME);
  return existsSync(fallback) ? loadIgnoreFile(fallback) : null;
}
