// Pure: an access-log format string (mod_log_config's LogFormat) as the parts a line is made of, and the nicknames
// of the stock httpd.conf. The grammar is mod_log_config.c's (parse_log_string, parse_log_item,
// parse_log_misc_string; 2.2.34 and 2.4.62):
// - `%%` is a literal percent; `\n`, `\r`, `\t` and `\\` in the literal text are escapes, any other backslash stays;
// - a directive is `%`, then in any order `!` (negate), status codes `400,501` (log "-" unless the status is one of
//   them), `<` or `>` (original or final request), `{param}`, then one letter, or `^` and two letters (`%^ti`);
// - an unknown letter is an error to httpd; here it is kept as an opaque field, so a line written by a module this
//   parser does not know still reads.

export interface LogFormatLiteral {
  kind: "literal";
  text: string;
}

export interface LogFormatDirective {
  kind: "directive";
  /** As written, `%>s`, `%{User-Agent}i`, `%400,501{Referer}i`. */
  text: string;
  /** `s`, `i`, `^ti`. */
  letter: string;
  /** The `{...}` part, or null. */
  param: string | null;
  /** `%!200,304{Referer}i` and `%400{Referer}i`: the value may be "-" whatever the request had. */
  conditional: boolean;
}

export type LogFormatPart = LogFormatLiteral | LogFormatDirective;

export interface LogFormat {
  /** The format string as httpd reads it (config quoting already undone). */
  text: string;
  parts: LogFormatPart[];
}

/** The nicknames the stock httpd.conf of 2.2 and 2.4 defines (Debian's adds vhost_combined), for a tree that
 * defines none of its own, and mod_log_config's default format (TransferLog, CustomLog without a format). */
export const STANDARD_LOG_FORMATS: Readonly<Record<string, string>> = {
  common: '%h %l %u %t "%r" %>s %b',
  combined: '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"',
  vhost_combined: '%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"',
  referer: "%{Referer}i -> %U",
  agent: "%{User-agent}i",
};

export const DEFAULT_LOG_FORMAT = STANDARD_LOG_FORMATS.common!;

function literalText(raw: string): string {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = raw[i + 1];
    const escaped = next === "n" ? "\n" : next === "r" ? "\r" : next === "t" ? "\t" : next === "\\" ? "\\" : null;
    if (escaped === null) out += "\\";
    else {
      out += escaped;
      i++;
    }
  }
  return out;
}

/** The parts of a format string. Never throws: a `%` with nothing after it is literal text, as httpd logs it. */
export function compileLogFormat(text: string): LogFormat {
  const parts: LogFormatPart[] = [];
  const literal = (value: string): void => {
    if (value === "") return;
    const last = parts.at(-1);
    if (last?.kind === "literal") last.text += value;
    else parts.push({ kind: "literal", text: value });
  };
  let i = 0;
  while (i < text.length) {
    const percent = text.indexOf("%", i);
    if (percent === -1) {
      literal(literalText(text.slice(i)));
      break;
    }
    literal(literalText(text.slice(i, percent)));
    let j = percent + 1;
    if (text[j] === "%") {
      literal("%");
      i = j + 1;
      continue;
    }
    let param: string | null = null;
    let conditional = false;
    while (j < text.length) {
      const ch = text[j]!;
      if (ch === "!" || (ch >= "0" && ch <= "9")) {
        conditional = true;
        j++;
      } else if (ch === "<" || ch === ">" || ch === ",") {
        j++;
      } else if (ch === "{") {
        const close = text.indexOf("}", j);
        if (close === -1) break;
        param = text.slice(j + 1, close);
        j = close + 1;
      } else break;
    }
    const first = text[j];
    if (first === undefined) {
      literal(text.slice(percent));
      break;
    }
    const letter = first === "^" ? text.slice(j, j + 3) : first;
    j += letter.length;
    parts.push({ kind: "directive", text: text.slice(percent, j), letter, param, conditional });
    i = j;
  }
  return { text, parts };
}
