import { describe, expect, it } from "vitest";
import { FAMILY_TRAITS } from "../../../harness/server/family-traits.ts";
import { FAMILIES } from "../../../harness/versions/httpd-version.ts";
import { resolveModules } from "../../../harness/server/module-map.ts";
import { LINES, builtModules } from "../../fixtures/observations/recorded.ts";

describe("FAMILY_TRAITS", () => {
  it("has every base module of each line in the recorded image of that line", () => {
    for (const family of ["2.2", "2.4"] as const) {
      const { missing } = resolveModules(FAMILY_TRAITS[family].baseModules, family, builtModules(family), "/m");
      expect({ family, missing }).toEqual({ family, missing: [] });
    }
  });

  it("recognises each version's recorded ready line and nothing before it", () => {
    for (const family of ["2.2", "2.4"] as const) {
      const lines = LINES.startup[family];
      expect(lines.map((line) => FAMILY_TRAITS[family].readyLog.test(line))).toEqual(lines.map((line) => line.includes("resuming normal operations")));
      expect(lines.filter((line) => FAMILY_TRAITS[family].readyLog.test(line))).toHaveLength(1);
    }
  });

  it("has traits for every family the versions module knows, and no other", () => {
    expect(Object.keys(FAMILY_TRAITS).sort()).toEqual([...FAMILIES].sort());
    for (const family of FAMILIES) expect(FAMILY_TRAITS[family].family).toBe(family);
  });

  it("reads each line's log in its own dialect", () => {
    expect([FAMILY_TRAITS["2.2"].logDialect, FAMILY_TRAITS["2.4"].logDialect]).toEqual(["2.2", "2.4"]);
  });
});
