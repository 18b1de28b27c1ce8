// A configuration file's bytes → its text and the logical lines httpd reads from it (ap_cfg_getline_core and
// cfg_trim_line in server/util.c). Checked against the source of 2.4.62 and 2.2.34, and with `httpd -t` on
// 2.2.34 and 2.4.68 (continuation after `\ `, after `\\`, through a comment, over CR LF; the byte-order mark):
// - a line continues when a backslash stands right before its line end (`\` LF or `\` CR LF): the backslash
//   and the line end go, nothing else does; whitespace before the backslash and the next line's leading
//   whitespace stay (`a \` + `   b` reads `a    b`). A backslash followed by a space, then the line end, does
//   not continue the line (the backslash is an ordinary character);
// - the last line continues only if it has a line end: `a \` at the very end of a file without a final line
//   end keeps its backslash;
// - 2.2 and 2.4 differ for a line ending in two backslashes: 2.4 continues (taking one away), 2.2 does not
//   (and also takes one away). This tree follows 2.4 and reports the line;
// - continuation is joined before the comment test, so a comment ending in `\` swallows the next line;
// - the whole logical line is then trimmed of apr_isspace on both ends (so CR before LF never reaches a word).
// Neither version takes a UTF-8 byte-order mark away on Unix (that code is under #ifdef WIN32 in
// ap_pcfg_openfile), so httpd reads it as part of the first line; the parser reports it.

import { isConfSpaceCode } from "./read-words.ts";

export interface DecodedFile {
  /** The text after the byte-order mark, decoded as `encoding`. */
  text: string;
  encoding: "utf8" | "latin1";
  bom: boolean;
  /** Whether the bytes hold a NUL: no configuration text holds one. */
  binary: boolean;
}

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

export function decodeFile(bytes: Buffer): DecodedFile {
  if (bytes.includes(0)) return { text: bytes.toString("latin1"), encoding: "latin1", bom: false, binary: true };
  const bom = bytes.subarray(0, 3).equals(utf8Bom);
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
    return { text, encoding: "utf8", bom, binary: false };
  } catch {
    // latin1 maps every byte to one character and back, so printing gives the same bytes.
    return { text: body.toString("latin1"), encoding: "latin1", bom, binary: false };
  }
}

export function encodeText(text: string, encoding: "utf8" | "latin1"): Buffer {
  return Buffer.from(text, encoding);
}

export interface PhysicalLine {
  /** 1-based. */
  number: number;
  /** Without its line end. In a file with mixed line ends the CR of a CR LF stays here, see `splitLines`. */
  text: string;
  /** What follows `text` in the file: "\r\n" in a CR LF file, "\n" otherwise, "" for a last line without one. */
  eol: "\n" | "\r\n" | "";
  /** The line as httpd reads it: `text` without the CR of a CR LF line end. */
  body: string;
  /** Where `text` starts in the text split (a UTF-16 index). */
  start: number;
}

export interface SplitText {
  lines: PhysicalLine[];
  /** "\r\n" when every line end is CR LF; else "\n" (and a CR LF line keeps its CR in `text`, so the printer,
   * which writes `lineEnd` between lines, gives the bytes back either way). */
  lineEnd: "\n" | "\r\n";
  finalLineEnd: boolean;
}

export function splitLines(text: string): SplitText {
  if (text.length === 0) return { lines: [], lineEnd: "\n", finalLineEnd: false };
  // One pass over the text with indexOf, no array of parts to walk again: a large tree has hundreds of thousands
  // of lines.
  const finalLineEnd = text.charCodeAt(text.length - 1) === 10;
  let crlf = true;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    if (text.charCodeAt(at - 1) !== 13) {
      crlf = false;
      break;
    }
  }
  // No line end at all: nothing ended is CR LF (as `every` on no ended line would not say).
  if (!text.includes("\n")) crlf = false;
  const lines: PhysicalLine[] = [];
  let start = 0;
  let number = 1;
  for (;;) {
    const end = text.indexOf("\n", start);
    if (end < 0) {
      if (start < text.length) lines.push({ number, text: text.slice(start), eol: "", body: text.slice(start), start });
      break;
    }
    const cr = text.charCodeAt(end - 1) === 13 && end > start;
    if (crlf) {
      const part = text.slice(start, end - 1);
      lines.push({ number, text: part, eol: "\r\n", body: part, start });
    } else {
      const part = text.slice(start, end);
      lines.push({ number, text: part, eol: "\n", body: cr ? text.slice(start, end - 1) : part, start });
    }
    number++;
    start = end + 1;
  }
  return { lines, lineEnd: crlf ? "\r\n" : "\n", finalLineEnd };
}

export interface LinePosition {
  line: number;
  column: number;
}

export interface LineNote {
  line: number;
  column: number;
  message: string;
}

/** One line as httpd reads it, made of one or more physical lines. */
export interface LogicalLine {
  firstLine: number;
  lastLine: number;
  /** The physical lines as written, with the line ends between them, without the last one. */
  raw: string;
  /** The joined text before trimming (continuation backslashes and line ends taken away). */
  text: string;
  /** Index of the first and one past the last non-space character of `text` (httpd's trimmed line). */
  trimStart: number;
  trimEnd: number;
  /** Where the character at `index` of `text` is in the file (1-based); `index` may be `text.length`. */
  positionOf(index: number): LinePosition;
  /** positionOf's line and column apart, without an object: the parser asks for every word and node. */
  lineAt(index: number): number;
  columnAt(index: number): number;
  /** The physical line's length of `lastLine` (for spans ending at the end of a line). */
  lastLineLength: number;
  /** Things about the line ends worth telling (a backslash that does not continue, 2.2/2.4 differences). */
  notes: LineNote[];
}

interface Segment {
  /** Index in the logical text where this physical line's characters start. */
  start: number;
  line: number;
}

/** Shared by the lines without notes (nearly all): nothing adds to a line's notes after it is made. */
const NO_NOTES: LineNote[] = Object.freeze([]) as unknown as LineNote[];

/** A class, not an object literal with a closure per line: positionOf lives once on the prototype, and a line
 * made of one physical line (nearly all) keeps no segments. */
class JoinedLine implements LogicalLine {
  readonly firstLine: number;
  readonly lastLine: number;
  readonly raw: string;
  readonly text: string;
  readonly trimStart: number;
  readonly trimEnd: number;
  readonly lastLineLength: number;
  readonly notes: LineNote[];
  /** Null for a line of one physical line: its text starts at column 1 of firstLine. */
  readonly #segments: Segment[] | null;

  constructor(firstLine: number, lastLine: number, raw: string, text: string, lastLineLength: number, notes: LineNote[], segments: Segment[] | null) {
    let trimStart = 0;
    while (trimStart < text.length && isConfSpaceCode(text.charCodeAt(trimStart))) trimStart++;
    let trimEnd = text.length;
    while (trimEnd > trimStart && isConfSpaceCode(text.charCodeAt(trimEnd - 1))) trimEnd--;
    this.firstLine = firstLine;
    this.lastLine = lastLine;
    this.raw = raw;
    this.text = text;
    this.trimStart = trimStart;
    this.trimEnd = trimEnd;
    this.lastLineLength = lastLineLength;
    this.notes = notes;
    this.#segments = segments;
  }

  positionOf(at: number): LinePosition {
    return { line: this.lineAt(at), column: this.columnAt(at) };
  }

  lineAt(at: number): number {
    return this.#segments === null ? this.firstLine : this.#segmentAt(at).line;
  }

  columnAt(at: number): number {
    return this.#segments === null ? at + 1 : at - this.#segmentAt(at).start + 1;
  }

  #segmentAt(at: number): Segment {
    const segments = this.#segments as Segment[];
    let segment = segments[0] as Segment;
    for (const candidate of segments) {
      if (candidate.start <= at) segment = candidate;
      else break;
    }
    return segment;
  }
}

const BACKSLASH = 92;

export function joinLogicalLines(lines: readonly PhysicalLine[]): LogicalLine[] {
  const out: LogicalLine[] = [];
  for (let index = 0; index < lines.length; ) {
    const line = logicalLineAt(lines, index);
    out.push(line);
    index += line.lastLine - line.firstLine + 1;
  }
  return out;
}

/** The logical line starting at physical line `first` (an index into `lines`); the next one starts
 * `lastLine - firstLine + 1` lines further. */
export function logicalLineAt(lines: readonly PhysicalLine[], first: number): LogicalLine {
  let index = first;
  let segments: Segment[] | null = null;
  let notes = NO_NOTES;
  let text = "";
  let raw = "";
  for (;;) {
    const line = lines[index] as PhysicalLine;
    const body = line.body;
    if (index > first) {
      (segments ??= [{ start: 0, line: (lines[first] as PhysicalLine).number }]).push({ start: text.length, line: line.number });
      raw += (lines[index - 1] as PhysicalLine).eol + line.text;
    } else {
      raw = line.text;
    }
    const endsInBackslash = body.charCodeAt(body.length - 1) === BACKSLASH;
    const continues = line.eol !== "" && endsInBackslash;
    if (continues) {
      text += body.slice(0, -1);
      if (body.charCodeAt(body.length - 2) === BACKSLASH) {
        if (notes === NO_NOTES) notes = [];
        notes.push({
          line: line.number,
          column: body.length - 1,
          message:
            "this line ends in two backslashes: httpd 2.4 continues it on the next line (dropping one " +
            "backslash), httpd 2.2 does not continue it (and also drops one)",
        });
      }
    } else {
      text += body;
      // Only a line holding a backslash can have one followed by whitespace at its end.
      const spaced = line.eol !== "" && body.includes("\\") ? /\\[ \t\v\f]+$/.exec(body) : null;
      if (spaced !== null) {
        if (notes === NO_NOTES) notes = [];
        notes.push({
          line: line.number,
          column: spaced.index + 1,
          message:
            "a backslash followed by whitespace does not continue the line in httpd; the backslash is read " +
            "as an ordinary character",
        });
      }
    }
    index++;
    if (!continues || index >= lines.length) break;
  }
  const last = lines[index - 1] as PhysicalLine;
  return new JoinedLine((lines[first] as PhysicalLine).number, last.number, raw, text, last.body.length, notes, segments);
}
