// Whether a scenario's outcome changed between two images, as the judge sees it: noise and benign rules are not
// changes; a status, body or log change is; what the scenario's version ranges predict is a change, predicted.
import { describe, expect, it } from "vitest";
import { changePointBetween, differsFrom, type BisectImage } from "../../../../harness/judge/bisect/change-points.ts";
import { compareOutcomes, type ScenarioOutcome } from "../../../../harness/judge/bisect/outcome-change.ts";
import type { SideObservation } from "../../../../harness/observe/observation.ts";
import type { Scenario } from "../../../../harness/scenario/scenario.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { F_TXT_BODY, F_TXT_HEADERS, requestObservation, response } from "../../../fixtures/observations/recorded.ts";
import { F_YAML, fObservations, scenario } from "../../../fixtures/observations/scenarios.ts";

/** Case f's 2.4 observation, as image `version` answering `status` with `body` (Date and Server varying). */
function on(f: Scenario, version: string, status = 200, body = F_TXT_BODY): SideObservation {
  const { candidate } = fObservations(f);
  const headers = (date: string): Array<[string, string]> =>
    F_TXT_HEADERS["2.4"].map(([name, value]) => [name, name === "Date" ? date : name === "Server" ? `Apache/${version} (Unix)` : value] as [string, string]);
  const first = { outcome: response(status, headers(`Tue, 01 Dec 2026 10:00:0${version.at(-1)} GMT`), body) };
  const repeat = { outcome: response(status, headers(`Tue, 01 Dec 2026 10:00:1${version.at(-1)} GMT`), body) };
  return { ...candidate, server: { ...candidate.server, version: httpdVersion(version) }, requests: [requestObservation("file", "2.4", first, repeat)] };
}

const seen = (observation: SideObservation): ScenarioOutcome => ({ observation });

describe("a scenario's outcome between two images", () => {
  const f = scenario(F_YAML);

  it("is unchanged when only the clock and the version banner differ", () => {
    expect(compareOutcomes(f, seen(on(f, "2.4.67")), seen(on(f, "2.4.68")))).toEqual({ changed: false, predicted: false, server: [], requests: [] });
  });

  it("changed when the status changes: the request, what each answered, and the difference with its cause", () => {
    const change = compareOutcomes(f, seen(on(f, "2.4.67")), seen(on(f, "2.4.68", 500)));
    expect(change.changed).toBe(true);
    expect(change.predicted).toBe(false);
    expect(change.requests.map((r) => [r.name, r.before, r.after, r.differences.map((d) => [d.field, d.baseline, d.candidate, d.class])])).toEqual([
      ["file", "200", "500", [["status", "200", "500", "regression"]]],
    ]);
    expect(change.requests[0]!.differences[0]!.cause).toBe("unexplained");
  });

  it("changed, and predicted, when the scenario states each version's answer by range", () => {
    const ranged = scenario(
      F_YAML.replace('both: { status: 200, body: { equals: "hello etag\\n" } }', '"2.4": { ">=2.4.68": { status: 200, body: { equals: "new\\n" } }, default: { status: 200, body: { equals: "hello etag\\n" } } }'),
    );
    const change = compareOutcomes(ranged, seen(on(ranged, "2.4.67")), seen(on(ranged, "2.4.68", 200, "new\n")));
    expect(change.changed).toBe(true);
    expect(change.predicted).toBe(true);
    expect(change.requests[0]!.differences.map((d) => [d.field, d.class])).toEqual([["body", "expected-change"]]);
  });

  it("is unchanged by what a benign rule explains (the same Vary tokens written another way)", () => {
    const vary = (observation: SideObservation, value: string): SideObservation => ({
      ...observation,
      requests: observation.requests.map((r) => ({
        ...r,
        outcome: r.outcome.kind === "response" ? { ...r.outcome, headers: [...r.outcome.headers, ["Vary", value] as [string, string]] } : r.outcome,
        repeat: r.repeat?.kind === "response" ? { ...r.repeat, headers: [...r.repeat.headers, ["Vary", value] as [string, string]] } : r.repeat,
      })),
    });
    const change = compareOutcomes(f, seen(vary(on(f, "2.4.67"), "Accept-Encoding,User-Agent")), seen(vary(on(f, "2.4.68"), "user-agent, accept-encoding")));
    expect(change).toEqual({ changed: false, predicted: false, server: [], requests: [] });
  });

  it("changed when the scenario could not run on one image; unchanged when it failed alike on both", () => {
    const error: ScenarioOutcome = { error: { code: "HARNESS_CONTAINER", message: "no start" } };
    expect(compareOutcomes(f, seen(on(f, "2.4.67")), error)).toMatchObject({ changed: true, server: [{ field: "error", baseline: null, candidate: "HARNESS_CONTAINER: no start" }] });
    expect(compareOutcomes(f, error, error).changed).toBe(false);
  });
});

describe("a change point", () => {
  const f = scenario(F_YAML);
  const images: BisectImage[] = ["2.4.67", "2.4.68"].map((version, index) => ({ index, name: `recipe:${version}`, image: `img:${version}`, version: httpdVersion(version) }));
  const outcomes = new Map<number, ScenarioOutcome>([
    [0, seen(on(f, "2.4.67"))],
    [1, seen(on(f, "2.4.68", 500))],
  ]);
  const outcomeOf = (image: BisectImage): ScenarioOutcome => outcomes.get(image.index)!;

  it("names the scenarios that changed and upstream's notes for the versions in between", () => {
    const point = changePointBetween(images[0]!, images[1]!, [f], outcomeOf)!;
    expect(point.scenarios.map((s) => [s.id, s.file, s.change.requests.map((r) => r.name)])).toEqual([["etag-default-without-inode", "x.scenario.yaml", ["file"]]]);
    expect(point.notes?.notes.map((n) => `${n.version} ${n.area}`)).toEqual(["2.4.68 mod_include"]);
    expect(point.notes?.changes?.url).toBe("https://archive.apache.org/dist/httpd/CHANGES_2.4.68");
    expect(differsFrom(images[0]!, images[1]!, [f], outcomeOf)).toBe(true);
    expect(differsFrom(images[0]!, images[0]!, [f], outcomeOf)).toBe(false);
  });

  it("is none when every scenario answers alike", () => {
    outcomes.set(1, seen(on(f, "2.4.68")));
    expect(changePointBetween(images[0]!, images[1]!, [f], outcomeOf)).toBeNull();
  });
});
