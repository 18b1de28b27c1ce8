// Pure: line-for-line edits of a staged tree file. An edit replaces the lines of one directive with text of
// the same number of lines, so every line after it keeps its number and httpd's messages point at the
// operator's own file:line.

export interface LineEdit {
  /** Tree path. */
  file: string;
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
  /** The new text; padded with comment lines to the edit's line count. */
  text: string;
}

/** Applies the edits of one file to its text (line ends kept as the file has them). */
export function applyLineEdits(text: string, edits: readonly LineEdit[]): string {
  if (edits.length === 0) return text;
  const lines = text.split("\n");
  for (const edit of edits) {
    const count = edit.endLine - edit.line + 1;
    const crlf = (lines[edit.line - 1] ?? "").endsWith("\r");
    const replacement = edit.text.split("\n").slice(0, count);
    while (replacement.length < count) replacement.push("#");
    lines.splice(edit.line - 1, count, ...replacement.map((line) => (crlf ? `${line}\r` : line)));
  }
  return lines.join("\n");
}
