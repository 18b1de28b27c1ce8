// Opens the HTML report in a real Chromium and checks what a reader sees: one row per scenario, coloured verdict
// badges, baseline and candidate side by side, difference rows with their class, the CSS-only verdict filter.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../harness/report/html-report.ts";
import { sampleReport } from "../fixtures/reports/sample-report.ts";
import { CHROMIUM_ARGS, findChromium } from "./chromium.ts";

const SCREENSHOT = "/tmp/html-report.png";
const REGRESSION_ID = "q6-satisfy-any-ip-or-user";

describe("HTML report in Chromium", { timeout: 60_000 }, () => {
  let workDir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "html-report-"));
    const file = join(workDir, "report.html");
    await writeFile(file, renderHtmlReport(sampleReport));
    // A persistent context is Playwright's way to pass a fresh --user-data-dir of our choosing.
    context = await chromium.launchPersistentContext(join(workDir, "profile"), {
      executablePath: findChromium(),
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1400, height: 900 },
      offline: true,
    });
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

  it("takes a screenshot for a human look", async () => {
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
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
