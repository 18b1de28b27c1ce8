// `${NAME}` in a configuration line, replaced as ap_resolve_env does (server/core.c on 2.4, server/util.c on
// 2.2) before the line is split into words: from the first `${` to the next `}`; a name with no value stays
// as written. Which sources hold values (Define, environment) is the caller's, from conf-traits.
import { isConfSpaceCode, unescapeWord } from "./read-words.ts";

export interface Resolved {
  text: string;
  /** Names that had no value, in order (2.4 warns AH00111 for those without ':'). */
  undefinedNames: string[];
}

export function resolveVariables(text: string, lookup: (name: string) => string | undefined): Resolved {
  const undefinedNames: string[] = [];
  let out = "";
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf("$", i);
    if (dollar < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, dollar);
    const close = text[dollar + 1] === "{" ? text.indexOf("}", dollar + 2) : -1;
    if (close < 0) {
      out += "$";
      i = dollar + 1;
      continue;
    }
    const name = text.slice(dollar + 2, close);
    const value = lookup(name);
    if (value === undefined) {
      undefinedNames.push(name);
      out += text.slice(dollar, close + 1);
    } else out += value;
    i = close + 1;
  }
  return { text: out, undefinedNames };
}

/** ap_getword_conf: the words of a line as httpd splits them (quotes taken away, `\"` inside quotes kept as
 * the quote). Used after substitution, since a value may hold spaces or quotes that change the split. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  for (;;) {
    while (i < line.length && isConfSpaceCode(line.charCodeAt(i))) i++;
    // Exact length: an array grown by push keeps room for 17 words, and the evaluator keeps these.
    if (i >= line.length) return words.slice();
    const quote = line[i];
    if (quote === '"' || quote === "'") {
      i++;
      const start = i;
      while (i < line.length && line[i] !== quote) {
        // An escaped quote or backslash does not end the word (substring_conf then drops the escaping backslash).
        i += line[i] === "\\" && (line[i + 1] === quote || line[i + 1] === "\\") && i + 1 < line.length ? 2 : 1;
      }
      // One slice, unescaped, not a string built a character at a time (a rope node per character).
      words.push(unescapeWord(line.slice(start, i), quote));
      i++;
    } else {
      const start = i;
      while (i < line.length && !isConfSpaceCode(line.charCodeAt(i))) i++;
      // substring_conf without a quote: only `\\` is an escape (unescapeWord copies only a word holding one).
      words.push(unescapeWord(line.slice(start, i), null));
    }
  }
}
