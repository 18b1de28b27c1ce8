import { describe, expect, it } from "vitest";
import { S16 } from "../../../harness/rules/s16-reqtimeout-defaults.ts";
import { evidence, linesOf, records } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S16 mod_reqtimeout defaults", () => {
  it("finds the LoadModule of mod_reqtimeout when no RequestReadTimeout is set", () => {
    expect(linesOf(S16, `${load("mime", "reqtimeout")}`)).toEqual([{ line: 2, severity: "behaviour" }]);
    expect(linesOf(S16, `${load("reqtimeout")}RequestReadTimeout header=5 body=5\n`)).toEqual([]);
    expect(linesOf(S16, `${load("mime")}`)).toEqual([]);
  });

  it("claims a 408 on 2.4 only", () => {
    const timedOut = records("2.4", "[Sat Nov 21 22:50:01.000000 2026] [reqtimeout:info] [pid 9:tid 9] [client 127.0.0.1:4000] AH01382: Request header read timeout");
    const slow = { field: "status", baseline: "200", candidate: "408", status: { baseline: 200, candidate: 408 }, log: { baseline: [], candidate: timedOut } };
    expect(S16.recognise!(evidence(slow))).not.toBeNull();
    expect(S16.recognise!(evidence({ ...slow, status: { baseline: 408, candidate: 408 } }))).toBeNull();
  });
});
