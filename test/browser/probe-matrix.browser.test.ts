// Opens a probe run's HTML report in a real Chromium and checks the cell matrix as a reader sees it: the summary
// link finds it in its closed scenario, cells are coloured by class, a counterexample opens over the matrix to
// both answers and the deciding lines, and a matrix too large for a screen scrolls in its own box.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportProbes } from "../../harness/report/build-report.ts";
import { renderHtmlReport } from "../../harness/report/html-report.ts";
import { PROBE_CELLS, probeReport } from "../unit/report/probe-report.ts";
import { launchChromium } from "./chromium.ts";

const MATRIX = 'section[data-probe-matrix="p1-probe-config"]';

describe("the cell matrix in Chromium", { timeout: 60_000 }, () => {
  let workDir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "probe-matrix-"));
    const report = probeReport();
    // Closed, as a scenario that is no regression is: the summary's link must still reach the matrix.
    report.scenarios = report.scenarios.map((s) => (s.id === "p1-probe-config" ? { ...s, verdict: "same" } : s));
    const large = structuredClone(report);
    const p1 = large.scenarios.at(-1)!;
    p1.probes = reportProbes(Array.from({ length: 70 * 45 }, (_, i) => ({ ...PROBE_CELLS[i % PROBE_CELLS.length]!, cell: `c${i}`, client: `10.${i % 70}.0.0/16`, region: `<Directory /srv/r${Math.floor(i / 70)}>` })));
    await writeFile(join(workDir, "report.html"), renderHtmlReport(report));
    await writeFile(join(workDir, "large.html"), renderHtmlReport(large));
    context = await launchChromium(join(workDir, "profile"), { width: 1400, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(pathToFileURL(join(workDir, "report.html")).href);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("is reached from the summary's link, which opens its scenario", async () => {
    await expect(page.locator(MATRIX).isVisible()).resolves.toBe(false);
    await page.locator('[data-probe-link="p1-probe-config"] a').click();
    await expect(page.locator(MATRIX).isVisible()).resolves.toBe(true);
  });

  it("colours cells by class: equal green, widened red with its security mark, unprobed dashed", async () => {
    const style = (cls: string) =>
      page.locator(`${MATRIX} [data-cell-class="${cls}"]`).first().evaluate((el) => {
        const s = getComputedStyle(el);
        return { background: s.backgroundColor, border: s.borderTopStyle };
      });
    expect((await style("equal")).background).toBe("rgb(200, 230, 201)");
    expect((await style("widened")).background).toBe("rgb(255, 205, 210)");
    expect((await style("unprobed")).border).toBe("dashed");
    await expect(page.locator(`${MATRIX} [data-cell-class="widened"] .sec`).first().isVisible()).resolves.toBe(true);
  });

  it("opens a widened cell over the matrix to both answers and the deciding lines, without moving the matrix", async () => {
    const table = page.locator(`${MATRIX} table.probe-matrix`);
    const before = await table.boundingBox();
    const cell = page.locator(`${MATRIX} details[data-cell-class="widened"]`).first();
    await cell.locator("summary").click();
    const panel = cell.locator(".pc-open");
    await expect(panel.isVisible()).resolves.toBe(true);
    await expect(panel.locator('[data-side="baseline"]').innerText()).resolves.toContain("denied 403");
    await expect(panel.locator('[data-side="candidate"]').innerText()).resolves.toContain("served 200");
    await expect(panel.locator('[data-deciding="access-widened"]').innerText()).resolves.toContain("sites-enabled/admin.conf:7 Require all granted");
    expect(await table.boundingBox()).toEqual(before);
    // Nothing hides the panel: the element on top at its centre is inside it.
    const onTop = await panel.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
    expect(onTop).toBe(true);
  });

  it("scrolls a large matrix in its own box, the headings in view", async () => {
    const large = await context.newPage();
    try {
      await large.goto(`${pathToFileURL(join(workDir, "large.html")).href}#cells-p1-probe-config`);
      const box = large.locator(`${MATRIX} .probe-scroll`);
      const sizes = await box.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight, clientWidth: el.clientWidth, scrollWidth: el.scrollWidth }));
      expect(sizes.scroll).toBeGreaterThan(sizes.client);
      expect(sizes.scrollWidth).toBeGreaterThan(sizes.clientWidth);
      await box.evaluate((el) => el.scrollTo(2000, 1000));
      const heading = await large.locator(`${MATRIX} thead th[data-column]`).nth(20).evaluate((el) => el.getBoundingClientRect().top);
      const top = await box.evaluate((el) => el.getBoundingClientRect().top);
      expect(Math.abs(heading - top)).toBeLessThan(3);
    } finally {
      await large.close();
    }
  });
});
