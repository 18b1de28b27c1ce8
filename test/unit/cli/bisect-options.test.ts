import { describe, expect, it } from "vitest";
import { parseImageList } from "../../../harness/cli/bisect-command.ts";

describe("bisect --images", () => {
  it("is an ordered, comma-separated list of two images or more, recipe:ID allowed", () => {
    expect(parseImageList("recipe:httpd-2.4.67, recipe:httpd-2.4,httpd:2.4.71")).toEqual(["recipe:httpd-2.4.67", "recipe:httpd-2.4", "httpd:2.4.71"]);
  });

  it("is bad input when missing, of one image, with an empty entry or an unknown recipe", () => {
    for (const value of [undefined, "httpd:2.4", "a,,b", "recipe:httpd-9,httpd:2.4"]) {
      expect(() => parseImageList(value), String(value)).toThrow(expect.objectContaining({ code: "HARNESS_USAGE" }));
    }
  });
});
