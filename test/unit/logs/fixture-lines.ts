// Reads the real httpd output lines in test/fixtures/logs (copied verbatim from /work/shared/fixtures/real-httpd).
import { readFileSync } from "node:fs";

export type LogFixture = "error-log-2.2.txt" | "error-log-2.4.txt" | "config-test-2.4.txt" | "config-test-2.2.txt";

export function fixtureText(name: LogFixture): string {
  return readFileSync(new URL(`../../fixtures/logs/${name}`, import.meta.url), "utf8");
}

export function fixtureLines(name: LogFixture): string[] {
  return fixtureText(name).split("\n").filter((line) => line !== "");
}

/** The one fixture line containing `needle`; throws when there is none or more than one, so a test cannot
 * silently pick the wrong line. */
export function fixtureLine(name: LogFixture, needle: string): string {
  const found = fixtureLines(name).filter((line) => line.includes(needle));
  if (found.length !== 1) throw new Error(`${name}: ${found.length} lines contain ${JSON.stringify(needle)}`);
  return found[0] as string;
}
