// One configuration file's bytes → its syntax tree, following httpd's own reading (server/config.c
// ap_build_config_sub and ap_build_config, 2.2.34 and 2.4.62; line and word rules in lex-lines.ts and
// read-words.ts). It never throws on content and never gives up on a file for one bad line: what httpd would
// refuse becomes a problem with its position, and the tree keeps every byte so printFile gives the file back.
//
// httpd's rules the tree follows:
// - a line whose trimmed text starts with `#` is a comment; `#` anywhere else is an ordinary argument
//   (`Foo bar # x` has the arguments `bar`, `#`, `x`);
// - the first word is the directive's name (matched case-insensitively); the rest, after the spaces following
//   the name, is `argsText` (what RAW_ARGS directives see);
// - a first word starting with `<` opens a section; its trailing `>` is taken off the word, and each section
//   handler reads its arguments up to the LAST `>` of the line (core.c `ap_strrchr_c(arg, '>')`), so
//   `<IfVersion >= 2.3>` has the arguments `>=` and `2.3`, and `<Location "/a>b">` has `/a>b`;
// - `</Name>` closes the innermost open section, names compared case-insensitively; its first word must end
//   in `>` (`</Name >` is "missing closing '>'" in httpd).
// The section problems use httpd's own words; `httpd -t` on 2.2.34 and 2.4.68 gives the same for a missing `>`, a
// mismatched, stray or unclosed section, and accepts text after an opening's last `>` and a `>` inside quotes.

import { decodeFile, logicalLineAt, splitLines, type DecodedFile, type LogicalLine, type PhysicalLine, type SplitText } from "./lex-lines.ts";
import { isConfSpaceCode, readWord, readWords, type ReadWord } from "./read-words.ts";
import type {
  BlankNode,
  CommentNode,
  ConfProblem,
  DirectiveNode,
  ParsedFile,
  ProblemSeverity,
  SectionNode,
  Span,
  SyntaxNode,
  Word,
} from "./syntax-tree.ts";

/** httpd 2.2 reads a configuration line into a MAX_STRING_LEN (8192) buffer with apr_file_gets, which keeps one
 * byte for the terminating NUL (server/config.c ap_build_config; 2.4 grows its buffer to 16 MB). A line of 8191
 * bytes leaves only its LF for the next read, an empty line; one of 8192 leaves a byte: `httpd -t` on 2.2.34
 * says "Invalid command 'z'" on line 2 for an 8192-byte line ending in z, and "Syntax OK" for 8191. */
const shortLineLimit = 8191;

/** Sections whose body httpd reads with ap_build_cont_config when their condition holds: that function finds
 * the close by comparing the whole trimmed line with `</Name>` (server/core.c start_cond_section in 2.4,
 * start_ifmod/start_ifdefine in 2.2, mod_version start_ifversion in both). */
const conditionalSections = new Set(["ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection"]);

interface OpenSection {
  node: SectionNode;
  /** Where the section's `<` is, for the "was not closed" problem. */
  line: number;
  column: number;
}

/** What each node read as when the parser made it, so the printer can tell an untouched node at the cost of a
 * comparison instead of reading its raw text again. Kept in a private field of the node classes below, not in a
 * WeakMap by node: a large tree has hundreds of thousands of nodes, and a WeakMap's entries cost more memory and
 * garbage-collection time than a field. A field no spread or structuredClone copies, so a copy, as a node a
 * rewrite builds, is not "as parsed": the printer reads those again. */
interface AsParsed {
  raw: string;
  head: string;
  values: string[];
  /** The words the parser gave the node; for a line of one physical line, until asked for (wordsOf), where they
   * are read again from `raw`: `raw.slice(0, argsEnd)` from `argsStart`, the two packed in one small integer
   * (WORDS_LATER_SHIFT) rather than two fields of every reading. Lint reads the values, not the words: 100,000
   * words and their 80,000 arrays (8 MiB of a 10,000-vhost tree) were made for lines no rule asked the words of. */
  words: readonly Word[] | number;
}

/** argsStart and argsEnd of a reading whose words are made later, as `argsStart << 15 | argsEnd`: both below 2^15
 * (a longer line has its words made at once), so the number stays a small integer V8 keeps in the field. */
const WORDS_LATER_SHIFT = 15;
const WORDS_LATER_MASK = 32767;

/** The words of `raw.slice(0, argsEnd)` from `argsStart`, as a line of one physical line has them (each word's
 * column is its index plus one, its line the node's own). */
function wordsAt(raw: string, argsStart: number, argsEnd: number): readonly Word[] {
  const read = readWords(raw.slice(0, argsEnd), argsStart);
  const words = new Array<Word>(read.length);
  for (let at = 0; at < read.length; at++) {
    const word = read[at]!;
    words[at] = { value: word.value, raw: word.raw, quote: word.quote, lineOffset: 0, column: word.start + 1 };
  }
  return Object.freeze(words);
}

/** The reading's words, made on the first ask for a line read without them. */
function wordsOf(parsed: AsParsed): readonly Word[] {
  const words = parsed.words;
  if (typeof words !== "number") return words;
  return (parsed.words = wordsAt(parsed.raw, words >> WORDS_LATER_SHIFT, words & WORDS_LATER_MASK));
}

/** Parsed nodes a rewrite changed a field of (changed): rare, so a set, not a field in every node. */
const changedNodes = new WeakSet<object>();

/** A node's span kept as numbers in the node itself, the Span made when asked: a Span object per node was a third of
 * the objects a 10,000-vhost tree keeps (361,000 of them, 22 MiB), and most are never asked for (lint asks the
 * spans of the lines it reports). Each ask makes a new Span, which nothing keeps: spans are values (nothing
 * compares them by identity or changes one in place), and setting `span` keeps its numbers, packed two by two.
 * A getter on the prototype, so a spread of a node (`{ ...node }`) does not copy `span`: give it explicitly. */
class Placed {
  #file: string;
  /** The first line and how many more the node spans, as one small integer (LINES_SHIFT); -1: see `#wide`. */
  #lines: number;
  /** The first and the last column, as one small integer (COLUMNS_SHIFT); -1: see `#wide`. */
  #columns: number;

  constructor(file: string, line: number, column: number, endLine: number, endColumn: number) {
    this.#file = file;
    this.#lines = 0;
    this.#columns = 0;
    this.#place(line, column, endLine, endColumn);
  }

  #place(line: number, column: number, endLine: number, endColumn: number): void {
    const more = endLine - line;
    if (line >= 0 && line < MAX_PACKED_LINE && more >= 0 && more <= LINES_MASK && column >= 0 && column <= COLUMNS_MASK && endColumn >= 0 && endColumn <= COLUMNS_MASK) {
      if (this.#lines < 0) wideSpans.delete(this);
      // Bit operations: integers V8 keeps unboxed in the node (a multiplication by 2 ** n gave a boxed number).
      this.#lines = (line << LINES_SHIFT) | more;
      this.#columns = (column << COLUMNS_SHIFT) | endColumn;
    } else {
      this.#lines = -1;
      this.#columns = -1;
      wideSpans.set(this, { line, column, endLine, endColumn });
    }
  }

  get span(): Span {
    const lines = this.#lines;
    if (lines < 0) return { file: this.#file, ...wideSpans.get(this)! };
    const line = lines >> LINES_SHIFT;
    const columns = this.#columns;
    return { file: this.#file, line, column: columns >> COLUMNS_SHIFT, endLine: line + (lines & LINES_MASK), endColumn: columns & COLUMNS_MASK };
  }

  set span(span: Span) {
    this.#file = span.file;
    this.#place(span.line, span.column, span.endLine, span.endColumn);
  }
}

/** A span's numbers packed two by two into small integers (below 2^30, kept unboxed by V8): lines to 2^20 with up
 * to 2^10 more lines, columns to 2^15. A node beyond (a line of 40,000 characters, a section of 2,000 lines)
 * keeps its numbers here instead. */
const LINES_SHIFT = 10;
const LINES_MASK = 1023;
const COLUMNS_SHIFT = 15;
const COLUMNS_MASK = 32767;
const MAX_PACKED_LINE = 1048576;
const wideSpans = new WeakMap<Placed, { line: number; column: number; endLine: number; endColumn: number }>();

class ParsedBlank extends Placed implements BlankNode {
  /** On the prototype (KINDS below), not a field of each of the 360,000 nodes of a 10,000-vhost tree. */
  declare readonly kind: "blank";
  raw: string;

  constructor(raw: string, span: Span) {
    super(span.file, span.line, span.column, span.endLine, span.endColumn);
    this.raw = raw;
  }

  /** JSON.stringify gives a parsed node as it gives a plain one: getters are not its own fields. */
  toJSON(): BlankNode {
    return { kind: this.kind, raw: this.raw, span: this.span };
  }
}

/** A field a rewrite set on a parsed node: from then on the node's own, in front of the reading's (the printer
 * tells the change by comparing with `#parsed`). Rare: a node so changed costs more than one left as read. */
function changed(node: object, field: string, value: unknown): void {
  changedNodes.add(node);
  Object.defineProperty(node, field, { value, writable: true, enumerable: true, configurable: true });
}

/** A directive as parsed. Its name, words and raw text are its reading's (`#parsed`, shared by every line that
 * reads the same), not fields of its own: three fewer per node of a tree of hundreds of thousands; one set by a
 * rewrite becomes the node's own (changed). Getters on the prototype, as `span`: a spread does not copy them
 * (copy a node field by field, as shiftNode does). */
class ParsedDirective extends Placed implements DirectiveNode {
  /** On the prototype (KINDS below), not a field of each of the 360,000 nodes of a 10,000-vhost tree. */
  declare readonly kind: "directive";
  key: string;
  argsText: string;
  readonly #parsed: AsParsed;
  #evaluated: object | undefined = undefined;

  /** `parsed` holds the name (head), the words and the raw text. */
  constructor(key: string, argsText: string, span: Span, parsed: AsParsed) {
    super(span.file, span.line, span.column, span.endLine, span.endColumn);
    this.key = key;
    this.argsText = argsText;
    this.#parsed = parsed;
  }

  get name(): string {
    return this.#parsed.head;
  }

  set name(value: string) {
    changed(this, "name", value);
  }

  get args(): readonly Word[] {
    return wordsOf(this.#parsed);
  }

  set args(value: readonly Word[]) {
    changed(this, "args", value);
  }

  get raw(): string {
    return this.#parsed.raw;
  }

  set raw(value: string) {
    changed(this, "raw", value);
  }

  toJSON(): DirectiveNode {
    return { kind: this.kind, name: this.name, key: this.key, args: this.args, argsText: this.argsText, span: this.span, raw: this.raw };
  }

  static parsedOf(node: object): AsParsed | undefined {
    return #parsed in node ? (node as ParsedDirective).#parsed : undefined;
  }

  static evaluatedOf(node: object): object | undefined {
    return #evaluated in node ? (node as ParsedDirective).#evaluated : undefined;
  }

  static setEvaluated(node: object, value: object): boolean {
    if (!(#evaluated in node)) return false;
    (node as ParsedDirective).#evaluated = value;
    return true;
  }
}

/** As ParsedDirective: the name, words and opening line are the reading's. */
class ParsedSection extends Placed implements SectionNode {
  /** On the prototype (KINDS below), not a field of each of the 360,000 nodes of a 10,000-vhost tree. */
  declare readonly kind: "section";
  key: string;
  argsText: string;
  children: SyntaxNode[] = [];
  closeRaw: string | null = null;
  closeSpan: Span | null = null;
  readonly #parsed: AsParsed;
  #evaluated: object | undefined = undefined;

  constructor(key: string, argsText: string, span: Span, parsed: AsParsed) {
    super(span.file, span.line, span.column, span.endLine, span.endColumn);
    this.key = key;
    this.argsText = argsText;
    this.#parsed = parsed;
  }

  get name(): string {
    return this.#parsed.head;
  }

  set name(value: string) {
    changed(this, "name", value);
  }

  get args(): readonly Word[] {
    return wordsOf(this.#parsed);
  }

  set args(value: readonly Word[]) {
    changed(this, "args", value);
  }

  get openRaw(): string {
    return this.#parsed.raw;
  }

  set openRaw(value: string) {
    changed(this, "openRaw", value);
  }

  toJSON(): SectionNode {
    const { kind, name, key, args, argsText, children, span, openRaw, closeRaw, closeSpan } = this;
    return { kind, name, key, args, argsText, children, span, openRaw, closeRaw, closeSpan };
  }

  static parsedOf(node: object): AsParsed | undefined {
    return #parsed in node ? (node as ParsedSection).#parsed : undefined;
  }

  static evaluatedOf(node: object): object | undefined {
    return #evaluated in node ? (node as ParsedSection).#evaluated : undefined;
  }

  static setEvaluated(node: object, value: object): boolean {
    if (!(#evaluated in node)) return false;
    (node as ParsedSection).#evaluated = value;
    return true;
  }
}

/** As ParsedDirective: the text and the raw line are the reading's. */
class ParsedComment extends Placed implements CommentNode {
  /** On the prototype (KINDS below), not a field of each of the 360,000 nodes of a 10,000-vhost tree. */
  declare readonly kind: "comment";
  readonly #parsed: AsParsed;

  constructor(span: Span, parsed: AsParsed) {
    super(span.file, span.line, span.column, span.endLine, span.endColumn);
    this.#parsed = parsed;
  }

  get text(): string {
    return this.#parsed.head;
  }

  set text(value: string) {
    changed(this, "text", value);
  }

  get raw(): string {
    return this.#parsed.raw;
  }

  set raw(value: string) {
    changed(this, "raw", value);
  }

  toJSON(): CommentNode {
    return { kind: this.kind, text: this.text, raw: this.raw, span: this.span };
  }

  static parsedOf(node: object): AsParsed | undefined {
    return #parsed in node ? (node as ParsedComment).#parsed : undefined;
  }
}

// Each node's kind, on its class's prototype: a data property there is read as fast as a field (the classes are
// few) and costs no slot per node. Not writable, as a node's kind never changes.
for (const [type, kind] of [[ParsedBlank, "blank"], [ParsedDirective, "directive"], [ParsedSection, "section"], [ParsedComment, "comment"]] as const) {
  Object.defineProperty(type.prototype, "kind", { value: kind, enumerable: true });
}

function asParsedOf(node: DirectiveNode | SectionNode | CommentNode): AsParsed | undefined {
  return node.kind === "directive" ? ParsedDirective.parsedOf(node) : node.kind === "section" ? ParsedSection.parsedOf(node) : ParsedComment.parsedOf(node);
}

const NO_VALUES: string[] = Object.freeze([]) as unknown as string[];
const NO_WORDS: readonly Word[] = Object.freeze([]);

/** What a node reads as, `args` frozen: parsedValues hands the values out, and every node that reads the same
 * (LineReadings) shares the record, its words and its values. */
function asParsed(raw: string, head: string, args: Word[]): AsParsed {
  if (args.length === 0) return { raw, head, values: NO_VALUES, words: NO_WORDS };
  return { raw, head, values: Object.freeze(args.map((arg) => arg.value)) as string[], words: Object.freeze(args) };
}

/** As asParsed, for a line of one physical line whose words are all terminated: the values now, the words
 * (`raw.slice(0, argsEnd)` read from `argsStart`) when asked. */
function asParsedLater(raw: string, head: string, read: readonly ReadWord[], argsStart: number, argsEnd: number): AsParsed {
  if (read.length === 0) return { raw, head, values: NO_VALUES, words: NO_WORDS };
  const values = new Array<string>(read.length);
  for (let at = 0; at < read.length; at++) values[at] = read[at]!.value;
  const words = argsEnd <= WORDS_LATER_MASK ? (argsStart << WORDS_LATER_SHIFT) | argsEnd : wordsAt(raw, argsStart, argsEnd);
  return { raw, head, values: Object.freeze(values) as string[], words };
}

/** Whether a line's words can be read again from its raw text alone, later: one physical line, no word left
 * open (which is a problem, given as the line is read). */
function wordsLater(logical: LogicalLine, read: readonly ReadWord[]): boolean {
  if (logical.lastLine !== logical.firstLine) return false;
  for (let at = 0; at < read.length; at++) if (read[at]!.unterminated) return false;
  return true;
}

function sameValues(args: readonly Word[], values: readonly string[]): boolean {
  if (args.length !== values.length) return false;
  for (let i = 0; i < args.length; i++) if ((args[i] as Word).value !== values[i]) return false;
  return true;
}

/** The argument values of a node parseFile made and nobody changed since, as one frozen array that nodes reading
 * the same share (the evaluator's args without a copy per node and version); undefined otherwise. */
export function parsedValues(node: DirectiveNode | SectionNode): string[] | undefined {
  const seen = asParsedOf(node);
  if (seen === undefined) return undefined;
  // A node no rewrite changed holds its reading's name, words and raw text (their getters): nothing to compare.
  if (!changedNodes.has(node)) return seen.values;
  const raw = node.kind === "section" ? node.openRaw : node.raw;
  return raw === seen.raw && node.name === seen.head && (node.args === seen.words || sameValues(node.args, seen.values)) ? seen.values : undefined;
}

/** What the evaluator last made of a node parseFile made (evaluate-tree.ts keeps it, to share what reads the same
 * between two evaluations): a private slot of the node, as `#parsed` is, since a WeakMap by node costs far more
 * over hundreds of thousands of nodes. Undefined for a node parseFile did not make, or not evaluated yet. */
export function evaluatedOf(node: DirectiveNode | SectionNode): object | undefined {
  return node.kind === "directive" ? ParsedDirective.evaluatedOf(node) : ParsedSection.evaluatedOf(node);
}

/** Keeps `value` in the node's slot; a node parseFile did not make (a copy, a node a rewrite built) keeps nothing. */
export function keepEvaluated(node: DirectiveNode | SectionNode, value: object): void {
  if (node.kind === "directive") ParsedDirective.setEvaluated(node, value);
  else ParsedSection.setEvaluated(node, value);
}

/** Whether `node` still holds what the parser read from its raw text: yes, no, or unknown (not made by
 * parseFile, or made by it and then copied). */
export function unchangedSinceParse(node: DirectiveNode | SectionNode | CommentNode): boolean | undefined {
  const seen = asParsedOf(node);
  if (seen === undefined) return undefined;
  if (!changedNodes.has(node)) return true;
  const [raw, head, args] =
    node.kind === "section"
      ? [node.openRaw, node.name, node.args]
      : node.kind === "directive"
        ? [node.raw, node.name, node.args]
        : [node.raw, node.text, []];
  return raw === seen.raw && head === seen.head && sameValues(args, seen.values);
}

/** What a line of one physical line read as, apart from where it is (file, line). */
interface LineReading {
  /** "close": a `</Name>` alone on its line that closed the innermost section, as `Name`'s key. */
  kind: "blank" | "comment" | "directive" | "section" | "close";
  /** The name's lower-cased key (directives and sections). */
  key: string;
  argsText: string;
  /** Columns of the node's first and last character. */
  column: number;
  endColumn: number;
  /** The raw text (the reading's key), the name (a comment's text), the values and the words. */
  parsed: AsParsed;
  /** The reading of the line that last came right after this one (LineReadings.get tries it first). */
  next: LineReading | undefined;
}

/** Lines read before, by raw text: a tree repeats most of its lines (each vhost's `Order allow,deny`), and
 * reading one again costs more than a lookup. One per parse of a file unless the caller gives one to share
 * across the files of a tree (evaluate-tree.ts, one per evaluation): never longer-lived than that, since its
 * strings are slices of the files' texts and would keep them alive. Bounded: when full it starts again empty
 * (the lines a tree repeats come back within a vhost; a second map of older lines cost every new line a second
 * lookup). Only lines read without a problem are kept, so a reading placed again adds none. Lines are asked in
 * file order, and a tree repeats them in runs (every vhost's section of the same lines): the line that came
 * after the last one asked is compared first, which costs less than hashing the text for the map. */
export class LineReadings {
  static readonly LIMIT = 10_000;
  readonly #readings = new Map<string, LineReading>();
  /** The reading of the line asked last (or kept after it was asked), whose `next` is tried first. */
  #last: LineReading | undefined;
  /** The reading of the line before a line the map did not hold, for `keep` to link. */
  #beforeMiss: LineReading | undefined;

  /** The reading of `raw`, asked for each line in turn. */
  get(raw: string): LineReading | undefined {
    const last = this.#last;
    const predicted = last?.next;
    if (predicted !== undefined && predicted.parsed.raw === raw) return (this.#last = predicted);
    const reading = this.#readings.get(raw);
    if (reading !== undefined && last !== undefined) last.next = reading;
    this.#beforeMiss = reading === undefined ? last : undefined;
    this.#last = reading;
    return reading;
  }

  /** Keeps the reading of `raw`, the line asked last. */
  keep(raw: string, reading: LineReading): void {
    if (this.#readings.size >= LineReadings.LIMIT) this.#readings.clear();
    this.#readings.set(raw, reading);
    if (this.#beforeMiss !== undefined) this.#beforeMiss.next = reading;
    this.#beforeMiss = undefined;
    this.#last = reading;
  }
}

export function parseFile(path: string, bytes: Buffer, readings: LineReadings = new LineReadings()): ParsedFile {
  const decoded = decodeFile(bytes);
  if (decoded.binary) return binaryFile(path, decoded.text);
  return new FileParse(path, decoded, readings, bytes).run();
}

/** One file's parse: what it has read so far, and the steps that read a line. A class, not functions made inside
 * parseFile for each file: the optimising compiler inlines a closure as the very function object one call made,
 * so each next file's closures threw the compiled parser away ("wrong call target") and it was compiled again,
 * the largest part of the first parse's cost on a tree of a thousand files. */
class FileParse {
  readonly #path: string;
  readonly #decoded: DecodedFile;
  readonly #split: SplitText;
  readonly #readings: LineReadings;
  readonly #problems: ConfProblem[] = [];
  /** Names' lower-cased keys, looked up rather than made again for every line of a file. */
  readonly #keys = new Map<string, string>();
  readonly #top: SyntaxNode[] = [];
  readonly #stack: OpenSection[] = [];

  /** The file's bytes and where its text starts in them, when every character is one byte (latin1, or UTF-8
   * holding ASCII only); else undefined. */
  readonly #bytes: Buffer | undefined;
  readonly #byteBase: number;

  constructor(path: string, decoded: DecodedFile, readings: LineReadings, bytes?: Buffer) {
    this.#path = path;
    this.#decoded = decoded;
    this.#split = splitLines(decoded.text);
    this.#readings = readings;
    this.#byteBase = decoded.bom ? 3 : 0;
    this.#bytes = bytes !== undefined && bytes.length - this.#byteBase === decoded.text.length ? bytes : undefined;
  }

  /** A line not read before, as a string of its own made from the file's bytes instead of a slice of the file's
   * text: the strings a node keeps (its raw text, its arguments, its values) are then slices of the line, and the
   * file's text, which every slice of it kept alive (10.6 MB on 10,000 vhosts, beside the 10.7 MB of bytes the tree
   * holds anyway), is garbage once the file is read. A file whose characters are not one byte each keeps slices. */
  #ownLine(lines: PhysicalLine[], index: number): void {
    const bytes = this.#bytes;
    if (bytes === undefined) return;
    const line = lines[index] as PhysicalLine;
    const from = this.#byteBase + line.start;
    const text = bytes.toString("latin1", from, from + line.text.length);
    const body = line.body.length === line.text.length ? text : text.slice(0, line.body.length);
    lines[index] = { number: line.number, text, eol: line.eol, body, start: line.start };
  }

  run(): ParsedFile {
    if (this.#decoded.bom) {
      this.#problem(
        "refusal",
        1,
        1,
        "the file starts with a UTF-8 byte-order mark; httpd on Unix (2.2 and 2.4) reads it as part of the first line, " +
          "so the first directive's name is not recognised",
        "save the file without a byte-order mark",
      );
    }

    if (!this.#decoded.text.includes("\n") && this.#decoded.text.includes("\r")) {
      this.#problem(
        "warning",
        1,
        1,
        "the file's lines end in CR alone; httpd splits lines at LF only, so it reads the whole file as one line",
        "convert the file to LF (or CR LF) line ends",
      );
    }

    const lines = this.#split.lines;
    for (let index = 0; index < lines.length; ) {
      // A line read before is placed from its physical line alone: no logical line is made for it. A line that
      // continues onto the next is never among those kept (keepReading), so it is read below.
      const physical = lines[index] as PhysicalLine;
      const reading = this.#readings.get(physical.text);
      // A close read before is placed only where it closes the innermost section again; else it is read anew,
      // for what it closes there and the problems that go with it.
      if (reading !== undefined && (reading.kind !== "close" || this.#stack.at(-1)?.node.key === reading.key)) {
        this.#placeReading(reading, physical.number);
        index++;
        continue;
      }
      this.#ownLine(lines, index);
      const logical = logicalLineAt(lines, index);
      index += logical.lastLine - logical.firstLine + 1;
      for (const note of logical.notes) this.#problem("warning", note.line, note.column, note.message);
      // UTF-8 takes at most 3 bytes per UTF-16 unit: most lines are short enough not to be measured.
      if (logical.text.length * 3 > shortLineLimit && Buffer.byteLength(logical.text, this.#decoded.encoding) > shortLineLimit) {
        this.#problem(
          "warning",
          logical.firstLine,
          1,
          `this line is longer than httpd 2.2 reads at once (${shortLineLimit} bytes, MAX_STRING_LEN less one): ` +
            "2.2 reads the rest as a new line, 2.4 reads it whole",
          "split it with continuation lines (a backslash at the end of each part)",
        );
      }
      try {
        this.#readLine(logical);
      } catch (error) {
        // A bug here must not cost the whole file: keep the line as written and say so.
        const reason = `the line could not be read: ${error instanceof Error ? error.message : String(error)}`;
        this.#siblings().push({ kind: "opaque", raw: logical.raw, span: this.#wholeSpan(logical), reason });
        this.#problem("error", logical.firstLine, 1, reason);
      }
    }

    while (this.#stack.length > 0) {
      const open = this.#popSection();
      this.#problem(
        "error",
        open.line,
        open.column,
        `<${open.node.name}> was not closed before the end of the file`,
        `add </${open.node.name}> where the section ends`,
      );
      const endLine = this.#split.lines[this.#split.lines.length - 1];
      open.node.span = {
        ...open.node.span,
        endLine: endLine?.number ?? open.line,
        endColumn: endLine?.body.length ?? open.column,
      };
    }

    this.#problems.sort((a, b) => a.line - b.line || a.column - b.column);
    return {
      path: this.#path,
      nodes: this.#top.slice(),
      problems: this.#problems,
      lineEnd: this.#split.lineEnd,
      finalLineEnd: this.#split.finalLineEnd,
      encoding: this.#decoded.encoding,
      bom: this.#decoded.bom,
    };
  }

  #problem(severity: ProblemSeverity, line: number, column: number, message: string, hint?: string): void {
    const file = this.#path;
    this.#problems.push(hint === undefined ? { severity, file, line, column, message } : { severity, file, line, column, message, hint });
  }

  #keyOf(name: string): string {
    let key = this.#keys.get(name);
    if (key === undefined) this.#keys.set(name, (key = name.toLowerCase()));
    return key;
  }

  #siblings(): SyntaxNode[] {
    return this.#stack.length === 0 ? this.#top : (this.#stack[this.#stack.length - 1] as OpenSection).node.children;
  }

  /** A section's children as an array of its exact length once nothing more joins it: an array grown by push
   * keeps room for more (17 places for a section of 2 lines), megabytes over a large tree's sections. Made as
   * each section closes, not by a second walk of the whole tree. */
  #popSection(): OpenSection {
    const open = this.#stack.pop() as OpenSection;
    open.node.children = open.node.children.slice();
    return open;
  }

  #wholeSpan(logical: LogicalLine): Span {
    return {
      file: this.#path,
      line: logical.firstLine,
      column: 1,
      endLine: logical.lastLine,
      endColumn: logical.lastLineLength,
    };
  }

  #spanOf(logical: LogicalLine, from: number, to: number): Span {
    const last = Math.max(from, to - 1);
    return { file: this.#path, line: logical.lineAt(from), column: logical.columnAt(from), endLine: logical.lineAt(last), endColumn: logical.columnAt(last) };
  }

  /** `firstLine`: the node's own first line, which the words' offsets count from. */
  #toWords(logical: LogicalLine, words: readonly ReadWord[], firstLine: number): Word[] {
    return words.map((word) => {
      const line = logical.lineAt(word.start);
      const column = logical.columnAt(word.start);
      if (word.unterminated) {
        this.#problem(
          "warning",
          line,
          column,
          `the quote ${word.quote} opened here is never closed; httpd reads the word to the end of the line`,
          `close the quote; a backslash right before a quote (as in "C:\\dir\\") escapes it`,
        );
      }
      return { value: word.value, raw: word.raw, quote: word.quote, lineOffset: line - firstLine, column };
    });
  }

  /** A line read before (in any file of this evaluation) without a problem: the same node at this line, nothing read
   * again. */
  #placeReading(reading: LineReading, line: number): void {
    const span: Span = { file: this.#path, line, column: reading.column, endLine: line, endColumn: reading.endColumn };
    const { parsed } = reading;
    if (reading.kind === "blank") this.#siblings().push(new ParsedBlank(parsed.raw, span));
    else if (reading.kind === "comment") this.#siblings().push(new ParsedComment(span, parsed));
    else if (reading.kind === "directive") this.#siblings().push(new ParsedDirective(reading.key, reading.argsText, span, parsed));
    else if (reading.kind === "close") this.#finish(this.#popSection(), span, parsed.raw);
    else {
      const section = new ParsedSection(reading.key, reading.argsText, span, parsed);
      this.#siblings().push(section);
      this.#stack.push({ node: section, line, column: reading.column });
    }
  }

  /** Keeps what a line of one physical line read as when it cost no problem, for the next line reading the same. */
  #keepReading(logical: LogicalLine, node: SyntaxNode, problemsBefore: number): void {
    if (this.#problems.length !== problemsBefore || logical.lastLine !== logical.firstLine || logical.notes.length > 0) return;
    // A long line has a warning of its own, given before the line is read (and not when it is placed).
    if (logical.text.length * 3 > shortLineLimit) return;
    // A line ending in a backslash reads differently as the file's last line (kept) and before another (dropped).
    if (/\\\r?$/.test(logical.raw)) return;
    const { column, endColumn } = node.span;
    if (node.kind === "blank") {
      this.#readings.keep(node.raw, { kind: "blank", key: "", argsText: "", column, endColumn, parsed: { raw: node.raw, head: "", values: NO_VALUES, words: NO_WORDS }, next: undefined });
    } else if (node instanceof ParsedComment || node instanceof ParsedDirective || node instanceof ParsedSection) {
      const parsed = asParsedOf(node) as AsParsed;
      const kind = node.kind;
      const key = node.kind === "comment" ? "" : node.key;
      const argsText = node.kind === "comment" ? "" : node.argsText;
      this.#readings.keep(parsed.raw, { kind, key, argsText, column, endColumn, parsed, next: undefined });
    }
  }

  #readLine(logical: LogicalLine): void {
    const problemsBefore = this.#problems.length;
    const before = this.#siblings().length;
    const depth = this.#stack.length;
    const innermost = this.#stack[depth - 1];
    this.#readNewLine(logical);
    // One node more at the same depth, or a section opened: the line made exactly that node.
    const made = this.#stack.length === depth + 1 ? (this.#stack[depth] as OpenSection).node : this.#stack.length === depth && this.#siblings().length === before + 1 ? this.#siblings()[before] : undefined;
    if (made !== undefined) this.#keepReading(logical, made, problemsBefore);
    // The innermost section closed, and only it: a `</Name>` line, kept as a close when it cost no problem.
    else if (innermost !== undefined && this.#stack.length === depth - 1) this.#keepClose(logical, innermost.node, problemsBefore);
  }

  /** Keeps a `</Name>` line that closed the innermost section without a problem: a tree closes its sections with
   * the same few lines (every vhost's `</Directory>` and `</VirtualHost>`), and reading one again cost a logical
   * line, its words and the section lookups. The same conditions as keepReading. */
  #keepClose(logical: LogicalLine, section: SectionNode, problemsBefore: number): void {
    if (this.#problems.length !== problemsBefore || logical.lastLine !== logical.firstLine || logical.notes.length > 0) return;
    if (logical.text.length * 3 > shortLineLimit) return;
    if (/\\\r?$/.test(logical.raw)) return;
    const span = section.closeSpan;
    if (span === null || section.closeRaw !== logical.raw) return;
    const parsed: AsParsed = { raw: logical.raw, head: "", values: NO_VALUES, words: NO_WORDS };
    this.#readings.keep(logical.raw, { kind: "close", key: section.key, argsText: "", column: span.column, endColumn: span.endColumn, parsed, next: undefined });
  }

  #readNewLine(logical: LogicalLine): void {
    const { text, trimStart, trimEnd } = logical;
    if (trimStart >= trimEnd) {
      this.#siblings().push(new ParsedBlank(logical.raw, this.#wholeSpan(logical)));
      return;
    }
    const line = text.slice(0, trimEnd);
    if (line[trimStart] === "#") {
      const commentText = line.slice(trimStart + 1);
      const comment = new ParsedComment(this.#spanOf(logical, trimStart, trimEnd), asParsed(logical.raw, commentText, []));
      this.#siblings().push(comment);
      // Only a swallowed line that is not a comment itself loses something (Debian's default-ssl comments out
      // a multi-line SSLRequire line by line, backslashes kept).
      if (logical.lastLine > logical.firstLine && logical.raw.split("\n").slice(1).some((physical) => !/^\s*(#|$)/.test(physical))) {
        const at = logical.positionOf(trimStart);
        this.#problem(
          "warning",
          at.line,
          at.column,
          swallowedMessage(logical.firstLine + 1, logical.lastLine),
          "remove the backslash at the end of the comment if the next line is meant to be read",
        );
      }
      return;
    }

    // Commenting out one line of a continued directive does not work: the line is joined first.
    const rawLines = logical.lastLine > logical.firstLine ? logical.raw.split("\n") : [];
    for (let i = 1; i < rawLines.length; i++) {
      const hash = /^[ \t]*#/.exec(rawLines[i] as string);
      if (hash !== null) {
        this.#problem(
          "warning",
          logical.firstLine + i,
          hash[0].length,
          "this line continues the line before it (which ends in a backslash), so httpd reads it as arguments, not as a comment",
          "end the line before without a backslash, or remove this line",
        );
      }
    }

    const first = readWord(line, trimStart) as ReadWord;
    let argsStart = first.end;
    while (argsStart < line.length && isConfSpaceCode(line.charCodeAt(argsStart))) argsStart++;
    const rest = line.slice(argsStart);
    const name = first.value;

    if (name.startsWith("</")) {
      this.#closeSection(logical, first, name, argsStart);
      return;
    }
    if (name.startsWith("<")) {
      this.#openSection(logical, first, name, line, argsStart);
      return;
    }
    const nodeLine = logical.lineAt(trimStart);
    if (first.unterminated) this.#toWords(logical, [first], nodeLine);
    const read = readWords(line, argsStart);
    const parsed = wordsLater(logical, read) ? asParsedLater(logical.raw, name, read, argsStart, line.length) : asParsed(logical.raw, name, this.#toWords(logical, read, nodeLine));
    const directive = new ParsedDirective(this.#keyOf(name), rest, this.#spanOf(logical, trimStart, trimEnd), parsed);
    this.#siblings().push(directive);
  }

  #openSection(logical: LogicalLine, first: ReadWord, word: string, line: string, argsStart: number): void {
    const name = word.endsWith(">") ? word.slice(1, -1) : word.slice(1);
    const at = logical.positionOf(first.start);
    if (name === "") {
      // httpd would open a section named "<" and then refuse it as an unknown command; opening one here would
      // swallow the rest of the file.
      const reason = "Invalid command '<': a '<' with no section name";
      this.#siblings().push({ kind: "opaque", raw: logical.raw, span: this.#spanOf(logical, logical.trimStart, logical.trimEnd), reason });
      this.#problem("error", at.line, at.column, reason, "write the section's name right after '<'");
      return;
    }
    const close = line.lastIndexOf(">");
    let argsEnd = line.length;
    if (argsStart < line.length) {
      if (close < argsStart) {
        this.#problem(
          "error",
          at.line,
          at.column,
          `<${name}> directive missing closing '>'`,
          `end the line with '>'`,
        );
      } else {
        argsEnd = close;
        const after = line.slice(close + 1);
        if (after.trim() !== "") {
          const where = logical.positionOf(close + 1);
          this.#problem("warning", where.line, where.column, `httpd ignores the text after the last '>' of <${name}>`);
        }
      }
    } else if (!word.endsWith(">")) {
      this.#problem("error", at.line, at.column, `<${name}> directive missing closing '>'`, `end the line with '>'`);
    }
    let trimmedEnd = argsEnd;
    while (trimmedEnd > argsStart && isConfSpaceCode(line.charCodeAt(trimmedEnd - 1))) trimmedEnd--;
    const argsText = argsStart < trimmedEnd ? line.slice(argsStart, trimmedEnd) : "";
    const read = readWords(line.slice(0, argsEnd), argsStart);
    const parsed = wordsLater(logical, read) ? asParsedLater(logical.raw, name, read, argsStart, argsEnd) : asParsed(logical.raw, name, this.#toWords(logical, read, logical.lineAt(first.start)));
    const section = new ParsedSection(this.#keyOf(name), argsText, this.#spanOf(logical, first.start, logical.trimEnd), parsed);
    this.#siblings().push(section);
    this.#stack.push({ node: section, line: at.line, column: at.column });
  }

  #closeSection(logical: LogicalLine, first: ReadWord, word: string, argsStart: number): void {
    const at = logical.positionOf(first.start);
    const bracketed = word.endsWith(">");
    const name = bracketed ? word.slice(2, -1) : word.slice(2);
    const key = name.toLowerCase();
    if (this.#stack.length === 0) {
      const reason = `</${name}> without matching <${name}> section`;
      this.#siblings().push({ kind: "opaque", raw: logical.raw, span: this.#spanOf(logical, logical.trimStart, logical.trimEnd), reason });
      this.#problem("error", at.line, at.column, reason, `remove the line or add the <${name}> it closes`);
      return;
    }
    if (!bracketed) {
      this.#problem("error", at.line, at.column, `</${name}> directive missing closing '>'`, `write </${name}> with no space before '>'`);
    }
    if (bracketed && argsStart < logical.trimEnd) {
      const where = logical.positionOf(argsStart);
      this.#problem(
        "warning",
        where.line,
        where.column,
        conditionalSections.has(key)
          ? `text after </${name}>: when the condition holds, httpd (2.2 and 2.4) compares the whole line with ` +
              `"</${name}>" (ap_build_cont_config), does not see the close, and refuses to start ` +
              `("</${name}> without matching <${name} section")`
          : `httpd ignores the text after </${name}>`,
        `put nothing after </${name}> on its line`,
      );
    }
    // mod_macro (2.4) reads a <Macro> body as lines up to the matching </Macro>, counting only <Macro> nesting:
    // other sections in the body may be left open or closed without their opening (the expansion must make
    // them whole), and mod_macro only warns (modules/core/mod_macro.c get_lines_till_end_token). So inside a
    // macro body a close never reaches past the macro, and what httpd only warns about is a warning here.
    let macro = this.#stack.length - 1;
    while (macro >= 0 && (this.#stack[macro] as OpenSection).node.key !== "macro") macro--;
    let depth = this.#stack.length - 1;
    while (depth > macro && (this.#stack[depth] as OpenSection).node.key !== key) depth--;
    if (depth === macro && macro >= 0 && key !== "macro") {
      const reason = `</${name}> without its opening in the body of <Macro>; the macro's expansion must open it`;
      this.#siblings().push({ kind: "opaque", raw: logical.raw, span: this.#spanOf(logical, logical.trimStart, logical.trimEnd), reason });
      this.#problem("warning", at.line, at.column, reason);
      return;
    }
    const innermost = this.#stack[this.#stack.length - 1] as OpenSection;
    if (depth < 0 || depth === this.#stack.length - 1) {
      if (depth < 0) {
        this.#problem(
          "error",
          at.line,
          at.column,
          `Expected </${innermost.node.name}> but saw </${name}>`,
          `close <${innermost.node.name}> with </${innermost.node.name}>`,
        );
      }
      // A misspelt close most often means the innermost section ends here.
      this.#finish(this.#popSection(), this.#spanOf(logical, first.start, first.end), logical.raw);
      return;
    }
    // The close names an outer section: the sections inside it were never closed.
    while (this.#stack.length - 1 > depth) {
      const open = this.#popSection();
      if (depth === macro) {
        this.#problem(
          "warning",
          open.line,
          open.column,
          `<${open.node.name}> is left open in the body of <Macro>; the macro's expansion must close it`,
        );
      } else {
        this.#problem(
          "error",
          open.line,
          open.column,
          `<${open.node.name}> was not closed (</${name}> at line ${at.line} closes an outer section)`,
          `add </${open.node.name}> before line ${at.line}`,
        );
      }
      open.node.span = { ...open.node.span, endLine: at.line, endColumn: at.column - 1 };
    }
    this.#finish(this.#popSection(), this.#spanOf(logical, first.start, first.end), logical.raw);
  }

  #finish(open: OpenSection, closeSpan: Span, closeRaw: string): void {
    open.node.closeRaw = closeRaw;
    open.node.closeSpan = closeSpan;
    open.node.span = { ...open.node.span, endLine: closeSpan.endLine, endColumn: closeSpan.endColumn };
  }
}

function swallowedMessage(from: number, to: number): string {
  const lines = from === to ? `line ${from}` : `lines ${from}-${to}`;
  return `this comment ends in a backslash, so httpd reads ${lines} as part of the comment and ignores ${from === to ? "it" : "them"}`;
}

/** A file holding NUL bytes: one opaque node keeping every byte (as latin1), one problem. */
function binaryFile(path: string, text: string): ParsedFile {
  // UTF-16 text holds a NUL in every ASCII character; its byte-order mark tells it from other binary files.
  const utf16 = text.startsWith("\u00ff\u00fe") || text.startsWith("\u00fe\u00ff");
  const lines = text.split("\n");
  const last = lines[lines.length - 1] as string;
  return {
    path,
    nodes: [
      {
        kind: "opaque",
        raw: text,
        span: { file: path, line: 1, column: 1, endLine: lines.length, endColumn: last.length },
        reason: "the file holds NUL bytes: it is not a configuration file",
      },
    ],
    problems: [
      {
        severity: "error",
        file: path,
        line: 1,
        column: 1,
        message: utf16
          ? "the file is UTF-16 text; httpd reads configuration as bytes and stops each line at its first NUL byte"
          : "the file holds NUL bytes, so it is not configuration text (httpd would stop reading each line at the first NUL)",
        hint: utf16
          ? "save the file as UTF-8 (without a byte-order mark)"
          : "leave binary files out of the configuration tree, or out of the Include pattern that matches this one",
      },
    ],
    lineEnd: "\n",
    finalLineEnd: false,
    encoding: "latin1",
    bom: false,
  };
}
