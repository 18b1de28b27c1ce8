import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { interpolate, scanVariables } from "../../../harness/scenario/interpolate.ts";

const AT = { file: "t.scenario.yaml", line: 12, column: 5 };
const VARS = { "server.docroot": "/usr/local/apache2/htdocs", "clients.host.ip": "172.18.0.1" };

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("interpolate", () => {
  it("replaces every known variable", () => {
    expect(interpolate('<Directory "{{server.docroot}}">\nRequire ip {{clients.host.ip}} {{clients.host.ip}}', VARS, AT)).toBe(
      '<Directory "/usr/local/apache2/htdocs">\nRequire ip 172.18.0.1 172.18.0.1',
    );
  });

  it("passes httpd's ${VAR}, ${map:key} and %{VAR}, and the shell's ${x} and $$, through untouched", () => {
    const text =
      "Define LOGS ${APACHE_LOG_DIR}\n" +
      "ErrorLog ${APACHE_LOG_DIR}/error.log\n" +
      "RewriteRule ^/u/(.*) ${users:$1|nobody} [PT]\n" +
      "RewriteCond %{HTTP_HOST} ^${server.docroot}$\n" +
      'echo "${HOME:-/root}" $$ $HOME ${unclosed';
    expect(interpolate(text, VARS, AT)).toBe(text);
  });

  it("leaves single braces, closing braces and regex quantifiers alone", () => {
    const text = "RewriteRule ^/a{2,3}$ /b [R]\nfunction f() { return {a: 1}; }}\n";
    expect(interpolate(text, {}, AT)).toBe(text);
  });

  it("turns {{{{ into a literal {{, and reads a { before {{name}} as itself", () => {
    expect(interpolate("<p>{{{{greeting}}</p> {{{clients.host.ip}}} {{{{{{server.docroot}}", VARS, AT)).toBe(
      "<p>{{greeting}}</p> {172.18.0.1} {{/usr/local/apache2/htdocs",
    );
  });

  it("returns text without variables unchanged", () => {
    expect(interpolate("", VARS, AT)).toBe("");
    expect(interpolate("plain text", {}, AT)).toBe("plain text");
  });

  it("throws HARNESS_SCENARIO_INVALID at the given position for an unknown variable, listing the known ones", () => {
    const error = thrown(() => interpolate("Require ip {{clients.nobody.ip}}", VARS, AT));
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({
      code: "HARNESS_SCENARIO_INVALID",
      position: AT,
      message: "unknown variable {{clients.nobody.ip}}; known here: {{clients.host.ip}}, {{server.docroot}}",
    });
    expect((error as HarnessError).hint).toContain("{{{{");
  });

  it("does not take inherited object properties for variables", () => {
    expect(() => interpolate("{{toString}}", {}, AT)).toThrow(/unknown variable \{\{toString\}\}/);
  });

  it("throws at the given position for a {{ with no }} on its line", () => {
    const error = thrown(() => interpolate("a {{server.docroot\n}}", VARS, AT));
    expect(error).toMatchObject({ code: "HARNESS_SCENARIO_INVALID", position: AT });
    expect((error as HarnessError).message).toMatch(/unterminated variable: "\{\{server\.docroot" has no closing \}\}/);
  });
});

describe("scanVariables", () => {
  it("gives the index and length of each token", () => {
    expect(scanVariables("x {{a}} {{{{b}} ${c} {{{d}}} {{e")).toEqual([
      { kind: "variable", name: "a", index: 2, length: 5 },
      { kind: "escape", index: 8 },
      { kind: "variable", name: "d", index: 22, length: 5 },
      { kind: "unterminated", index: 29 },
    ]);
  });

  it("reports every unterminated {{, one per line", () => {
    expect(scanVariables("{{a\n{{b}}\n{{c")).toEqual([
      { kind: "unterminated", index: 0 },
      { kind: "variable", name: "b", index: 4, length: 5 },
      { kind: "unterminated", index: 10 },
    ]);
  });
});
