import { describe, expect, it } from "vitest";
import { S17 } from "../../../harness/rules/s17-substitute-line-length.ts";
import { evidence, linesOf, records } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S17 mod_substitute line length", () => {
  it("finds the first Substitute of each section without SubstituteMaxLineLength", () => {
    const text = `${load("substitute")}<Location /a/>\n    Substitute s/a/b/\n    Substitute s/c/d/\n</Location>\n<Location /b/>\n    Substitute s/a/b/\n    SubstituteMaxLineLength 2m\n</Location>\n`;
    expect(linesOf(S17, text)).toEqual([{ line: 3, severity: "behaviour" }]);
    expect(linesOf(S17, `${text}SubstituteMaxLineLength 5m\n`)).toEqual([]);
  });

  it("claims AH01328 on the request", () => {
    const log = records("2.4", "[Sat Nov 21 22:50:01.000000 2026] [substitute:error] [pid 9:tid 9] [client 127.0.0.1:4000] AH01328: Line too long, URI /sub/longline.txt");
    expect(S17.recognise!(evidence({ field: "status", status: { baseline: 200, candidate: 500 }, log: { baseline: [], candidate: log } }))).not.toBeNull();
    expect(S17.recognise!(evidence({ field: "status", status: { baseline: 200, candidate: 500 } }))).toBeNull();
  });
});
