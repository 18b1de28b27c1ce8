// Debian's /etc/apache2/envvars, evaluated as apache2ctl sources it (with APACHE_CONFDIR set first): the
// exported variables reach httpd, where the config reads them as ${APACHE_RUN_USER} and the like. Only the shell
// forms Debian's envvars use from squeeze to bookworm are understood: assignments (`A=b`, `export A=b`,
// `export A`), `unset`, quoting, `$A`/`${A}`, `${A#p}` `${A##p}` `${A%p}` `${A%%p}` `${A:-d}` `${A-d}`, and one
// level of `if [ x = y ] ; then ... else ... fi` with `=`/`!=`/`-z`/`-n`. Any other line is ignored with a
// warning, never run.
import type { ConfProblem } from "./syntax-tree.ts";

export interface EnvvarsResult {
  /** Exported variables after the script, including those given in `initial`. */
  environment: Record<string, string>;
  problems: ConfProblem[];
}

/** `initial`: the exported variables before sourcing (apache2ctl: APACHE_CONFDIR=/etc/apache2). */
export function evaluateEnvvars(text: string, file: string, initial: Readonly<Record<string, string>>): EnvvarsResult {
  const values = new Map(Object.entries(initial));
  const exported = new Set(Object.keys(initial));
  const problems: ConfProblem[] = [];
  const warn = (line: number, message: string): void => {
    problems.push({ severity: "warning", file, line, column: 1, message, hint: "The harness reads only plain assignments and simple if/else from envvars; set the variable in the scenario's environment if httpd needs it." });
  };
  // Per nesting level: whether this branch runs; a level that does not run keeps its inner levels off.
  const branches: Array<{ active: boolean; taken: boolean }> = [];
  const running = (): boolean => branches.every((b) => b.active);

  const lines = text.split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const lineNo = index + 1;
    const line = stripComment(rawLine).trim();
    if (line === "") return;
    for (const statement of splitStatements(line)) {
      const words = statement.trim();
      if (words === "") continue;
      const ifMatch = /^(if|elif)\s+(.*)$/.exec(words);
      if (ifMatch) {
        const condition = testCondition(ifMatch[2]!, values);
        if (condition === null) {
          warn(lineNo, `envvars: condition not understood: ${ifMatch[2]}`);
        }
        const holds = condition === true;
        if (ifMatch[1] === "if") branches.push({ active: holds, taken: holds });
        else {
          const top = branches.at(-1);
          if (top) {
            top.active = !top.taken && holds;
            top.taken ||= holds;
          }
        }
        continue;
      }
      if (words === "then") continue;
      if (words === "else") {
        const top = branches.at(-1);
        if (top) {
          top.active = !top.taken;
          top.taken = true;
        }
        continue;
      }
      if (words === "fi") {
        branches.pop();
        continue;
      }
      if (!running()) continue;
      const unset = /^unset\s+(.+)$/.exec(words);
      if (unset) {
        for (const name of unset[1]!.split(/\s+/)) {
          values.delete(name);
          exported.delete(name);
        }
        continue;
      }
      const exportMatch = /^(export\s+)?(.*)$/.exec(words)!;
      const isExport = exportMatch[1] !== undefined;
      const assignments = splitShellWords(exportMatch[2]!);
      if (assignments === null || assignments.length === 0) {
        warn(lineNo, `envvars: line not understood, ignored: ${words}`);
        continue;
      }
      const allNamesOrAssignments = assignments.every((w) => /^[A-Za-z_][A-Za-z0-9_]*(=|$)/.test(w));
      if (!allNamesOrAssignments || (!isExport && assignments.some((w) => !w.includes("=")))) {
        warn(lineNo, `envvars: command not run: ${words}`);
        continue;
      }
      for (const word of assignments) {
        const eq = word.indexOf("=");
        if (eq < 0) {
          exported.add(word);
          continue;
        }
        const name = word.slice(0, eq);
        const value = expandWord(word.slice(eq + 1), values);
        if (value === null) {
          warn(lineNo, `envvars: value not understood, ${name} left unset: ${word}`);
          continue;
        }
        values.set(name, value);
        if (isExport) exported.add(name);
      }
    }
  });

  const environment: Record<string, string> = {};
  for (const name of exported) {
    const value = values.get(name);
    if (value !== undefined) environment[name] = value;
  }
  return { environment, problems };
}

/** The indexes of the characters of a shell line that stand outside quotes and escapes, in order. */
function* unquoted(line: string): Generator<number> {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "\\") i++;
    else yield i;
  }
}

function stripComment(line: string): string {
  for (const i of unquoted(line)) if (line[i] === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  return line;
}

/** Splits at `;` outside quotes, and `then`/`else` that start a command after it. */
function splitStatements(line: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const i of unquoted(line)) {
    if (line[i] !== ";") continue;
    parts.push(line.slice(start, i));
    start = i + 1;
  }
  parts.push(line.slice(start));
  // `then A=b` and `else A=b` on one line.
  return parts.flatMap((part) => {
    const keyword = /^\s*(then|else)\s+(\S.*)$/.exec(part);
    return keyword ? [keyword[1]!, keyword[2]!] : [part];
  });
}

/** Shell words, quotes kept (expansion happens per word later); null on an unclosed quote. */
function splitShellWords(text: string): string[] | null {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      current += c;
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) current += text[++i];
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      continue;
    }
    inWord = true;
    current += c;
    if (c === '"' || c === "'") quote = c;
    else if (c === "\\" && i + 1 < text.length) current += text[++i];
  }
  if (quote) return null;
  if (inWord) words.push(current);
  return words;
}

/** Expands one shell word (quotes, `$A`, `${A...}`); null when it holds a form not understood (`$(...)`, backquotes). */
export function expandWord(word: string, values: ReadonlyMap<string, string>): string | null {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else out += c;
      continue;
    }
    if (c === '"') {
      quote = quote === '"' ? null : '"';
      continue;
    }
    if (c === "'" && quote === null) {
      quote = "'";
      continue;
    }
    if (c === "`") return null;
    if (c === "\\" && i + 1 < word.length) {
      out += word[++i];
      continue;
    }
    if (c !== "$") {
      out += c;
      continue;
    }
    const next = word[i + 1];
    if (next === "{") {
      const close = word.indexOf("}", i + 2);
      if (close < 0) return null;
      const expanded = expandParameter(word.slice(i + 2, close), values);
      if (expanded === null) return null;
      out += expanded;
      i = close;
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word.slice(i + 1))![0];
      out += values.get(name) ?? "";
      i += name.length;
    } else if (next === "(") return null;
    else out += c;
  }
  return quote === null ? out : null;
}

function expandParameter(inner: string, values: ReadonlyMap<string, string>): string | null {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(##|#|%%|%|:-|-|:\+|\+)(.*))?$/.exec(inner);
  if (!match) return null;
  const value = values.get(match[1]!);
  const op = match[2];
  if (op === undefined) return value ?? "";
  const operand = expandWord(match[3]!, values);
  if (operand === null) return null;
  switch (op) {
    case ":-":
      return value === undefined || value === "" ? operand : value;
    case "-":
      return value === undefined ? operand : value;
    case ":+":
      return value === undefined || value === "" ? "" : operand;
    case "+":
      return value === undefined ? "" : operand;
    default:
      return trimPattern(value ?? "", op, operand);
  }
}

/** `${A#p}` and friends, `p` a shell pattern (`*`, `?`, literal otherwise). */
function trimPattern(value: string, op: string, pattern: string): string {
  const regex = new RegExp(`^${pattern.split("").map((ch) => (ch === "*" ? "[\\s\\S]*" : ch === "?" ? "[\\s\\S]" : ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))).join("")}$`);
  const lengths = [...Array(value.length + 1).keys()];
  if (op === "#" || op === "##") {
    const order = op === "#" ? lengths : lengths.reverse();
    for (const n of order) if (regex.test(value.slice(0, n))) return value.slice(n);
  } else {
    const order = op === "%" ? lengths : lengths.reverse();
    for (const n of order) if (regex.test(value.slice(value.length - n))) return value.slice(0, value.length - n);
  }
  return value;
}

/** `[ "a" != "b" ]`, `test -z "$A"`: true/false, null when not understood. */
function testCondition(text: string, values: ReadonlyMap<string, string>): boolean | null {
  let body = text.trim();
  const bracket = /^\[\s+(.*)\s+\]$/.exec(body);
  if (bracket) body = bracket[1]!;
  else if (body.startsWith("test ")) body = body.slice(5);
  else return null;
  const words = splitShellWords(body);
  if (words === null) return null;
  const expanded = words.map((w) => expandWord(w, values));
  if (expanded.some((w) => w === null)) return null;
  const [a, b, c] = expanded as string[];
  if (expanded.length === 3 && (b === "=" || b === "==")) return a === c;
  if (expanded.length === 3 && b === "!=") return a !== c;
  if (expanded.length === 2 && a === "-z") return b === "";
  if (expanded.length === 2 && a === "-n") return b !== "";
  return null;
}
