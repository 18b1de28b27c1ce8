import { describe, expect, it } from "vitest";
import { formatPath, formatReceived, scenarioIssuesError } from "../../../harness/scenario/scenario-issue.ts";

const position = (line: number, column: number) => ({ file: "t.scenario.yaml", line, column });

describe("formatPath", () => {
  it("writes keys, indices and quoted odd keys", () => {
    expect(formatPath(["requests", 0, "expect", "2.4", "headers", "Content-Type"])).toBe(
      'requests[0].expect["2.4"].headers["Content-Type"]',
    );
    expect(formatPath([])).toBe("(top level)");
  });
});

describe("formatReceived", () => {
  it("shows JSON and cuts long values", () => {
    expect(formatReceived("403")).toBe('"403"');
    expect(formatReceived({ a: 1 })).toBe('{"a":1}');
    expect(formatReceived("x".repeat(200))).toHaveLength(80);
  });
});

describe("scenarioIssuesError", () => {
  it("sorts the problems by position and positions the error at the first", () => {
    const error = scenarioIssuesError("HARNESS_SCENARIO_INVALID", "t.scenario.yaml", [
      { position: position(9, 3), path: ["b"], problem: "second", hint: "hint b" },
      { position: position(2, 7), path: ["a"], problem: "first", expected: "x", example: "a: 1\nb: 2", received: { value: 5 } },
    ]);
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(position(2, 7));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml: 2 problems
        2:7 a: first
            expected: x
            example:  a: 1
                      b: 2
            received: 5
        9:3 b: second"
    `);
    expect(error.hint).toBe("hint b The scenario format is described in docs/scenario-format.md.");
  });
});
