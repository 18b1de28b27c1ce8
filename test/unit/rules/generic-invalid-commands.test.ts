import { describe, expect, it } from "vitest";
import { B4, REMOVED_DIRECTIVE, V1 } from "../../../harness/rules/generic-invalid-commands.ts";
import { configTestEvidence } from "./lint-fixture.ts";

const refused = (name: string) =>
  configTestEvidence(["AH00526: Syntax error on line 12 of /usr/local/apache2/conf/httpd.conf:", `Invalid command '${name}', perhaps misspelled or defined by a module not included in the server configuration`]);

describe("the generic invalid-command rules", () => {
  it("tell 2.4's refusal by where the directive lives: a 2.4 module not loaded (B4), only 2.2 (removed-directive), no httpd module (V1)", () => {
    expect(B4.recognise!(refused("RewriteEngine"))?.lines).toEqual([{ file: "/usr/local/apache2/conf/httpd.conf", line: 12 }]);
    expect(REMOVED_DIRECTIVE.recognise!(refused("RewriteEngine"))).toBeNull();
    expect(V1.recognise!(refused("RewriteEngine"))).toBeNull();

    expect(REMOVED_DIRECTIVE.recognise!(refused("CookieLog"))?.summary).toMatch(/CookieLog/);
    expect(B4.recognise!(refused("CookieLog"))).toBeNull();

    expect(V1.recognise!(refused("PassengerRoot"))?.summary).toMatch(/third-party/);
    expect(B4.recognise!(refused("PassengerRoot"))).toBeNull();
    expect(REMOVED_DIRECTIVE.recognise!(refused("PassengerRoot"))).toBeNull();
  });

  it("V1 claims 2.4's refusal to load a module built for 2.2", () => {
    const garbled = configTestEvidence([
      "httpd: Syntax error on line 60 of /usr/local/apache2/conf/httpd.conf: API module structure 'php5_module' in file /usr/local/apache2/modules/libphp5.so is garbled - expected signature 41503234 but saw 41503232 - perhaps this is not an Apache module DSO, or was compiled for a different Apache version?",
    ]);
    expect(V1.recognise!(garbled)).not.toBeNull();
    expect(V1.recognise!({ ...garbled, field: "status" })).toBeNull();
  });
});
