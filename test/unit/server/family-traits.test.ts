import { describe, expect, it } from "vitest";
import { FAMILY_TRAITS, familyOf } from "../../../harness/server/family-traits.ts";
import { resolveModules } from "../../../harness/server/module-map.ts";
import { LINES, builtModules } from "../../fixtures/observations/recorded.ts";

describe("familyOf", () => {
  it("places 2.2.x and 2.4.x versions", () => {
    expect(["2.2.34", "2.2.0", "2.4.62", "2.4.1"].map(familyOf)).toEqual(["2.2", "2.2", "2.4", "2.4"]);
  });

  it("places no other version, and does not read 2.40 as 2.4", () => {
    expect(["2.0.65", "1.3.42", "2.40.1", "2.24.0", "2.4", "3.0.0", "", "v2.4.62"].map(familyOf)).toEqual([null, null, null, null, null, null, null, null]);
  });
});

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

  it("reads each line's log in its own dialect", () => {
    expect([FAMILY_TRAITS["2.2"].logDialect, FAMILY_TRAITS["2.4"].logDialect]).toEqual(["2.2", "2.4"]);
  });
});
