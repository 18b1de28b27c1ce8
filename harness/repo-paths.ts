// Where the files that ship with the harness are: the one module that knows its own place in the checkout. The
// CLI may run from a bundle of the sources (bin/httpd-upgrade-harness.js), which gives this module's own URL in
// place of `import.meta.url`: every other module names these paths from here.
import { fileURLToPath } from "node:url";

/** The checkout's root (package.json, docker/, scenarios/, spec/), ending in a slash. */
export const REPO_ROOT_URL = new URL("../", import.meta.url);

/** A path below the checkout's root, as a file system path. */
export function repoPath(relative: string): string {
  return fileURLToPath(new URL(relative, REPO_ROOT_URL));
}
