import { describe, expect, it } from "vitest";
import { DEFAULT_CHROMIUM, findChromium } from "./chromium.ts";

describe("findChromium", () => {
  it("prefers HARNESS_CHROMIUM and explains what to do when it is missing", () => {
    expect(() => findChromium({ HARNESS_CHROMIUM: "/nonexistent/chromium" })).toThrow(
      /Chromium not found: \/nonexistent\/chromium \(from HARNESS_CHROMIUM\)[\s\S]*apt-get install -y chromium/,
    );
  });

  it("falls back to Debian's path", () => {
    let found: string | undefined;
    try {
      found = findChromium({});
    } catch (error) {
      expect(String(error)).toContain(DEFAULT_CHROMIUM);
      return;
    }
    expect(found).toBe(DEFAULT_CHROMIUM);
  });
});
