import { describe, expect, it } from "vitest";
import { D2 } from "../../../harness/rules/d2-enable-sendfile.ts";
import { D3 } from "../../../harness/rules/d3-file-etag-default.ts";
import { evidence, findingsOf, linesOf } from "./rule-harness.ts";

describe("D2 EnableSendfile and D3 FileETag defaults", () => {
  it("point a tree that leaves the default unset at its first server-wide line of the main file", () => {
    const text = "# comment\n<Directory />\n    Options None\n</Directory>\nServerRoot /usr/local/apache2\nListen 80\n";
    expect(linesOf(D2, text)).toEqual([{ line: 5, severity: "deprecated" }]);
    expect(linesOf(D3, text)).toEqual([{ line: 5, severity: "expected" }]);
    expect(findingsOf(D2, text)[0]!.fix).toBe("EnableSendfile On");
  });

  it("find nothing where the tree sets the directive anywhere, even per directory", () => {
    expect(linesOf(D2, "Listen 80\n<Directory /srv>\n    EnableSendfile Off\n</Directory>\n")).toEqual([]);
    expect(linesOf(D3, "Listen 80\nFileETag INode MTime Size\n")).toEqual([]);
  });

  it("D3 claims 2.2's inode-size-mtime ETag against 2.4's size-mtime one", () => {
    expect(D3.recognise!(evidence({ field: "header:etag", baseline: '"216266-b-660d105d79f91"', candidate: '"b-660d105d79f91"' }))).not.toBeNull();
    expect(D3.recognise!(evidence({ field: "header:etag", baseline: '"216266-b-660d105d79f91"', candidate: '"c-660d105d79f91"' }))).toBeNull();
  });
});
