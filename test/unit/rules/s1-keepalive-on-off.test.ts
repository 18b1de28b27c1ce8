import { describe, expect, it } from "vitest";
import { keepAlive22, S1 } from "../../../harness/rules/s1-keepalive-on-off.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("S1: KeepAlive accepts only On or Off", () => {
  it("finds values other than On/Off and writes what 2.2 made of them", async () => {
    const result = await lintBody('KeepAlive yes\nKeepAlive 0\nKeepAlive "1"\nKeepAlive On\nKeepAlive off');
    expect(of(result, "S1").map((f) => [f.line, f.fix])).toEqual([
      [BODY_LINE, "KeepAlive On"],
      [BODY_LINE + 1, "KeepAlive Off"],
      [BODY_LINE + 2, "KeepAlive On"],
    ]);
    expect(of(result, "S1")[0]!.message).toContain("KeepAlive must be On or Off");
  });

  it("reads 0 and off as Off, everything else as On, as 2.2 did", () => {
    expect(["0", "OFF", "yes", "1", "true"].map(keepAlive22)).toEqual(["Off", "Off", "On", "On", "On"]);
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("<IfVersion < 2.3>\nKeepAlive yes\n</IfVersion>"), "S1")).toEqual([]);
  });

  it("recognises the recorded refusal", () => {
    const claim = S1.recognise!(configTestEvidence(["AH00526: Syntax error on line 14 of /usr/local/apache2/conf/httpd.conf:", "KeepAlive must be On or Off"]));
    expect(claim?.lines).toEqual([{ file: "/usr/local/apache2/conf/httpd.conf", line: 14 }]);
    expect(S1.recognise!(configTestEvidence(["AH00526: Syntax error on line 14 of /x:", "KeepAliveTimeout takes one argument"]))).toBeNull();
  });
});
