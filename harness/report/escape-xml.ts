// XML 1.0 escaping for the JUnit report. XML 1.0 forbids most control characters even as character references
// (only tab, newline and carriage return are allowed), as well as lone surrogates and U+FFFE/U+FFFF; they are
// replaced by U+FFFD so a server's binary garbage cannot make the report unparseable.

/** Characters outside XML 1.0's `Char` production. */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export const XML_REPLACEMENT_CHARACTER = "\uFFFD";

const TEXT_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  // A parser turns a literal CR (and CRLF) into LF; a reference keeps it.
  "\r": "&#13;",
};

const ATTRIBUTE_ENTITIES: Record<string, string> = {
  ...TEXT_ENTITIES,
  // Attribute-value normalisation turns literal tabs and newlines into spaces; references keep them.
  "\t": "&#9;",
  "\n": "&#10;",
};

/** Escapes text for element content. */
export function escapeXml(text: string): string {
  return text.replace(FORBIDDEN, XML_REPLACEMENT_CHARACTER).replace(/[&<>"'\r]/g, (c) => TEXT_ENTITIES[c] ?? c);
}

/** Escapes text for a double- or single-quoted attribute value, keeping tabs and newlines. */
export function escapeXmlAttribute(text: string): string {
  return text
    .replace(FORBIDDEN, XML_REPLACEMENT_CHARACTER)
    .replace(/[&<>"'\r\n\t]/g, (c) => ATTRIBUTE_ENTITIES[c] ?? c);
}
