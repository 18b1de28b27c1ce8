// Pure: what makes two configs "the same tree" for a fleet, which runs such configs once and reports the result
// for each. Every file's path, mode and bytes count. Config files (*.conf, *.load, .htaccess, and the files of
// Debian's and RHEL's include directories) are normalised only where httpd cannot tell the difference and no
// line moves: line endings, trailing blanks, and the text of comment lines (a "# managed by ... on web-07"
// header). Line numbers stay the same, so a finding's file:line is true of every copy. Other files (pages,
// scripts, whose bytes are what a client gets) count byte for byte. Links, the layout, the main file, the mount
// and the -D defines count too.
import { createHash } from "node:crypto";
import type { ConfigTree } from "../conf/load-tree.ts";

/** A config file's text with what httpd does not read taken out, line for line. httpd joins a line that ends in a
 * backslash (right before its line end) to the next before it looks for a comment (conf/lex-lines.ts), so:
 * a line continuing another is never a comment, however it starts; a comment that continues keeps its backslash
 * (it swallows the next line); blanks after a last backslash stay marked (the line does not continue); and a
 * last line that continues keeps its line end. */
function normalisedText(content: Buffer): string {
  const lines = content.toString("latin1").split(/\r?\n/);
  let continued = false;
  const normalised = lines.map((line) => {
    const trimmed = line.replace(/[ \t\r]+$/, "");
    const continues = line.endsWith("\\");
    const comment = !continued && /^[ \t]*#/.test(trimmed);
    continued = continues;
    if (comment) return continues ? "#\\" : "#";
    // A backslash the blanks kept from the line end is an ordinary character, unlike the one of `a \`.
    return !continues && trimmed.endsWith("\\") ? `${trimmed} ` : trimmed;
  });
  let last = normalised.length;
  while (last > 0 && normalised[last - 1] === "") last--;
  const text = normalised.slice(0, last).join("\n");
  // `a \` with a line end after it joins the (empty) rest; at the very end of the file, it keeps its backslash.
  return last < lines.length && text.endsWith("\\") ? `${text}\n` : text;
}

/** A file httpd reads as configuration, told by its name or its directory. */
export function isConfigFile(path: string): boolean {
  return /(^|\/)(\.htaccess|[^/]+\.(conf|load))$/.test(path) || /(^|\/)(sites|conf|mods)-(available|enabled)\/|(^|\/)conf\.d\//.test(path);
}

export function treeFingerprint(tree: ConfigTree, defines: readonly string[]): string {
  const hash = createHash("sha256");
  const field = (...parts: string[]): void => {
    for (const part of parts) hash.update(part).update("\u0000");
  };
  field("layout", tree.layout, "main", tree.mainFile, "mount", tree.source.mount, "root", tree.serverRoot ?? "");
  field("defines", ...[...defines].sort());
  for (const path of [...tree.source.files.keys()].sort()) {
    const content = tree.source.files.get(path)!;
    const config = isConfigFile(path) || path === tree.mainFile;
    field("file", path, String(tree.source.modes.get(path) ?? 0), config ? normalisedText(content) : content.toString("latin1"));
  }
  for (const path of [...tree.source.links.keys()].sort()) field("link", path, tree.source.links.get(path)!);
  for (const path of [...tree.source.directories].sort()) field("dir", path);
  return hash.digest("hex");
}
