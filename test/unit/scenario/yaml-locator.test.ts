import { LineCounter, parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { YamlLocator } from "../../../harness/scenario/yaml-locator.ts";

const FILE = "t.scenario.yaml";

function locator(text: string): YamlLocator {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  return new YamlLocator(text, doc, lineCounter, FILE);
}

const TEXT = [
  "id: x", // 1
  "requests:", // 2
  "  - name: a", // 3
  "    expect:", // 4
  "      2.4: { status: 403 }", // 5
  "    empty:", // 6
  "base: &b { k: v }", // 7
  "copy: *b", // 8
  "block: |", // 9
  "  line ${x}", // 10
  "",
].join("\n");

describe("YamlLocator", () => {
  it("finds a nested value, matching a numeric YAML key by its text", () => {
    expect(locator(TEXT).position(["requests", 0, "expect", "2.4", "status"])).toEqual({ file: FILE, line: 5, column: 22 });
  });

  it("points at the deepest existing map for a missing key", () => {
    expect(locator(TEXT).position(["requests", 0, "expect", "2.2"])).toEqual({ file: FILE, line: 5, column: 7 });
    expect(locator(TEXT).position(["nothing"])).toEqual({ file: FILE, line: 1, column: 1 });
  });

  it("points at the key when the value is empty", () => {
    expect(locator(TEXT).position(["requests", 0, "empty"])).toEqual({ file: FILE, line: 6, column: 5 });
  });

  it("gives the key's position for keyPosition", () => {
    expect(locator(TEXT).keyPosition(["requests", 0, "expect"])).toEqual({ file: FILE, line: 4, column: 5 });
  });

  it("follows aliases", () => {
    expect(locator(TEXT).position(["copy", "k"])).toEqual({ file: FILE, line: 7, column: 15 });
  });

  it("returns a scalar's source text and offset", () => {
    const source = locator(TEXT).scalarSource(["block"]);
    expect(source?.text).toBe("|\n  line ${x}\n");
    expect(locator(TEXT).offsetPosition((source?.offset ?? 0) + (source?.text.indexOf("${x}") ?? 0))).toEqual({
      file: FILE,
      line: 10,
      column: 8,
    });
    expect(locator(TEXT).scalarSource(["requests"])).toBeNull();
  });
});
