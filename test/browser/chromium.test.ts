import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CHROMIUM, findChromium, launchChromium } from "./chromium.ts";

const present = (): void => {};
const absent = (path: string): void => {
  throw new Error(`ENOENT: ${path}`);
};

describe("findChromium", () => {
  it("prefers HARNESS_CHROMIUM", () => {
    expect(findChromium({ HARNESS_CHROMIUM: "/opt/chromium/chrome" }, present)).toBe("/opt/chromium/chrome");
  });

  it("explains what to do when HARNESS_CHROMIUM names nothing", () => {
    expect(() => findChromium({ HARNESS_CHROMIUM: "/nonexistent/chromium" })).toThrow(
      /Chromium not found: \/nonexistent\/chromium \(from HARNESS_CHROMIUM\)[\s\S]*apt-get install -y chromium/,
    );
  });

  it("falls back to Debian's path when HARNESS_CHROMIUM is unset or empty", () => {
    expect(findChromium({}, present)).toBe(DEFAULT_CHROMIUM);
    expect(findChromium({ HARNESS_CHROMIUM: "" }, present)).toBe(DEFAULT_CHROMIUM);
    expect(() => findChromium({}, absent)).toThrow(`Chromium not found: ${DEFAULT_CHROMIUM} (from the default path)`);
  });
});

// No skip: without a Chromium this fails, and so does the HTML report test.
describe("the Chromium of this machine", () => {
  it("runs and renders a page", async () => {
    const profile = await mkdtemp(join(tmpdir(), "chromium-check-"));
    try {
      const context = await launchChromium(profile);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const { product } = await (await context.newCDPSession(page)).send("Browser.getVersion");
        expect(product).toMatch(/Chrom\w*\/\d+\./);
        await page.setContent("<p id=check>rendered</p>");
        await expect(page.locator("#check").textContent()).resolves.toBe("rendered");
      } finally {
        await context.close();
      }
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
  });
});
