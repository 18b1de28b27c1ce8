// Words of one configuration line as httpd splits them: ap_getword_conf and substring_conf in server/util.c
// (same code in 2.2.34 and 2.4.62; each rule below also checked with `httpd -t` on 2.2.34 and 2.4.68, a test
// value put where httpd echoes it: "Invalid command '...'"). The rules, which other parsers get wrong:
// - words are separated by apr_isspace (space, \t, \n, \v, \f, \r);
// - a word starting with " or ' runs to the same quote; inside it, a backslash escapes only that quote
//   character or a backslash (`\"` → `"`, `\\` → `\`); every other backslash stays (`"C:\dir"` → `C:\dir`);
// - a quote that never closes is not an error: the word runs to the end of the line;
// - the closing quote ends the word even with no space after it (`"a"b` is `a` and `b`, `'it''s'` is `it`, `s`);
// - an unquoted word runs to the next space; quotes inside it are literal (`a"b"` is `a"b"`), and `\\` in it
//   still becomes `\` (substring_conf collapses it whatever the quoting).

export interface ReadWord {
  value: string;
  raw: string;
  quote: '"' | "'" | null;
  /** Index of the word's first character (the quote when quoted) in the text read. */
  start: number;
  /** Index just after the word's last character. */
  end: number;
  /** A quoted word whose closing quote is missing (httpd reads it to the end of the line). */
  unterminated: boolean;
}

export function isConfSpace(ch: string | undefined): boolean {
  return ch === " " || ch === "\t" || ch === "\n" || ch === "\v" || ch === "\f" || ch === "\r";
}

/** isConfSpace of the UTF-16 unit `text.charCodeAt(i)` (NaN past the end: not a space): \t \n \v \f \r are 9-13.
 * The loops that scan every character of a tree's lines ask this, with no one-character string made per ask. */
export function isConfSpaceCode(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** substring_conf: take away the backslash before a backslash, or before the quote character when quoted. */
export function unescapeWord(text: string, quote: '"' | "'" | null): string {
  // Most words hold no backslash: the word itself, not a copy built a character at a time (each `+=` of one
  // character is a rope node until flattened: about 40 bytes a character on a large tree).
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === "\\" && (next === "\\" || (quote !== null && next === quote))) {
      out += next;
      i++;
    } else {
      out += ch;
    }
  }
  return out;
}

/** The next word at or after `from`, or null when only whitespace is left. */
export function readWord(text: string, from: number): ReadWord | null {
  let start = from;
  while (start < text.length && isConfSpaceCode(text.charCodeAt(start))) start++;
  if (start >= text.length) return null;
  const first = text[start];
  if (first === '"' || first === "'") {
    const quote = first;
    let end = start + 1;
    while (end < text.length && text[end] !== quote) {
      const next = text[end + 1];
      if (text[end] === "\\" && next !== undefined && (next === quote || next === "\\")) end += 2;
      else end++;
    }
    const inner = text.slice(start + 1, Math.min(end, text.length));
    const unterminated = end >= text.length;
    const stop = unterminated ? text.length : end + 1;
    return {
      value: unescapeWord(inner, quote),
      raw: text.slice(start, stop),
      quote,
      start,
      end: stop,
      unterminated,
    };
  }
  let end = start;
  while (end < text.length && !isConfSpaceCode(text.charCodeAt(end))) end++;
  const raw = text.slice(start, end);
  return { value: unescapeWord(raw, null), raw, quote: null, start, end, unterminated: false };
}

export function readWords(text: string, from = 0): ReadWord[] {
  const words: ReadWord[] = [];
  let at = from;
  for (;;) {
    const word = readWord(text, at);
    if (word === null) return words;
    words.push(word);
    at = word.end;
  }
}

/** How to write `value` so that httpd reads it back as `value`: bare when it can be, else in double quotes with
 * `"` escaped and every backslash escaped that httpd would otherwise take as an escape (before `\`, before `"`,
 * and at the end, where it would swallow the closing quote). A value holding a line break cannot be written. */
export function quoteWord(value: string): string {
  const bare =
    value.length > 0 &&
    !/[ \t\n\v\f\r]/.test(value) &&
    value[0] !== '"' &&
    value[0] !== "'" &&
    !value.includes("\\\\") &&
    // a last word ending in `\` would continue the line
    !value.endsWith("\\");
  if (bare) return value;
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    const next = value[i + 1];
    if (ch === '"') out += '\\"';
    else if (ch === "\\" && (next === undefined || next === "\\" || next === '"')) out += "\\\\";
    else out += ch;
  }
  return out + '"';
}
