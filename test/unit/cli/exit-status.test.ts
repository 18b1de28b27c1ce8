import { describe, expect, it } from "vitest";
import { EXIT, exitStatusFor } from "../../../harness/cli/exit-status.ts";
import type { HarnessErrorCode } from "../../../harness/errors.ts";

// The contract of README.md ("exit status") and docs/errors.md: bad input 2, environment 3, Ctrl-C 130.
const CONTRACT: Record<HarnessErrorCode, number> = {
  HARNESS_USAGE: 2,
  HARNESS_SCENARIO_PARSE: 2,
  HARNESS_SCENARIO_INVALID: 2,
  HARNESS_SCENARIO_NOT_FOUND: 2,
  HARNESS_CONFIG_FILE: 2,
  HARNESS_IGNORE_FILE: 2,
  HARNESS_MODULE_UNKNOWN: 2,
  HARNESS_ENGINE_UNAVAILABLE: 3,
  HARNESS_IMAGE_MISSING: 3,
  HARNESS_IMAGE_BUILD: 3,
  HARNESS_IMAGE_UNSUPPORTED: 3,
  HARNESS_CONTAINER: 3,
  HARNESS_REPORT_WRITE: 3,
  HARNESS_DEADLINE: 1,
  HARNESS_INTERRUPTED: 130,
  HARNESS_INTERNAL: 3,
};

describe("exitStatusFor", () => {
  it("maps usage and scenario errors to 2, engine and image errors to 3, an interrupt to 130", () => {
    const codes = Object.keys(CONTRACT) as HarnessErrorCode[];
    expect(Object.fromEntries(codes.map((code) => [code, exitStatusFor(code)]))).toEqual(CONTRACT);
  });

  it("names the statuses of the contract", () => {
    expect(EXIT).toEqual({ ok: 0, regressions: 1, badInput: 2, environment: 3, interrupted: 130 });
  });

  it("agrees with the table in docs/errors.md", async () => {
    const { readFile } = await import("node:fs/promises");
    const doc = await readFile(new URL("../../../docs/errors.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| `(HARNESS_[A-Z_]+)` \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(CONTRACT);
  });
});
