// An operator's own 2.4 port runs on the candidate while the original runs on the baseline (run --config X
// --candidate-config Y). The port is taken as written for 2.4: the harness carries none of its module lines.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { runTrees } from "../../helpers/run-trees.ts";

const ORIGINAL = fileURLToPath(new URL("../../../configs/name-vhosts", import.meta.url));
const PORT = fileURLToPath(new URL("../../fixtures/conf/ports/name-vhosts-24", import.meta.url));
const INTRANET = "GET http://intranet.example.org:80/";

describe("a hand port on the candidate, the original on the baseline", { timeout: 300_000 }, () => {
  let report: ReportScenario;

  beforeAll(async () => {
    report = [...(await runTrees([ORIGINAL], { candidateConfigs: [PORT] })).values()][0]!;
  }, 300_000);

  it("boots the port as written on 2.4: no module line carried, no 2.2 warning left", () => {
    const tree = report.servers.candidate!.tree!;
    expect(tree.origin).toBe(PORT);
    expect(tree.adaptations.filter((a) => a.kind.startsWith("module-"))).toEqual([]);
    expect(report.configTest.candidate).toMatchObject({ ok: true, messages: ["Syntax OK"] });
    expect(report.servers.candidate?.started).toBe(true);
  });

  it("denies the intranet host from outside with mod_authz_core's line, from the vhost's own (captured) log", () => {
    const intranet = report.requests.find((r) => r.name === INTRANET)!;
    expect(intranet.candidate?.status).toBe(403);
    expect(intranet.candidate?.errorLog).toEqual([expect.objectContaining({ code: "AH01630", module: "authz_core" })]);
  });

  it("answers every smoke request as the original does on 2.2", (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    expect(report.servers.baseline!.tree!.origin).toBe(ORIGINAL);
    for (const request of report.requests) expect({ request: request.name, status: request.candidate?.status }).toEqual({ request: request.name, status: request.baseline?.status });
  });
});
