import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTargetModules } from "../../../harness/cli/target-modules-option.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "target-modules-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("run/fleet --target-modules: lint's values, applied to the candidate around a fragment", () => {
  it("absent: nothing changes (each tree linted for its layout's own 2.4, the image's stock config alone)", async () => {
    expect(await runTargetModules(undefined)).toBeNull();
  });

  it("successors: lint reads the trees for the official 2.4 with the 2.2 stock set's successors; the candidate loads the baseline image's", async () => {
    const target = await runTargetModules("successors");
    expect(target!.candidate).toEqual({ name: "successors", modules: "successors" });
    expect(target!.lint).toBe(TARGET_PROFILES.successors);
    expect(target!.lint.stock).toEqual(expect.arrayContaining(["expires_module", "cgi_module", "auth_digest_module", "cache_disk_module", "access_compat_module"]));
    expect(target!.lint.stock).not.toContain("disk_cache_module");
  });

  it("a profile or a file of `httpd -M`: the same module list for lint and for the candidate", async () => {
    expect((await runTargetModules("debian"))!.candidate).toEqual({ name: "debian", modules: TARGET_PROFILES.debian.stock });
    const file = join(dir, "modules.txt");
    await writeFile(file, "Loaded Modules:\n core_module (static)\n expires_module (shared)\n rewrite_module (shared)\n");
    const target = await runTargetModules(file);
    expect(target!.candidate).toEqual({ name: file, modules: ["expires_module", "rewrite_module"] });
  });

  it("a file that is not there is a usage error", async () => {
    await expect(runTargetModules(join(dir, "missing.txt"))).rejects.toMatchObject({ code: "HARNESS_USAGE" });
  });
});
