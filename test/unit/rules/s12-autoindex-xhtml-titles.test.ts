import { describe, expect, it } from "vitest";
import { S12 } from "../../../harness/rules/s12-autoindex-xhtml-titles.ts";
import { evidence, linesOf } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S12 .xhtml titles", () => {
  it("finds IndexOptions with ScanHTMLTitles only", () => {
    expect(linesOf(S12, `${load("autoindex")}IndexOptions FancyIndexing\nIndexOptions +ScanHTMLTitles\n`)).toEqual([{ line: 3, severity: "expected" }]);
  });

  it("claims two listings with an .xhtml entry", () => {
    const listing = (title: string) => `<title>Index of /list</title><a href="page.xhtml">page.xhtml</a> ${title}`;
    expect(S12.recognise!(evidence({ field: "body", baseline: listing(""), candidate: listing("Xhtml Page Title") }))).not.toBeNull();
    expect(S12.recognise!(evidence({ field: "body", baseline: "<h1>a</h1>", candidate: listing("Xhtml Page Title") }))).toBeNull();
  });
});
