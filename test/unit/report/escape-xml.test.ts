import { describe, expect, it } from "vitest";
import { escapeXml, escapeXmlAttribute } from "../../../harness/report/escape-xml.ts";

describe("escapeXml", () => {
  it("escapes the five markup characters", () => {
    expect(escapeXml(`<&>"'`)).toBe("&lt;&amp;&gt;&quot;&apos;");
    expect(escapeXml("a &amp; b")).toBe("a &amp;amp; b");
  });

  it("replaces characters XML 1.0 forbids and keeps tab, newline and carriage return", () => {
    expect(escapeXml("nul\u0000 bel\u0007 esc\u001b vt\u000b ff\u000c")).toBe("nul\uFFFD bel\uFFFD esc\uFFFD vt\uFFFD ff\uFFFD");
    expect(escapeXml("\uFFFE\uFFFF")).toBe("\uFFFD\uFFFD");
    expect(escapeXml("lone \uD800 surrogate")).toBe("lone \uFFFD surrogate");
    expect(escapeXml("tab\tline\ncr\r")).toBe("tab\tline\ncr&#13;");
  });

  it("keeps characters outside the BMP and ordinary non-ASCII text", () => {
    expect(escapeXml("déjà vu 😀 →")).toBe("déjà vu 😀 →");
  });
});

describe("escapeXmlAttribute", () => {
  it("also keeps tabs and newlines through attribute-value normalisation", () => {
    expect(escapeXmlAttribute(`a\tb\nc "d" <e>`)).toBe("a&#9;b&#10;c &quot;d&quot; &lt;e&gt;");
    expect(escapeXmlAttribute("x\u0001y")).toBe("x\uFFFDy");
  });
});
