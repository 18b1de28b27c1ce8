// What bisect prints: the images, each change point with the requests that changed and upstream's notes, the
// plain sentence when the ends agree; and the same as JSON.
import { describe, expect, it } from "vitest";
import type { BisectResult } from "../../../harness/judge/bisect/bisect-result.ts";
import { changePointBetween, type BisectImage } from "../../../harness/judge/bisect/change-points.ts";
import type { ScenarioOutcome } from "../../../harness/judge/bisect/outcome-change.ts";
import { renderBisectJson, renderBisectText } from "../../../harness/report/bisect-report.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { F_TXT_BODY, F_TXT_HEADERS, requestObservation, response } from "../../fixtures/observations/recorded.ts";
import { F_YAML, fObservations, scenario } from "../../fixtures/observations/scenarios.ts";

const f = scenario(F_YAML);
const images: Array<BisectImage & { observed: boolean }> = [
  { index: 0, name: "recipe:httpd-2.4.67", image: "harness-httpd:2.4.67-x", version: httpdVersion("2.4.67"), observed: true },
  { index: 1, name: "recipe:httpd-2.4", image: "harness-httpd:2.4.68-y", version: httpdVersion("2.4.68"), observed: true },
  { index: 2, name: "httpd:2.4.71", image: null, version: null, observed: false },
];

function outcome(status: number): ScenarioOutcome {
  const { candidate } = fObservations(f);
  const answer = { outcome: response(status, F_TXT_HEADERS["2.4"], F_TXT_BODY) };
  return { observation: { ...candidate, requests: [requestObservation("file", "2.4", answer, answer)] } };
}

const point = changePointBetween(images[0]!, images[1]!, [f], (image) => outcome(image.index === 0 ? 200 : 403))!;

describe("bisect's output", () => {
  it("text: the images, the change point with before and after, and upstream's notes with their links", () => {
    const result: BisectResult = { mode: "first", images, scenarios: 1, probed: [0, 1], endsAgree: false, changePoints: [point] };
    const text = renderBisectText(result);
    expect(text).toContain("bisect over 3 images and 1 scenario: the first image whose outcome differs from the first's; observed in this order: #1, #2\n");
    expect(text).toContain("  #3 httpd:2.4.71  (not observed)\n2 images observed of 3 named.\n");
    expect(text).toContain("Change point: #1 recipe:httpd-2.4.67 (httpd 2.4.67) -> #2 recipe:httpd-2.4 (httpd 2.4.68)\n  etag-default-without-inode (x.scenario.yaml)\n    file: 200 -> 403\n");
    expect(text).toMatch(/^ {6}status: "200" -> "403" {2}\(regression, access-narrowed: .*served → denied\)$/m);
    expect(text).toContain("  Upstream between 2.4.67 and 2.4.68:\n    2.4.68 mod_include: none of the if/elif/else content is printed");
    expect(text).toContain("https://github.com/apache/httpd/pull/658");
    // The CHANGES file the note links already is not listed twice.
    expect(text.match(/CHANGES_2\.4\.68/g)).toHaveLength(2);
    expect(text.trimEnd().split("\n").at(-1)).toBe("First change at #2 recipe:httpd-2.4 (httpd 2.4.68).");
  });

  it("text: says plainly when the ends agree, and that --all finds a change that reverts", () => {
    const text = renderBisectText({ mode: "first", images, scenarios: 1, probed: [0, 2], endsAgree: true, changePoints: [] });
    expect(text).toContain("The first and the last image agree on every scenario: bisect found no change between #1 recipe:httpd-2.4.67 (httpd 2.4.67) and #3 httpd:2.4.71.");
    expect(text).toContain("--all compares every pair of neighbours and finds it.");
  });

  it("JSON: images, probes and change points, differences as before and after, the notes as data", () => {
    const json = JSON.parse(renderBisectJson({ mode: "all", images, scenarios: 1, probed: [0, 1, 2], endsAgree: null, changePoints: [point] }));
    expect(json).toMatchObject({
      schemaVersion: "1.0",
      mode: "all",
      images: [
        { index: 0, name: "recipe:httpd-2.4.67", image: "harness-httpd:2.4.67-x", version: "2.4.67", observed: true },
        { index: 1, name: "recipe:httpd-2.4", image: "harness-httpd:2.4.68-y", version: "2.4.68", observed: true },
        { index: 2, name: "httpd:2.4.71", image: null, version: null, observed: false },
      ],
      endsAgree: null,
    });
    expect(json.changePoints[0].scenarios[0].requests[0]).toMatchObject({ name: "file", before: "200", after: "403" });
    expect(json.changePoints[0].scenarios[0].requests[0].differences[0]).toMatchObject({ field: "status", before: "200", after: "403", class: "regression", cause: "access-narrowed" });
    expect(json.changePoints[0].notes).toMatchObject({ from: "2.4.67", to: "2.4.68", notes: [{ version: "2.4.68", area: "mod_include" }], changes: { url: "https://archive.apache.org/dist/httpd/CHANGES_2.4.68" } });
  });
});
