import { describe, expect, it } from "vitest";
import { FAMILIES, compareVersions, familyOf, httpdVersion, isFamily, parseHttpdVersion } from "../../../harness/versions/httpd-version.ts";

describe("familyOf", () => {
  it("places 2.2 and 2.4", () => {
    expect([familyOf(2, 2), familyOf(2, 4)]).toEqual(["2.2", "2.4"]);
  });

  it("places no other release line, and does not read 2.40 or 2.24 as 2.4", () => {
    expect([familyOf(2, 0), familyOf(1, 3), familyOf(2, 40), familyOf(2, 24), familyOf(3, 0), familyOf(24, 0)]).toEqual([null, null, null, null, null, null]);
  });

  it("knows exactly the families of FAMILIES", () => {
    expect(FAMILIES).toEqual(["2.2", "2.4"]);
    expect(["2.2", "2.4", "2.0", "2.40", "", "2"].map(isFamily)).toEqual([true, true, false, false, false, false]);
  });
});

describe("parseHttpdVersion", () => {
  it("places 2.2.x and 2.4.x versions", () => {
    expect(["2.2.34", "2.2.0", "2.4.62", "2.4.1"].map((text) => parseHttpdVersion(text)?.family)).toEqual(["2.2", "2.2", "2.4", "2.4"]);
  });

  it("reads the banner httpd -v prints", () => {
    expect(parseHttpdVersion("Apache/2.4.62 (Unix)")).toEqual({ text: "2.4.62", major: 2, minor: 4, patch: 62, family: "2.4", build: null });
    expect(parseHttpdVersion("Server version: Apache/2.2.34 (Unix)")).toEqual({ text: "2.2.34", major: 2, minor: 2, patch: 34, family: "2.2", build: null });
  });

  it("keeps Debian's package revision as the build, out of the version text", () => {
    expect(parseHttpdVersion("2.4.62-1~deb11u1")).toEqual({ text: "2.4.62", major: 2, minor: 4, patch: 62, family: "2.4", build: "-1~deb11u1" });
    expect(parseHttpdVersion("Apache/2.4.62-1~deb11u1 (Debian)")?.build).toBe("-1~deb11u1");
  });

  it("places no other version, and nothing that is not a full version", () => {
    expect(["2.0.65", "1.3.42", "3.0.0", "2.40.1", "2.24.0", "2.4", "", "httpd"].map(parseHttpdVersion)).toEqual([
      null, null, null, null, null, null, null, null,
    ]);
  });
});

describe("httpdVersion", () => {
  it("is parseHttpdVersion for text that holds a version", () => {
    expect(httpdVersion("2.4.68")).toEqual(parseHttpdVersion("2.4.68"));
  });

  it("throws naming the text when it holds none", () => {
    expect(() => httpdVersion("2.0.65")).toThrow('not an httpd 2.2 or 2.4 version: "2.0.65"');
    expect(() => httpdVersion("")).toThrow('not an httpd 2.2 or 2.4 version: ""');
  });
});

describe("compareVersions", () => {
  it("orders by major, minor, then patch, numerically", () => {
    const v = httpdVersion;
    expect([
      Math.sign(compareVersions(v("2.4.62"), v("2.4.63"))),
      Math.sign(compareVersions(v("2.4.63"), v("2.4.62"))),
      Math.sign(compareVersions(v("2.4.9"), v("2.4.10"))),
      Math.sign(compareVersions(v("2.2.34"), v("2.4.1"))),
      compareVersions(v("2.4.62-1~deb11u1"), v("2.4.62")),
    ]).toEqual([-1, 1, -1, -1, 0]);
  });
});
