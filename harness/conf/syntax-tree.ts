// The syntax tree of one Apache configuration file, exactly as written: every node keeps its source span and
// its raw text, so the printer gives the file back byte for byte and a rewrite (migration) touches only the
// nodes it changes. Nothing here is evaluated: Include, IfModule, ${VAR} are plain directives and sections.

/** A range of one file, 1-based, end inclusive of its last character's column. */
export interface Span {
  /** The file as the tree names it (its path relative to the tree's root, or the path the user gave). */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** One argument as httpd reads it (ap_getword_conf): `value` is what httpd sees after taking the quotes and
 * the escaped quote characters away; `raw` is the text as written. Its place is relative to its node, so that
 * every line reading the same (each vhost's `Order allow,deny`) shares one frozen array of words: the parser
 * hands them out read-only. */
export interface Word {
  readonly value: string;
  readonly raw: string;
  readonly quote: '"' | "'" | null;
  /** Lines below the node's own first line (its span's `line`) where the word starts: 0 on a line of its own,
   * more in a line continued with backslashes. */
  readonly lineOffset: number;
  /** The column (1-based) the word starts at on that line. */
  readonly column: number;
}

export interface DirectiveNode {
  kind: "directive";
  /** As written (`DocumentRoot`); httpd matches names case-insensitively, see `key`. */
  name: string;
  /** Lower-cased name, for lookups. */
  key: string;
  args: readonly Word[];
  /** Everything after the name, continuation lines joined as httpd joins them (RAW_ARGS directives). */
  argsText: string;
  span: Span;
  /** The node's lines as written, continuation lines included, without the final line end. */
  raw: string;
}

export interface SectionNode {
  kind: "section";
  /** `VirtualHost` for `<VirtualHost *:80>`. */
  name: string;
  key: string;
  args: readonly Word[];
  argsText: string;
  children: SyntaxNode[];
  /** From `<` of the opening line to `>` of the closing one (or the end of the file when unclosed). */
  span: Span;
  /** The opening line(s) as written. */
  openRaw: string;
  /** The closing line as written; null when the section is never closed (a problem is recorded). */
  closeRaw: string | null;
  closeSpan: Span | null;
}

export interface CommentNode {
  kind: "comment";
  /** The comment's text after `#`. */
  text: string;
  raw: string;
  span: Span;
}

export interface BlankNode {
  kind: "blank";
  raw: string;
  span: Span;
}

/** A line the parser could not read (a stray `</Section>`, an unterminated quote, bytes that are no text). It is
 * kept as written, so printing loses nothing, and a problem with its span says why. */
export interface OpaqueNode {
  kind: "opaque";
  raw: string;
  span: Span;
  reason: string;
}

export type SyntaxNode = DirectiveNode | SectionNode | CommentNode | BlankNode | OpaqueNode;

/** How sure the harness is that httpd would refuse or misread what a problem points at.
 * - error: the input cannot be read as given (unreadable or binary file, unclosed section, Include cycle, a path
 *   leading out of the tree): bad input, exit status 2 where a command needs the tree;
 * - refusal: this version of httpd refuses to start with it (2.4 and an Include wildcard that matches nothing);
 *   a finding about that version, not bad input;
 * - warning: httpd starts but says something (an undefined ${VAR}). */
export type ProblemSeverity = "error" | "refusal" | "warning";

export interface ConfProblem {
  severity: ProblemSeverity;
  file: string;
  line: number;
  column: number;
  message: string;
  /** What the operator can do about it. */
  hint?: string;
}

export interface ParsedFile {
  /** As in Span.file. */
  path: string;
  nodes: SyntaxNode[];
  problems: ConfProblem[];
  /** The line end the printer writes between nodes: "\r\n" when every line of the file ends so, else "\n". In a
   * file mixing both, a CR LF line keeps its CR at the end of its raw text (httpd reads it as trailing
   * whitespace), so the printer gives the bytes back either way. */
  lineEnd: "\n" | "\r\n";
  /** Whether the last line ends with a line end. */
  finalLineEnd: boolean;
  /** utf8, or latin1 when the bytes are not UTF-8 (kept byte for byte either way). */
  encoding: "utf8" | "latin1";
  /** A UTF-8 byte-order mark at the start. */
  bom: boolean;
}
