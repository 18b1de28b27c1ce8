import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { parseScenario } from "../../../harness/scenario/load-scenario.ts";
import { hasUnquotedVariable, UNQUOTED_VARIABLE_HINT } from "../../../harness/scenario/unquoted-variable.ts";

const SEED_IDS = new Set<string>();

function parseError(text: string): HarnessError {
  try {
    parseScenario(text, "t.scenario.yaml", { seedIds: SEED_IDS });
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected a HarnessError");
}

describe("hasUnquotedVariable", () => {
  it("finds a value that starts with {{ after a key, a list dash or in a flow list", () => {
    expect(hasUnquotedVariable("    path: {{server.docroot}}/x")).toBe(true);
    expect(hasUnquotedVariable("    - {{server.root}}/bin/apachectl -t")).toBe(true);
    expect(hasUnquotedVariable('  prepare: ["a", {{server.root}}]')).toBe(true);
  });

  it("leaves quoted values and variables inside a value alone", () => {
    expect(hasUnquotedVariable('    path: "{{server.docroot}}/x"')).toBe(false);
    expect(hasUnquotedVariable("    Require ip {{clients.host.ip}}")).toBe(false);
    expect(hasUnquotedVariable("    exec: cat {{server.config}}")).toBe(false);
  });
});

describe("scenario files with an unquoted {{ at the start of a value", () => {
  it("hint at quoting when YAML cannot parse the line", () => {
    const error = parseError("id: t\ntitle: T\nrequests:\n  - name: a\n    path: {{server.docroot}}/x\n");
    expect(error.code).toBe("HARNESS_SCENARIO_PARSE");
    expect(error.hint).toContain(UNQUOTED_VARIABLE_HINT);
  });

  it("hint at quoting when YAML reads the value as a map", () => {
    const error = parseError("id: t\ntitle: T\nrequests:\n  - name: a\n    path: {{server.docroot}}\n");
    expect(error.message).toContain("requests[0].path: wrong type: a map where a string is needed");
    expect(error.hint).toContain(UNQUOTED_VARIABLE_HINT);
  });

  it("give no such hint for other type errors", () => {
    expect(parseError("id: t\ntitle: T\nrequests:\n  - name: a\n    path: 3\n").hint).not.toContain(UNQUOTED_VARIABLE_HINT);
  });
});
