import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FAMILY_TRAITS } from "../../../harness/server/family-traits.ts";
import { OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import type { ImageInspection } from "../../../harness/server/inspect-image.ts";
import { rememberInspection } from "../../../harness/server/inspection-cache.ts";
import { resolveModules } from "../../../harness/server/module-map.ts";
import { officialDefaults } from "../../../harness/server/official-defaults.ts";
import { offlineFacts } from "../../../harness/server/offline-facts.ts";
import { FAMILIES, httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { builtModules } from "../../fixtures/observations/recorded.ts";

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

describe("officialDefaults", () => {
  it("is an inspection of the official layout for the version, with no stock config, marked as defaults", () => {
    const facts = officialDefaults("httpd:2.4", httpdVersion("2.4.68"));
    expect({ ...facts, modules: facts.modules.size, builtinModules: [...facts.builtinModules] }).toEqual({
      image: "httpd:2.4",
      profile: OFFICIAL_PROFILE,
      version: httpdVersion("2.4.68"),
      modules: 130,
      builtinModules: ["core", "http", "so"],
      stockConfig: null,
      source: "defaults",
    });
  });

  it("has 2.2's MPM compiled in and 2.4's loadable", () => {
    const facts22 = officialDefaults("httpd:2.2.34", httpdVersion("2.2.34"));
    const facts24 = officialDefaults("httpd:2.4", httpdVersion("2.4.68"));
    expect(facts22.modules.size).toBe(68);
    expect([facts22.builtinModules.has("mpm_prefork"), facts22.modules.has("mod_mpm_prefork.so")]).toEqual([true, false]);
    expect([facts24.builtinModules.has("mpm_event"), facts24.modules.has("mod_mpm_event.so")]).toEqual([false, true]);
  });

  it("lists the module files the recorded official images have (as their stock configs name them)", () => {
    for (const [family, version] of [["2.2", "2.2.34"], ["2.4", "2.4.62"]] as const) {
      const listed = officialDefaults("x", httpdVersion(version)).modules;
      const recorded = builtModules(family);
      expect({ family, missing: [...recorded].filter((file) => !listed.has(file)) }).toEqual({ family, missing: [] });
    }
  });

  it("can load the minimal base of each line", () => {
    for (const family of FAMILIES) {
      const facts = officialDefaults("x", httpdVersion(`${family}.1`));
      const { missing } = resolveModules(FAMILY_TRAITS[family].baseModules, family, facts.modules, "/m", facts.builtinModules);
      expect({ family, missing }).toEqual({ family, missing: [] });
    }
  });
});

describe("offlineFacts", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "offline-facts-"));
    vi.stubEnv("HARNESS_CACHE_DIR", dir);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const inspected = (image: string, version: string): ImageInspection => ({
    image,
    profile: OFFICIAL_PROFILE,
    version: httpdVersion(version),
    modules: new Set(["mod_status.so"]),
    builtinModules: new Set(["so"]),
    stockConfig: "# the image's own\n",
    source: "inspected",
  });

  it("takes the last inspection from the cache when there is one", () => {
    rememberInspection(inspected("httpd:2.4", "2.4.66"));
    expect(offlineFacts("httpd:2.4", null)).toEqual({ ...inspected("httpd:2.4", "2.4.66"), source: "cache" });
  });

  it("takes the cached inspection when it is of the version asked for", () => {
    rememberInspection(inspected("httpd:2.4", "2.4.66"));
    expect(offlineFacts("httpd:2.4", httpdVersion("2.4.66")).source).toBe("cache");
  });

  it("takes the defaults of the version asked for over a cached inspection of another version", () => {
    rememberInspection(inspected("httpd:2.4", "2.4.66"));
    expect(offlineFacts("httpd:2.4", httpdVersion("2.4.68"))).toEqual(officialDefaults("httpd:2.4", httpdVersion("2.4.68")));
  });

  it("reads the version from a tag that names a full version when nothing is cached", () => {
    expect(offlineFacts("httpd:2.2.34", null)).toEqual(officialDefaults("httpd:2.2.34", httpdVersion("2.2.34")));
    expect(offlineFacts("registry.example:5000/httpd:2.4.62", null).version.text).toBe("2.4.62");
  });

  it("takes an explicit version over the tag's", () => {
    expect(offlineFacts("httpd:2.2.34", httpdVersion("2.2.31"))).toEqual(officialDefaults("httpd:2.2.34", httpdVersion("2.2.31")));
    expect(offlineFacts("httpd:2.4", httpdVersion("2.4.68"))).toEqual(officialDefaults("httpd:2.4", httpdVersion("2.4.68")));
  });

  it("refuses with HARNESS_USAGE when nothing is cached and the tag names no full version", () => {
    for (const image of ["httpd:2.4", "httpd", "httpd:latest", "httpd:2.0.65"]) {
      const error = caught(() => offlineFacts(image, null));
      expect(error).toMatchObject({
        code: "HARNESS_USAGE",
        message: `No inspection of ${image} is cached and its tag names no httpd 2.2 or 2.4 version (major.minor.patch).`,
        hint: expect.stringContaining("--versions 2.2.34,2.4.68"),
      });
    }
  });
});
