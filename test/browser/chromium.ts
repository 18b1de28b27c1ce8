// Finds the Chromium the browser tests drive through playwright-core (which ships no browser of its own), and
// starts it. HARNESS_CHROMIUM overrides the default, Debian's /usr/bin/chromium. No Chromium is a failure,
// never a skip: `npm test` installs Debian's (scripts/setup.sh --test).
import { accessSync, constants } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";

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

/** Throws when `path` is not an executable file. */
export type ExecutableCheck = (path: string) => void;

const isExecutable: ExecutableCheck = (path) => accessSync(path, constants.X_OK);

export function findChromium(env: NodeJS.ProcessEnv = process.env, check: ExecutableCheck = isExecutable): string {
  const fromEnv = env.HARNESS_CHROMIUM;
  const path = fromEnv !== undefined && fromEnv !== "" ? fromEnv : DEFAULT_CHROMIUM;
  try {
    check(path);
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

/** The Chromium findChromium names, headless and offline, with `profileDir` as its fresh --user-data-dir (a
 * persistent context is Playwright's way to pass one of our choosing). */
export function launchChromium(profileDir: string, viewport = { width: 1400, height: 900 }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: findChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport,
    offline: true,
  });
}
