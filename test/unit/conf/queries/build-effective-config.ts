// Builds EffectiveConfig values for the query tests from short config text, so a test states its input the way
// an operator writes it. Not the real parser: one directive per line, "quoted words", `<X args>` ... `</X>`, and
// a `#file PATH` line that makes the lines after it come from PATH (as if included there).
import type { EffectiveConfig, EffectiveNode, EffectiveSection, LayoutId } from "../../../../harness/conf/effective-config.ts";
import type { Span, Word } from "../../../../harness/conf/syntax-tree.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";

/** One line's words: every node here is one line, so the words are on the node's own line (offset 0). */
function words(text: string, offset: number): Word[] {
  const found: Word[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    const quote = match[1] !== undefined ? '"' : match[2] !== undefined ? "'" : null;
    found.push({ value: match[1] ?? match[2] ?? match[3]!, raw: match[0], quote, lineOffset: 0, column: offset + match.index + 1 });
  }
  return found;
}

export interface BuildOptions {
  version?: string;
  file?: string;
  serverRoot?: string;
  layout?: LayoutId;
}

export function effectiveConfig(text: string, options: BuildOptions = {}): EffectiveConfig {
  const mainFile = options.file ?? "conf/httpd.conf";
  const files = [mainFile];
  let file = mainFile;
  let lineInFile = 0;
  const lineCounters = new Map<string, number>();
  const root: EffectiveNode[] = [];
  const stack: { section: EffectiveSection | null; children: EffectiveNode[] }[] = [{ section: null, children: root }];
  for (const rawLine of text.replace(/^\n/, "").split("\n")) {
    const fileSwitch = /^\s*#file\s+(\S+)/.exec(rawLine);
    if (fileSwitch) {
      lineCounters.set(file, lineInFile);
      file = fileSwitch[1]!;
      if (!files.includes(file)) files.push(file);
      lineInFile = lineCounters.get(file) ?? 0;
      continue;
    }
    lineInFile++;
    const line = lineInFile;
    const trimmed = rawLine.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const column = rawLine.length - rawLine.trimStart().length + 1;
    const span: Span = { file, line, column, endLine: line, endColumn: rawLine.length };
    const close = /^<\/(\w+)\s*>$/.exec(trimmed);
    if (close) {
      const open = stack.pop()!;
      if (open.section) open.section.span = { ...open.section.span, endLine: line, endColumn: rawLine.length };
      continue;
    }
    const open = /^<(\w+)(\s+[^>]*)?>$/.exec(trimmed);
    if (open) {
      const name = open[1]!;
      const argsText = (open[2] ?? "").trim();
      const args = words(argsText, column + name.length + 1);
      const section: EffectiveSection = {
        kind: "section", name, key: name.toLowerCase(), args: args.map((w) => w.value), span, guards: [], children: [],
        node: {
          kind: "section", name, key: name.toLowerCase(), args, argsText, children: [], span,
          openRaw: rawLine, closeRaw: null, closeSpan: null,
        },
      };
      stack.at(-1)!.children.push(section);
      stack.push({ section, children: section.children });
      continue;
    }
    const name = /^\S+/.exec(trimmed)![0];
    const argsText = trimmed.slice(name.length).trim();
    const args = words(argsText, column + name.length + (trimmed.length - name.length - argsText.length));
    stack.at(-1)!.children.push({
      kind: "directive", name, key: name.toLowerCase(), args: args.map((w) => w.value), span, guards: [],
      node: { kind: "directive", name, key: name.toLowerCase(), args, argsText, span, raw: rawLine },
    });
  }
  return {
    version: httpdVersion(options.version ?? "2.4.62"),
    layout: options.layout ?? "official",
    serverRoot: options.serverRoot ?? "/usr/local/apache2",
    mainFile,
    files,
    includedBy: new Map(),
    nodes: root,
    defines: {},
    environment: {},
    problems: [],
  };
}

/** The span a test expects: file and line (and column when it matters). */
export function at(file: string, line: number, column = 1): { file: string; line: number; column: number } {
  return { file, line, column };
}
