// Opens the HTML report in a real Chromium and checks what a reader sees: one row per scenario, coloured verdict
// badges, baseline and candidate side by side, difference rows with their class, the CSS-only verdict filter.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../harness/report/html-report.ts";
import { VERDICTS } from "../../harness/judge/verdicts.ts";
import { sampleReport } from "../fixtures/reports/sample-report.ts";
import { launchChromium } from "./chromium.ts";

/** Kept for a human look beside the test run's other reports (reports/ is the run's, and not in git). */
const SCREENSHOT = fileURLToPath(new URL("../../reports/html-report.png", import.meta.url));
const REGRESSION_ID = "q6-satisfy-any-ip-or-user";
const VIEWPORT = { width: 1400, height: 900 };
const REGRESSION_RED = [198, 40, 40];

describe("HTML report in Chromium", { timeout: 60_000 }, () => {
  let workDir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "html-report-"));
    const file = join(workDir, "report.html");
    await writeFile(file, renderHtmlReport(sampleReport));
    context = await launchChromium(join(workDir, "profile"), VIEWPORT);
    page = context.pages()[0] ?? (await context.newPage());
    // Nothing may be fetched: the report is self-contained.
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    expect(requests).toEqual([pathToFileURL(file).href]);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("renders one row per scenario", async () => {
    await expect(page.locator("[data-scenario-id]").count()).resolves.toBe(sampleReport.scenarios.length);
    for (const scenario of sampleReport.scenarios) {
      await expect(page.locator(`[data-scenario-id="${scenario.id}"] > summary`).isVisible()).resolves.toBe(true);
    }
  });

  it("shows the regression row with a badge coloured differently from a same row", async () => {
    const regression = page.locator(`[data-scenario-id="${REGRESSION_ID}"] > summary`);
    await expect(regression.isVisible()).resolves.toBe(true);
    const regressionBadge = regression.locator(".badge");
    await expect(regressionBadge.textContent()).resolves.toBe("regression");
    const sameBadge = page.locator('[data-verdict="same"] > summary .badge').first();
    const background = (locator: typeof sameBadge) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [red, green] = await Promise.all([background(regressionBadge), background(sameBadge)]);
    expect(red).toBe("rgb(198, 40, 40)");
    expect(green).not.toBe(red);
  });

  it("puts baseline and candidate of a request next to each other", async () => {
    const request = page.locator(`[data-scenario-id="${REGRESSION_ID}"] .request`).first();
    const baseline = await request.locator('.sides > [data-side="baseline"]').boundingBox();
    const candidate = await request.locator('.sides > [data-side="candidate"]').boundingBox();
    if (baseline === null || candidate === null) throw new Error("a side panel is not rendered");
    expect(Math.abs(baseline.y - candidate.y)).toBeLessThan(1);
    expect(baseline.x + baseline.width).toBeLessThanOrEqual(candidate.x);
    expect(baseline.width).toBeGreaterThan(200);
  });

  it("shows each difference row with its class", async () => {
    const rows = page.locator(`[data-scenario-id="${REGRESSION_ID}"] tr.difference`);
    await expect(rows.count()).resolves.toBe(2);
    for (const row of await rows.all()) {
      const cls = await row.getAttribute("data-class");
      await expect(row.locator(".badge").textContent()).resolves.toBe(cls);
      await expect(row.locator(".badge").isVisible()).resolves.toBe(true);
    }
    // The differing status is highlighted in the candidate panel, not in plain text.
    const status = page.locator(`[data-scenario-id="${REGRESSION_ID}"] [data-side="candidate"] [data-field="status"]`).first();
    await expect(status.getAttribute("data-class")).resolves.toBe("regression");
    const outline = await status.evaluate((el) => getComputedStyle(el).outlineColor);
    expect(outline).toBe("rgb(198, 40, 40)");
  });

  it("shows the escaped <script> as text and runs no script", async () => {
    await expect(page.locator("script").count()).resolves.toBe(0);
    const message = page
      .locator(`[data-scenario-id="${REGRESSION_ID}"] [data-request="missing file with markup in the path"] .log .message`)
      .first();
    await expect(message.textContent()).resolves.toBe("File does not exist: /usr/local/apache2/htdocs/<script>alert(1)</script>");
  });

  it("shows the summary counts, the regression row and the verdict filter, and screenshots them", async () => {
    const { summary } = sampleReport;
    const summaryText = await page.locator("section.summary").innerText();
    expect(summaryText).toContain(`${summary.scenarios} scenarios in `);
    expect(summaryText).toContain(`${summary.regressions} regression`);
    for (const verdict of VERDICTS) {
      const count = page.locator(`section.summary [data-count="${verdict}"]`);
      await expect(count.isVisible()).resolves.toBe(true);
      await expect(count.innerText()).resolves.toMatch(new RegExp(`^${summary.byVerdict[verdict]}\\s*${verdict}$`));
    }
    const regressionRow = await page.locator(`[data-scenario-id="${REGRESSION_ID}"] > summary`).innerText();
    expect(regressionRow).toContain(REGRESSION_ID);
    expect(regressionRow).toMatch(/regression\s*$/);
    const filterText = await page.locator("nav.filter").innerText();
    expect(filterText).toContain(`all (${sampleReport.scenarios.length})`);
    for (const verdict of VERDICTS) {
      await expect(page.locator(`#show-${verdict}`).isVisible()).resolves.toBe(true);
      expect(filterText).toContain(`${verdict} (${summary.byVerdict[verdict]})`);
    }

    // The full-page screenshot (kept for a human look) is a PNG of the whole page, taller than the window...
    const png = await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
    expect(pngSize(png)).toEqual(size);
    expect(size.width).toBe(VIEWPORT.width);
    expect(size.height).toBeGreaterThan(VIEWPORT.height);
    // ...that shows the page: the regression count's red badge where the DOM puts it, and more than a few colours.
    const badge = await page.locator('section.summary [data-count="regression"] .badge').evaluate((el) => {
      const box = el.getBoundingClientRect();
      return { x: box.left + window.scrollX, y: box.top + window.scrollY, width: box.width, height: box.height };
    });
    const pixels = await decodePng(context, png, badge);
    expect(pixels.colours).toBeGreaterThan(100);
    expect(pixels.shareOf(REGRESSION_RED)).toBeGreaterThan(0.4);
  });

  it("filters by verdict without JavaScript", async () => {
    await page.locator("#show-regression").check();
    const visible = await page.locator("[data-scenario-id]").evaluateAll((elements) =>
      elements.filter((el) => (el as HTMLElement).offsetParent !== null).map((el) => el.getAttribute("data-scenario-id")),
    );
    expect(visible).toEqual([REGRESSION_ID]);
    await page.locator("#show-all").check();
    await expect(page.locator("[data-scenario-id]:visible").count()).resolves.toBe(sampleReport.scenarios.length);
  });
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Width and height from a PNG's IHDR chunk (after the 8-byte signature and the chunk's length and type). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes the screenshot in a page of its own: how many colours the whole image has, and the share of the
 * pixels inside `box` that are exactly a given colour. */
async function decodePng(context: BrowserContext, png: Buffer, box: Box) {
  const viewer = await context.newPage();
  try {
    const result = await viewer.evaluate(
      async ({ base64, box }: { base64: string; box: Box }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const g = canvas.getContext("2d");
        if (g === null) throw new Error("no 2d canvas");
        g.drawImage(image, 0, 0);
        const all = g.getImageData(0, 0, canvas.width, canvas.height).data;
        const colours = new Set<number>();
        for (let i = 0; i < all.length; i += 4) colours.add((all[i]! << 16) | (all[i + 1]! << 8) | all[i + 2]!);
        const inside = g.getImageData(Math.round(box.x), Math.round(box.y), Math.floor(box.width), Math.floor(box.height)).data;
        const counts: Record<string, number> = {};
        for (let i = 0; i < inside.length; i += 4) {
          const key = `${inside[i]},${inside[i + 1]},${inside[i + 2]}`;
          counts[key] = (counts[key] ?? 0) + 1;
        }
        return { colours: colours.size, counts, pixels: inside.length / 4 };
      },
      { base64: png.toString("base64"), box },
    );
    return { colours: result.colours, shareOf: (rgb: number[]) => (result.counts[rgb.join(",")] ?? 0) / result.pixels };
  } finally {
    await viewer.close();
  }
}
