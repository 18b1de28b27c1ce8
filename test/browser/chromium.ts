// Finds the Chromium the browser tests drive through playwright-core (which ships no browser of its own).
// HARNESS_CHROMIUM overrides the default, Debian's /usr/bin/chromium.
import { accessSync, constants } from "node:fs";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/** Flags for a quiet, offline, throw-away headless run (pair them with a fresh --user-data-dir). */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HARNESS_CHROMIUM;
  const path = fromEnv !== undefined && fromEnv !== "" ? fromEnv : DEFAULT_CHROMIUM;
  try {
    accessSync(path, constants.X_OK);
  } catch (cause) {
    const source = fromEnv !== undefined && fromEnv !== "" ? "HARNESS_CHROMIUM" : "the default path";
    throw new Error(
      `Chromium not found: ${path} (from ${source}) does not exist or is not executable.\n` +
        `The browser tests need a Chromium. On Debian: apt-get install -y chromium; ` +
        `elsewhere set HARNESS_CHROMIUM=/path/to/chromium.`,
      { cause },
    );
  }
  return path;
}
