import { describe, expect, it } from "vitest";
import { keyHint, pathPattern } from "../../../harness/scenario/key-hints.ts";

describe("pathPattern", () => {
  it("generalises indices, versions, file paths and header names", () => {
    expect(pathPattern(["requests", 3, "expect", "2.4", "headers", "ETag"])).toBe("requests[].expect.*.headers.<name>");
    expect(pathPattern(["server", "files", "htdocs/a.html", "mode"])).toBe("server.files.<path>.mode");
    expect(pathPattern(["server", "modules", "2.2", 0])).toBe("server.modules.*[]");
  });
});

describe("keyHint", () => {
  it("tells the request headers list from the expected headers map", () => {
    expect(keyHint(["requests", 0, "headers", 1])?.expected).toBe('"Name: value"');
    expect(keyHint(["requests", 0, "expect", "both", "headers"])?.expected).toContain("map of header name");
  });

  it("has a hint for the top level and undefined for nonsense", () => {
    expect(keyHint([])?.expected).toContain("id and title");
    expect(keyHint(["nonsense"])).toBeUndefined();
  });
});
