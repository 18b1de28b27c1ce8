// Needs a real httpd 2.2 image (HTTPD_BASELINE_IMAGE); no registry here has one, so without it these
// tests report themselves skipped with the reason.
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

const serverStatus = readFileSync(new URL("../../../scenarios/catalogue/authz/server-status-directory-deny.scenario.yaml", import.meta.url), "utf8");

describe("httpd 2.2 against 2.4", { timeout: 240_000 }, () => {
  it("shows 2.2's denial line without a code next to 2.4's AH01797 for the server-status case", async (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    const { reports } = await runYamlScenarios([serverStatus], { baseline: images.baseline });
    const report = reports[0]!;
    expect(report.servers.baseline?.family).toBe("2.2");
    const request = report.requests.find((r) => r.name === "server-status")!;
    expect(request.baseline!.status).toBe(403);
    expect(request.baseline!.errorLog).toEqual([
      expect.objectContaining({ code: null, level: "error", event: "AH01797", message: "client denied by server configuration: /usr/local/apache2/htdocs/server-status" }),
    ]);
    expect(request.candidate!.errorLog).toEqual([expect.objectContaining({ code: "AH01797", module: "access_compat" })]);
    // the same event on both versions: no error-log difference
    expect(request.differences.filter((d) => d.field === "errorLog")).toEqual([]);
    expect(report.expectations.baseline).toMatchObject({ ok: true, stated: true });
  });
});
