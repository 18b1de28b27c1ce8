import { describe, expect, it } from "vitest";
import { D2 } from "../../../harness/rules/d2-enable-sendfile.ts";
import { D3 } from "../../../harness/rules/d3-file-etag-default.ts";
import { D6 } from "../../../harness/rules/d6-htpasswd-md5.ts";
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

describe("D6 htpasswd", () => {
  const apr1 = (salt: string) => `exit 0\nuser:$apr1$${salt}$abcdefghijklmnopqrstuv\n`;

  it("claims an $apr1$ hash on 2.4 against 2.2's crypt() or another $apr1$ salt", () => {
    expect(D6.recognise!(evidence({ field: "exec", baseline: "exit 0\nuser:ab01234567890\n", candidate: apr1("12345678") }))?.summary).toContain("crypt");
    expect(D6.recognise!(evidence({ field: "exec", baseline: apr1("aaaaaaaa"), candidate: apr1("bbbbbbbb") }))?.summary).toContain("salts");
  });

  it("claims nothing without an $apr1$ hash on 2.4, nor off exec, and finds nothing in a config", () => {
    expect(D6.recognise!(evidence({ field: "exec", baseline: "exit 0\n", candidate: "exit 2\nUsage" }))).toBeNull();
    expect(D6.recognise!(evidence({ field: "body", baseline: "x", candidate: apr1("12345678") }))).toBeNull();
    expect(D6.detect).toBeUndefined();
  });
});
