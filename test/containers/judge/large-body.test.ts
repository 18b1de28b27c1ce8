// Bodies are compared whole (length and SHA-256), not on the text kept of them: two real servers whose pages
// agree for 100 KiB and differ after it are reported as differing.
import { describe, expect, it } from "vitest";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

// SSI prints the server's own address after 100 KiB of identical text: the two sides' containers have
// different addresses, so the bodies differ only past the first 100 KiB.
const prefix = "a".repeat(100 * 1024);
const lateDifference = `
id: late-body-difference
title: two bodies identical for 100 KiB and different after it
seed: [D3]
server:
  modules: [include]
  config: |
    AddOutputFilter INCLUDES .shtml
    AddType text/plain .shtml
    <Directory "{{server.docroot}}">
        Options +Includes
    </Directory>
  files:
    htdocs/big.shtml: "${prefix}<!--#echo var=\\"SERVER_ADDR\\" -->\\n"
    htdocs/same.txt: "${prefix}same\\n"
requests:
  - { name: late, path: /big.shtml, expect: { both: { status: 200 } } }
  - { name: same, path: /same.txt, expect: { both: { status: 200 } } }
`;

describe("body comparison on real servers", { timeout: 180_000 }, () => {
  it("reports bodies that differ only after 100 KiB as differing, and equal large bodies as the same", async () => {
    const { runs, reports } = await runYamlScenarios([lateDifference], { learnNoise: true });
    const report = reports[0]!;
    expect(report.error).toBeNull();
    const late = report.requests.find((r) => r.name === "late")!;
    expect(late.baseline!.bodyBytes).toBeGreaterThan(100 * 1024);
    expect(late.baseline!.bodySha256).not.toBe(late.candidate!.bodySha256);
    const body = late.differences.find((d) => d.field === "body");
    expect(body).toMatchObject({ class: "regression" });
    // The text kept of each body is the same, so the difference is shown by length and digest.
    expect(String(body!.baseline)).toContain("are the same");
    expect(report.verdict).toBe("regression");

    const same = report.requests.find((r) => r.name === "same")!;
    expect(same.baseline!.bodySha256).toBe(same.candidate!.bodySha256);
    expect(same.differences.filter((d) => d.field === "body")).toEqual([]);
    expect(runs[0]!.observations).toHaveLength(2);
  });
});
