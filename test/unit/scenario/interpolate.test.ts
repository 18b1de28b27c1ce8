import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { interpolate, scanVariables } from "../../../harness/scenario/interpolate.ts";

const AT = { file: "t.scenario.yaml", line: 12, column: 5 };
const VARS = { "server.docroot": "/usr/local/apache2/htdocs", "clients.host.ip": "172.18.0.1" };

describe("interpolate", () => {
  it("replaces every known variable", () => {
    expect(interpolate('<Directory "${server.docroot}">\nRequire ip ${clients.host.ip} ${clients.host.ip}', VARS, AT)).toBe(
      '<Directory "/usr/local/apache2/htdocs">\nRequire ip 172.18.0.1 172.18.0.1',
    );
  });

  it("turns $${ into a literal ${ and leaves other dollars alone", () => {
    expect(interpolate("Define X $${APACHE_RUN_USER} $$ $HOME ${clients.host.ip}$", VARS, AT)).toBe(
      "Define X ${APACHE_RUN_USER} $$ $HOME 172.18.0.1$",
    );
  });

  it("returns text without variables unchanged", () => {
    expect(interpolate("", VARS, AT)).toBe("");
    expect(interpolate("plain text", {}, AT)).toBe("plain text");
  });

  it("throws HARNESS_SCENARIO_INVALID at the given position for an unknown variable", () => {
    let caught: unknown;
    try {
      interpolate("Require ip ${clients.nobody.ip}", VARS, AT);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HarnessError);
    expect(caught).toMatchObject({
      code: "HARNESS_SCENARIO_INVALID",
      position: AT,
      message: "unknown variable ${clients.nobody.ip}; known here: ${clients.host.ip}, ${server.docroot}",
    });
  });

  it("does not take inherited object properties for variables", () => {
    expect(() => interpolate("${toString}", {}, AT)).toThrow(/unknown variable \$\{toString\}/);
  });

  it("throws for an unterminated ${", () => {
    expect(() => interpolate("a ${server.docroot", VARS, AT)).toThrow(/unterminated variable/);
  });
});

describe("scanVariables", () => {
  it("gives the index and length of each token", () => {
    expect(scanVariables("x ${a} $${b} ${c")).toEqual([
      { kind: "variable", name: "a", index: 2, length: 4 },
      { kind: "escape", index: 7 },
      { kind: "unterminated", index: 13 },
    ]);
  });
});
