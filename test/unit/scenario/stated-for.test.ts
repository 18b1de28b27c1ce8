import { describe, expect, it } from "vitest";
import { parseScenario } from "../../../harness/scenario/load-scenario.ts";
import type { ByFamily } from "../../../harness/scenario/scenario.ts";
import { single, statedFor } from "../../../harness/scenario/stated-for.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { parseVersionRange, type VersionRange } from "../../../harness/versions/version-range.ts";

function range(text: string): VersionRange {
  const parsed = parseVersionRange(text);
  if (parsed === null) throw new Error(text);
  return parsed;
}

const STATED: ByFamily<string> = {
  "2.4": {
    ranges: [
      { range: range(">=2.4.63"), value: "from 2.4.63" },
      { range: range(">=2.4.60 <2.4.64"), value: "2.4.60 to 2.4.63" },
    ],
    otherwise: "before 2.4.60",
  },
};

describe("statedFor", () => {
  it("picks the first range that holds the version, in the order written", () => {
    // 2.4.63 is in both ranges: the first wins.
    expect(["2.4.63", "2.4.70", "2.4.60", "2.4.62"].map((v) => statedFor(STATED, httpdVersion(v)))).toEqual([
      "from 2.4.63",
      "from 2.4.63",
      "2.4.60 to 2.4.63",
      "2.4.60 to 2.4.63",
    ]);
  });

  it("falls back to what the family states otherwise when no range holds", () => {
    expect([statedFor(STATED, httpdVersion("2.4.59")), statedFor(STATED, httpdVersion("2.4.1"))]).toEqual(["before 2.4.60", "before 2.4.60"]);
  });

  it("states nothing for a family the scenario does not state, or a version no range holds and no default covers", () => {
    expect(statedFor(STATED, httpdVersion("2.2.34"))).toBeUndefined();
    const onlyRanges: ByFamily<string> = { "2.4": { ranges: [{ range: range(">=2.4.63"), value: "new" }], otherwise: undefined } };
    expect([statedFor(onlyRanges, httpdVersion("2.4.63")), statedFor(onlyRanges, httpdVersion("2.4.62"))]).toEqual(["new", undefined]);
    expect(statedFor({}, httpdVersion("2.4.62"))).toBeUndefined();
  });

  it("reads a Debian build as its upstream version", () => {
    expect(statedFor(STATED, httpdVersion("2.4.62-1~deb11u1"))).toBe("2.4.60 to 2.4.63");
  });

  it("picks from what a scenario file states", () => {
    const scenario = parseScenario(
      'id: t\ntitle: T\nexpect:\n  "2.2": { started: true }\n  "2.4":\n    "<2.4.63": { started: false }\n    default: { started: true, configTest: ok }\n',
      "t.scenario.yaml",
    );
    const started = (version: string) => {
      const stated = statedFor(scenario.expect, httpdVersion(version));
      return stated === undefined ? undefined : [stated.started, stated.configTestOk];
    };
    expect([started("2.2.34"), started("2.4.62"), started("2.4.63"), started("2.4.68")]).toEqual([
      [true, undefined],
      [false, undefined],
      [true, true],
      [true, true],
    ]);
  });
});

describe("single", () => {
  it("is one statement for the whole family", () => {
    expect(single("x")).toEqual({ ranges: [], otherwise: "x" });
    expect(statedFor({ "2.2": single("x") }, httpdVersion("2.2.34"))).toBe("x");
  });
});
