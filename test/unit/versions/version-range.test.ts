import { describe, expect, it } from "vitest";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { inRange, looksLikeVersionRange, parseVersionRange } from "../../../harness/versions/version-range.ts";

describe("parseVersionRange", () => {
  it("reads one bound, with = when no comparator is written", () => {
    expect(parseVersionRange(">=2.4.63")).toEqual({ text: ">=2.4.63", bounds: [{ op: ">=", major: 2, minor: 4, patch: 63 }] });
    expect(parseVersionRange("<2.4.63")).toEqual({ text: "<2.4.63", bounds: [{ op: "<", major: 2, minor: 4, patch: 63 }] });
    expect(parseVersionRange("2.4.62")).toEqual({ text: "2.4.62", bounds: [{ op: "=", major: 2, minor: 4, patch: 62 }] });
  });

  it("reads space-separated bounds that must all hold", () => {
    expect(parseVersionRange(" >=2.4.60   <2.4.63 ")).toEqual({
      text: ">=2.4.60 <2.4.63",
      bounds: [
        { op: ">=", major: 2, minor: 4, patch: 60 },
        { op: "<", major: 2, minor: 4, patch: 63 },
      ],
    });
  });

  it("is null for anything that is not a range", () => {
    expect(["", "   ", ">=2.4", "2.4", "~2.4.63", ">= 2.4.63", "2.4.63 or 2.4.64", "default", "=>2.4.63", "2.4.x"].map(parseVersionRange)).toEqual([
      null, null, null, null, null, null, null, null, null, null,
    ]);
  });

  it("tells text that looks like a range from other keys", () => {
    expect([">=2.4.63", "2.4.62", "<2.4", "default", "status"].map(looksLikeVersionRange)).toEqual([true, true, true, false, false]);
  });
});

describe("inRange", () => {
  const holds = (range: string, versions: string[]): boolean[] => {
    const parsed = parseVersionRange(range);
    if (parsed === null) throw new Error(range);
    return versions.map((version) => inRange(httpdVersion(version), parsed));
  };

  it("holds >=2.4.63 from 2.4.63 up", () => {
    expect(holds(">=2.4.63", ["2.4.62", "2.4.63", "2.4.64", "2.4.100"])).toEqual([false, true, true, true]);
  });

  it("holds <2.4.63 below it only", () => {
    expect(holds("<2.4.63", ["2.4.9", "2.4.62", "2.4.63", "2.4.64"])).toEqual([true, true, false, false]);
  });

  it("holds a bare version for that version only, whatever the build", () => {
    expect(holds("2.4.62", ["2.4.61", "2.4.62", "2.4.62-1~deb11u1", "2.4.63"])).toEqual([false, true, true, false]);
  });

  it("holds every bound of >=2.4.60 <2.4.63", () => {
    expect(holds(">=2.4.60 <2.4.63", ["2.4.59", "2.4.60", "2.4.62", "2.4.63"])).toEqual([false, true, true, false]);
  });

  it("holds > and <= as written", () => {
    expect(holds(">2.4.62", ["2.4.62", "2.4.63"])).toEqual([false, true]);
    expect(holds("<=2.4.62", ["2.4.62", "2.4.63"])).toEqual([true, false]);
  });
});
