import { describe, expect, it } from "vitest";
import { S13 } from "../../../harness/rules/s13-deflate-tiny-bodies.ts";
import { evidence, linesOf } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S13 mod_deflate on tiny bodies", () => {
  it("finds the lines that put DEFLATE in the chain", () => {
    expect(linesOf(S13, `${load("filter", "deflate")}AddOutputFilterByType DEFLATE text/plain\nSetOutputFilter INCLUDES\nAddOutputFilter INCLUDES;DEFLATE .shtml\n`)).toEqual([
      { line: 3, severity: "expected" },
      { line: 5, severity: "expected" },
    ]);
  });

  it("claims gzip gone, Vary gone and a length of 68 bytes or less on 2.4 (fixtures case g2)", () => {
    expect(S13.recognise!(evidence({ field: "header:content-encoding", baseline: "gzip", candidate: null }))).not.toBeNull();
    expect(S13.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding", candidate: null }))).not.toBeNull();
    expect(S13.recognise!(evidence({ field: "header:content-length", baseline: "40", candidate: "20" }))).not.toBeNull();
    expect(S13.recognise!(evidence({ field: "header:content-length", baseline: "40", candidate: "2161" }))).toBeNull();
    expect(S13.recognise!(evidence({ field: "header:content-encoding", baseline: "gzip", candidate: null, status: { baseline: 200, candidate: 404 } }))).toBeNull();
  });
});
