// `bisect --images`: over the two local 2.4 patch levels (2.4.67, 2.4.68), a planted difference (a config that
// answers 410 from 2.4.68 on, through <IfVersion >= 2.4.68>; and mod_include's #if body, which changed in 2.4.68)
// is found at 2.4.68, with upstream's note linked; --all finds every change between neighbours, including one that
// reverts, which bisecting the ends cannot see.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import type { Report } from "../../../harness/report/report-model.ts";
import { runCli } from "../../helpers/run-cli.ts";
import { PLANTED, scenarioDir } from "../../helpers/scenario-files.ts";

interface BisectJson {
  mode: string;
  images: Array<{ index: number; name: string; image: string | null; version: string | null; observed: boolean }>;
  probed: number[];
  endsAgree: boolean | null;
  changePoints: Array<{
    before: { index: number; version: string | null };
    after: { index: number; version: string | null };
    scenarios: Array<{ id: string; predicted: boolean; requests: Array<{ name: string; before: string; after: string; differences: Array<{ field: string; before: unknown; after: unknown }> }> }>;
    notes: { from: string; to: string; notes: Array<{ version: string; area: string; links: Array<{ url: string }> }>; changes: { url: string } | null } | null;
  }>;
}

const SSI = fileURLToPath(new URL("../../../scenarios/catalogue/defaults/ssi-legacy-if-expr.scenario.yaml", import.meta.url));
const planted = (): string => join(scenarioDir({ "planted.scenario.yaml": PLANTED }), "planted.scenario.yaml");

async function bisect(args: string[]): Promise<{ status: number | null; json: BisectJson; stderr: string }> {
  const result = await runCli(["bisect", ...args, "--format", "json"]);
  expect(result.stderr, result.stderr).not.toMatch(/error HARNESS_/);
  return { status: result.status, json: JSON.parse(result.stdout) as BisectJson, stderr: result.stderr };
}

describe("httpd-upgrade-harness bisect", { timeout: 600_000 }, () => {
  const older = (): string => inject("images").olderCandidate;
  const newer = (): string => inject("images").candidate;

  it("finds the planted difference at 2.4.68 over the two local patch levels, and links upstream's note", async () => {
    const { status, json, stderr } = await bisect(["--images", `${older()},${newer()}`, planted(), SSI]);
    expect(status).toBe(1);
    expect(json.endsAgree).toBe(false);
    expect(json.images.map((i) => [i.version, i.observed])).toEqual([["2.4.67", true], ["2.4.68", true]]);
    // Both ends are observed in one run.
    expect(stderr.match(/^observing /gm)).toHaveLength(1);
    expect(json.changePoints).toHaveLength(1);
    const [point] = json.changePoints;
    expect([point!.before.version, point!.after.version]).toEqual(["2.4.67", "2.4.68"]);
    const byId = new Map(point!.scenarios.map((s) => [s.id, s]));
    expect(byId.get("planted-ifversion")!.requests.map((r) => [r.name, r.before, r.after])).toEqual([["planted", "404", "410"]]);
    // mod_include's change, which the scenario's version ranges state: found, and marked predicted.
    const ssi = byId.get("ssi-legacy-if-expr")!;
    expect(ssi.predicted).toBe(true);
    expect(ssi.requests.find((r) => r.name === "old-syntax-match")!.differences).toContainEqual(
      expect.objectContaining({ field: "body", before: "<p>[an error occurred while processing this directive]regex-match</p>\n", after: "<p>[an error occurred while processing this directive]</p>\n" }),
    );
    expect(point!.notes).toMatchObject({ from: "2.4.67", to: "2.4.68", changes: { url: "https://archive.apache.org/dist/httpd/CHANGES_2.4.68" } });
    expect(point!.notes!.notes.map((n) => [n.version, n.area])).toEqual([["2.4.68", "mod_include"]]);
    expect(point!.notes!.notes[0]!.links.map((l) => l.url)).toContain("https://github.com/apache/httpd/pull/658");
  });

  it("prints the change point, the requests before and after and the note's links as text, and writes the matrix report", async () => {
    const out = mkdtempSync(join(tmpdir(), "harness-bisect-"));
    const result = await runCli(["bisect", "--images", `recipe:httpd-2.4.67,recipe:httpd-2.4`, planted(), "--report", `json:${out}/r.json`]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("Change point: #1 recipe:httpd-2.4.67 (httpd 2.4.67) -> #2 recipe:httpd-2.4 (httpd 2.4.68)\n  planted-ifversion (");
    expect(result.stdout).toContain("    planted: 404 -> 410\n");
    expect(result.stdout).toMatch(/^ {4}2\.4\.68 mod_include: /m);
    expect(result.stdout).toContain("https://archive.apache.org/dist/httpd/CHANGES_2.4.68");
    expect(result.stdout).toMatch(/First change at #2 recipe:httpd-2\.4 \(httpd 2\.4\.68\)\.\n$/);
    const report = JSON.parse(readFileSync(`${out}/r.json`, "utf8")) as Report;
    expect([report.baseline.version, report.candidates.map((c) => [c.label, c.version])]).toEqual(["2.4.67", [["recipe:httpd-2.4", "2.4.68"]]]);
  });

  it("with --all over three images (2.4.67, 2.4.68, 2.4.68 again under its tag) finds the one change point, none between the twins", async () => {
    const { status, json, stderr } = await bisect(["--all", "--images", `recipe:httpd-2.4.67,recipe:httpd-2.4,${newer()}`, planted()]);
    expect(status).toBe(1);
    expect(json.mode).toBe("all");
    expect(json.images.map((i) => [i.name, i.version])).toEqual([["recipe:httpd-2.4.67", "2.4.67"], ["recipe:httpd-2.4", "2.4.68"], [newer(), "2.4.68"]]);
    expect(stderr.match(/^observing /gm)).toHaveLength(1);
    expect(json.changePoints.map((p) => [p.before.index, p.after.index, p.scenarios.map((s) => s.id)])).toEqual([[0, 1, ["planted-ifversion"]]]);
  });

  it("says the ends agree when a change reverts, exit 0, and --all finds both change points", async () => {
    const list = `${older()},${newer()},${older()}`;
    const ends = await runCli(["bisect", "--images", list, planted()]);
    expect(ends.status).toBe(0);
    expect(ends.stdout).toContain("The first and the last image agree on every scenario");
    expect(ends.stdout).toContain("--all compares every pair of neighbours");
    expect(ends.stdout).toMatch(/#2 .* {2}\(not observed\)/);
    const all = await bisect(["--all", "--images", list, planted()]);
    expect(all.status).toBe(1);
    expect(all.json.changePoints.map((p) => [p.before.version, p.after.version, p.scenarios[0]!.requests[0]!.before, p.scenarios[0]!.requests[0]!.after])).toEqual([
      ["2.4.67", "2.4.68", "404", "410"],
      ["2.4.68", "2.4.67", "410", "404"],
    ]);
    // The second point goes back down: the notes are of the same releases, in order.
    expect(all.json.changePoints[1]!.notes).toMatchObject({ from: "2.4.67", to: "2.4.68" });
  });

  it("bisects a config tree given with --config: the first image where its smoke requests answer otherwise", async () => {
    const dir = mkdtempSync(join(tmpdir(), "harness-bisect-tree-"));
    writeFileSync(
      join(dir, "site.conf"),
      ["<IfModule !version_module>", "    LoadModule version_module modules/mod_version.so", "</IfModule>", "<IfVersion >= 2.4.68>", "    Redirect gone /", "</IfVersion>", ""].join("\n"),
    );
    const { status, json } = await bisect(["--images", `${older()},${newer()}`, "--config", join(dir, "site.conf")]);
    expect(status).toBe(1);
    expect(json.changePoints[0]!.scenarios.map((s) => [s.id, s.requests.map((r) => [r.before, r.after])])).toEqual([["site.conf", [["200", "410"]]]]);
  });

  it("is bad input, exit 2, for fewer than two images or an unknown recipe", async () => {
    for (const images of [older(), `recipe:httpd-2.2,${older()}`]) {
      const result = await runCli(["bisect", "--images", images, planted()]);
      expect(result.status, images).toBe(2);
      expect(result.stderr).toMatch(/error HARNESS_USAGE: /);
    }
  });
});
