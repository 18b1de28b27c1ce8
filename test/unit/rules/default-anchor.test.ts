import { describe, expect, it } from "vitest";
import { D2 } from "../../../harness/rules/d2-enable-sendfile.ts";
import { D3 } from "../../../harness/rules/d3-file-etag-default.ts";
import { evidence, findingsOf, linesOf } from "./rule-harness.ts";

describe("D2 EnableSendfile and D3 FileETag defaults", () => {
  it("point a tree that leaves the default unset at the DocumentRoot whose files it concerns", () => {
    const text = "# comment\n<Directory />\n    Options None\n</Directory>\nServerRoot /usr/local/apache2\nListen 80\nDocumentRoot /srv/www\n";
    expect(linesOf(D2, text)).toEqual([{ line: 7, severity: "deprecated" }]);
    expect(linesOf(D3, text)).toEqual([{ line: 7, severity: "expected" }]);
    expect(findingsOf(D2, text)[0]!.fix).toBe("EnableSendfile On");
  });

  it("point at the main server's DocumentRoot in effect (the last one), not one a later line replaces", () => {
    const text = "Listen 80\n<VirtualHost *:80>\n    DocumentRoot /srv/vhost\n</VirtualHost>\nDocumentRoot /srv/old\nDocumentRoot /srv/www\n";
    expect(linesOf(D2, text)).toEqual([{ line: 6, severity: "deprecated" }]);
    expect(linesOf(D3, text)).toEqual([{ line: 6, severity: "expected" }]);
    expect(linesOf(D2, "Listen 80\n<VirtualHost *:80>\n    DocumentRoot /srv/vhost\n</VirtualHost>\n")).toEqual([{ line: 3, severity: "deprecated" }]);
  });

  it("find nothing in a tree that serves no files of its own (no DocumentRoot)", () => {
    expect(linesOf(D2, "ServerRoot /usr/local/apache2\nListen 80\n")).toEqual([]);
    expect(linesOf(D3, "ServerRoot /usr/local/apache2\nListen 80\n")).toEqual([]);
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

describe("D2 and D3 on a tree written for 2.4", () => {
  it("find nothing where the tree loads a module only 2.4 has (its MPM): 2.4's defaults are its authors' own", () => {
    const text = "LoadModule mpm_event_module modules/mod_mpm_event.so\nListen 80\nDocumentRoot /srv/www\n";
    expect(linesOf(D2, text)).toEqual([]);
    expect(linesOf(D3, text)).toEqual([]);
  });
});
