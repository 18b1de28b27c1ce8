import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ignoreFileFor } from "../../../harness/cli/ignore-option.ts";
import { HarnessError } from "../../../harness/errors.ts";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ignore-option-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ENTRY = "ignore:\n  - rule: D3\n    reason: ETags are not used by our caches\n";

describe("run --ignore", () => {
  it("reads the file named", async () => {
    await writeFile(join(dir, "fleet.yaml"), ENTRY);
    const file = await ignoreFileFor(join(dir, "fleet.yaml"), "/nonexistent");
    expect(file?.entries.map((e) => [e.rule, e.reason, e.at])).toEqual([["D3", "ETags are not used by our caches", `${join(dir, "fleet.yaml")}:2`]]);
  });

  it("reads .httpd-upgrade-ignore.yaml of the working directory without the option", async () => {
    await writeFile(join(dir, ".httpd-upgrade-ignore.yaml"), ENTRY);
    expect((await ignoreFileFor(undefined, dir))?.entries).toHaveLength(1);
  });

  it("runs without an ignore file when neither is there", async () => {
    expect(await ignoreFileFor(undefined, dir)).toBeNull();
  });

  it("refuses a named file that is not there, or an entry without a reason, as bad input", async () => {
    await writeFile(join(dir, "bad.yaml"), "ignore:\n  - rule: D3\n");
    for (const path of [join(dir, "missing.yaml"), join(dir, "bad.yaml")]) {
      const error = await ignoreFileFor(path, dir).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as HarnessError).code).toBe("HARNESS_IGNORE_FILE");
    }
  });
});
