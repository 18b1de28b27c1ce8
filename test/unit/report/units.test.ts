import { describe, expect, it } from "vitest";
import { decimalSeconds, plural, seconds } from "../../../harness/report/units.ts";

describe("plural", () => {
  it("adds an s to every count but one", () => {
    expect([0, 1, 2].map((n) => plural(n, "scenario"))).toEqual(["0 scenarios", "1 scenario", "2 scenarios"]);
  });
});

describe("seconds", () => {
  it("gives tenths with a unit for readers, and milliseconds as a bare number for JUnit", () => {
    expect(seconds(41_812)).toBe("41.8 s");
    expect(seconds(0)).toBe("0.0 s");
    expect(decimalSeconds(41_812)).toBe("41.812");
    expect(decimalSeconds(5)).toBe("0.005");
  });
});
