// Pure: what makes two configs "the same tree" for a fleet, which runs such configs once and reports the result
// for each. Every file's path, mode and bytes count. Config files (*.conf, *.load, .htaccess, and the files of
// Debian's and RHEL's include directories) are normalised only where httpd cannot tell the difference and no
// line moves: line endings, trailing blanks, and the text of comment lines (a "# managed by ... on web-07"
// header). Line numbers stay the same, so a finding's file:line is true of every copy. Other files (pages,
// scripts, whose bytes are what a client gets) count byte for byte. Links, the layout, the main file, the mount
// and the -D defines count too.
import { createHash } from "node:crypto";
import type { ConfigTree } from "../conf/load-tree.ts";

function normalisedText(content: Buffer): string {
  return content
    .toString("latin1")
    .split(/\r?\n/)
    .map((line) => {
      const trimmed = line.replace(/[ \t\r]+$/, "");
      return /^[ \t]*#/.test(trimmed) ? "#" : trimmed;
    })
    .join("\n")
    .replace(/\n+$/, "");
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
