// What `server.prepare` commands may run, and a shell reader that finds the programs a command runs.
//
// Prepare commands run with /bin/sh inside the server container, whatever image the run uses; the baseline is the
// official httpd:2.2.34 image (Debian jessie with httpd built from source, its build tools purged: no openssl,
// perl modules, compiler or network tools). So they may use only what every httpd image has: httpd's own
// programs in bin/ of the official layout, and the POSIX shell with the basic utilities of a Debian base.
// Anything else (certificates, keys, data files) is made by the harness and staged as a file: the server
// certificate by the certificate factory (server.tls, server.tls.subject), other files with server.files.
//
// The loader rejects a prepare command that runs anything else (build-scenario.ts), and a unit test holds the
// catalogue to it (test/unit/scenario/catalogue-prepare-tools.test.ts).
import type { Family } from "./scenario.ts";

export interface PrepareTool {
  /** The versions whose official image has it. */
  families: readonly Family[];
  why: string;
}

const BOTH: readonly Family[] = ["2.2", "2.4"];
const HTTPD_BIN = "in bin/ of both official images (support/Makefile.in PROGRAMS)";
const SHELL = "sh builtin (dash)";
const COREUTILS = "coreutils, Essential in Debian: in jessie (2.2.34) and bookworm (2.4) alike";

/** The programs prepare commands may run, by the name they are called by (a path's last part counts). */
export const PREPARE_TOOLS: Readonly<Record<string, PrepareTool>> = {
  // httpd's own programs (prefix/bin; the official images put it on PATH).
  httpd: { families: BOTH, why: "the server itself: httpd -t, -M, -V" },
  apachectl: { families: BOTH, why: "httpd's control script (a sh script), installed by make install in both" },
  htpasswd: { families: BOTH, why: `password files for mod_authn_file; ${HTTPD_BIN}` },
  htdigest: { families: BOTH, why: `digest password files; ${HTTPD_BIN}` },
  htdbm: { families: BOTH, why: `DBM password files; ${HTTPD_BIN}` },
  httxt2dbm: { families: BOTH, why: `DBM maps for RewriteMap and group files; ${HTTPD_BIN}` },
  htcacheclean: { families: BOTH, why: `mod_cache_disk / mod_disk_cache cleaning; ${HTTPD_BIN}` },
  rotatelogs: { families: BOTH, why: `piped log rotation; ${HTTPD_BIN}` },
  logresolve: { families: BOTH, why: `${HTTPD_BIN}` },
  ab: { families: BOTH, why: `${HTTPD_BIN} (nothing listens yet during prepare, though)` },
  checkgid: { families: BOTH, why: `NONPORTABLE_SUPPORT on Unix in both; ${HTTPD_BIN}` },
  fcgistarter: { families: ["2.4"], why: "bin/ of 2.4 only (NONPORTABLE_SUPPORT gained it in 2.3)" },
  // The shell: sh itself (for sh -c, whose script is checked too) and the builtins POSIX sh has.
  sh: { families: BOTH, why: "/bin/sh, which runs prepare anyway; the script of sh -c '...' is checked as well" },
  cd: { families: BOTH, why: SHELL },
  echo: { families: BOTH, why: `${SHELL}; also coreutils` },
  printf: { families: BOTH, why: `${SHELL}; also coreutils` },
  test: { families: BOTH, why: `${SHELL}; also coreutils` },
  "[": { families: BOTH, why: `${SHELL}; also coreutils` },
  true: { families: BOTH, why: `${SHELL}; also coreutils` },
  false: { families: BOTH, why: `${SHELL}; also coreutils` },
  ":": { families: BOTH, why: SHELL },
  export: { families: BOTH, why: SHELL },
  set: { families: BOTH, why: SHELL },
  unset: { families: BOTH, why: SHELL },
  umask: { families: BOTH, why: SHELL },
  read: { families: BOTH, why: SHELL },
  shift: { families: BOTH, why: SHELL },
  exit: { families: BOTH, why: SHELL },
  // Basic utilities of the Debian base both images start from.
  mkdir: { families: BOTH, why: COREUTILS },
  rmdir: { families: BOTH, why: COREUTILS },
  chmod: { families: BOTH, why: COREUTILS },
  chown: { families: BOTH, why: COREUTILS },
  chgrp: { families: BOTH, why: COREUTILS },
  cp: { families: BOTH, why: COREUTILS },
  mv: { families: BOTH, why: COREUTILS },
  rm: { families: BOTH, why: COREUTILS },
  ln: { families: BOTH, why: COREUTILS },
  touch: { families: BOTH, why: COREUTILS },
  ls: { families: BOTH, why: COREUTILS },
  cat: { families: BOTH, why: COREUTILS },
  head: { families: BOTH, why: COREUTILS },
  tail: { families: BOTH, why: COREUTILS },
  dd: { families: BOTH, why: COREUTILS },
  tr: { families: BOTH, why: COREUTILS },
  cut: { families: BOTH, why: COREUTILS },
  sort: { families: BOTH, why: COREUTILS },
  uniq: { families: BOTH, why: COREUTILS },
  wc: { families: BOTH, why: COREUTILS },
  basename: { families: BOTH, why: COREUTILS },
  dirname: { families: BOTH, why: COREUTILS },
  sleep: { families: BOTH, why: COREUTILS },
  sed: { families: BOTH, why: "sed, Essential in Debian" },
  grep: { families: BOTH, why: "grep, Essential in Debian" },
};

const CERTIFICATE_HINT =
  "Use the harness's certificate factory: server.tls.subject chooses the subject of the server certificate that " +
  "server.tls stages at {{certs.dir}}/server.crt (key: {{certs.dir}}/server.key); {{certs.dir}}/ca.crt and " +
  "{{certs.dir}}/ca.crl are there too.";
const FILES_HINT = "Stage the file with server.files (content and mode) instead of making it in the container.";
const HIDDEN_HINT = "Write the command itself, so the check can see what it runs.";

/** Why well-known programs are missing, with what to do instead. Anything not listed gets FILES_HINT. */
export const MISSING_TOOL_HINTS: Readonly<Record<string, string>> = {
  openssl: `httpd:2.2.34 has no openssl program (only the library). ${CERTIFICATE_HINT}`,
  certtool: CERTIFICATE_HINT,
  keytool: CERTIFICATE_HINT,
  apxs: "apxs is a Perl script that needs the compiler the images remove after building httpd.",
  dbmmanage: "dbmmanage is a Perl script needing DB modules the images lack; use htdbm or httxt2dbm.",
  perl: FILES_HINT,
  python: FILES_HINT,
  python3: FILES_HINT,
  curl: "The server container has no network tools; send requests with requests:, or use a backend.",
  wget: "The server container has no network tools; send requests with requests:, or use a backend.",
  eval: HIDDEN_HINT,
  exec: HIDDEN_HINT,
  command: HIDDEN_HINT,
  env: HIDDEN_HINT,
  xargs: HIDDEN_HINT,
  find: "find is left out for -exec, which runs programs the check cannot see; list the paths, or use sh globs.",
  ".": HIDDEN_HINT,
  source: HIDDEN_HINT,
};

/** A program a command runs: its name (a path's last part) and where the word starts in the command text. */
export interface ProgramUse {
  name: string;
  /** The word as written after quote removal, e.g. "{{server.root}}/bin/htpasswd". */
  written: string;
  index: number;
}

export interface PrepareToolProblem extends ProgramUse {
  problem: string;
  hint: string;
}

/** The programs of a command that `families` (the versions the command runs on) do not all have. */
export function prepareToolProblems(command: string, families: readonly Family[]): PrepareToolProblem[] {
  const problems: PrepareToolProblem[] = [];
  for (const use of commandPrograms(command)) {
    if (use.name === "") {
      problems.push({ ...use, problem: "nests substitutions or sh -c scripts too deep to check", hint: HIDDEN_HINT });
      continue;
    }
    if (/[$`]/.test(use.name)) {
      problems.push({ ...use, problem: `runs a program named by an expansion ("${use.written}"), which cannot be checked`, hint: HIDDEN_HINT });
      continue;
    }
    const tool = Object.hasOwn(PREPARE_TOOLS, use.name) ? PREPARE_TOOLS[use.name] : undefined;
    if (tool === undefined) {
      const hint = Object.hasOwn(MISSING_TOOL_HINTS, use.name) ? (MISSING_TOOL_HINTS[use.name] as string) : FILES_HINT;
      problems.push({ ...use, problem: `runs "${use.name}", which is not a program every httpd image has`, hint });
      continue;
    }
    const missing = families.filter((family) => !tool.families.includes(family));
    if (missing.length > 0) {
      problems.push({
        ...use,
        problem: `runs "${use.name}", which only httpd ${tool.families.join(" and ")}'s image has; this command also runs on ${missing.join(" and ")}`,
        hint: 'Give the command to that version only: prepare: { "2.4": [...] }.',
      });
    }
  }
  return problems;
}

// ── a small POSIX sh reader ───────────────────────────────────────────────────────────────────────────
// Enough of the shell grammar to find every command name: lists and pipelines (; & && || | newlines),
// subshells and groups, command substitution ($( ) and backquotes, also inside double quotes), redirections
// (their targets are not commands; here-document bodies are skipped), variable assignments before a command,
// reserved words (if then else elif fi while until do done for case esac ! { }), for and case word lists and
// case patterns, and the script of `sh -c`. Arithmetic $(( )) and ${...} expansions are read as plain text.

const MAX_DEPTH = 8;
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "while", "until", "do", "done", "for", "case", "esac", "!", "{", "}"]);
const REDIRECTIONS = new Set(["<", ">", ">>", "<<", "<<-", ">&", "<&", "<>", ">|"]);
/** Longest first, so ">>" is not read as two ">". */
const OPERATORS = [";;", "&&", "||", "<<-", "<<", ">>", ">&", "<&", "<>", ">|", ";", "&", "|", "(", ")", "<", ">"];
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

type Token =
  | { kind: "word"; value: string; offsets: number[]; start: number; quoted: boolean }
  | { kind: "op"; op: string; start: number };

/** Every program the command runs, with the index of its word in `command`, in the order found (a
 * substitution's programs before the command it is an argument of). Text nested deeper than MAX_DEPTH
 * substitutions or sh -c scripts comes back as one use with an empty name, which no check accepts. */
export function commandPrograms(command: string): ProgramUse[] {
  const found: ProgramUse[] = [];
  scan(command, (index) => index, found, 0);
  return found;
}

function scan(text: string, at: (index: number) => number, found: ProgramUse[], depth: number): void {
  if (depth > MAX_DEPTH) {
    found.push({ name: "", written: text, index: at(0) });
    return;
  }
  const tokens = lex(text, (start, end) => scan(text.slice(start, end), (index) => at(start + index), found, depth + 1));
  parse(tokens, at, found, depth);
}

function lex(text: string, onSubstitution: (start: number, end: number) => void): Token[] {
  const tokens: Token[] = [];
  let word: Extract<Token, { kind: "word" }> | null = null;
  let heredocDelimiterNext: boolean | null = null;
  const heredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];
  let i = 0;

  const open = (at: number): Extract<Token, { kind: "word" }> => {
    word ??= { kind: "word", value: "", offsets: [], start: at, quoted: false };
    return word;
  };
  const add = (chars: string, from: number): void => {
    const current = open(from);
    for (let k = 0; k < chars.length; k += 1) {
      current.value += chars[k];
      current.offsets.push(from + k);
    }
  };
  const close = (): void => {
    if (word === null) return;
    tokens.push(word);
    if (heredocDelimiterNext !== null) {
      heredocs.push({ delimiter: word.value, stripTabs: heredocDelimiterNext });
      heredocDelimiterNext = null;
    }
    word = null;
  };
  /** `$...` at `from`: adds its text to the word, reports command substitutions, returns the next index. */
  const dollar = (from: number): number => {
    if (text.startsWith("$((", from)) {
      const end = matchingParen(text, from + 1);
      add(text.slice(from, end + 1), from);
      return end + 1;
    }
    if (text[from + 1] === "(") {
      const end = matchingParen(text, from + 1);
      onSubstitution(from + 2, end);
      add(text.slice(from, end + 1), from);
      return end + 1;
    }
    if (text[from + 1] === "{") {
      const end = text.indexOf("}", from + 2);
      const stop = end === -1 ? text.length - 1 : end;
      add(text.slice(from, stop + 1), from);
      return stop + 1;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(from + 1));
    const length = 1 + (name?.[0].length ?? 0);
    add(text.slice(from, from + length), from);
    return from + length;
  };
  const backquote = (from: number): number => {
    let end = from + 1;
    while (end < text.length && text[end] !== "`") end += text[end] === "\\" ? 2 : 1;
    onSubstitution(from + 1, Math.min(end, text.length));
    add(text.slice(from, end + 1), from);
    return end + 1;
  };

  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") {
      if (text[i + 1] === "\n") i += 2;
      else {
        open(i).quoted = true;
        add(text[i + 1] ?? "", i + 1);
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      open(i).quoted = true;
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end;
      add(text.slice(i + 1, stop), i + 1);
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      open(i).quoted = true;
      i += 1;
      while (i < text.length && text[i] !== '"') {
        const d = text[i] as string;
        if (d === "\\" && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1] as string)) {
          if (text[i + 1] !== "\n") add(text[i + 1] as string, i + 1);
          i += 2;
        } else if (d === "$") {
          i = dollar(i);
        } else if (d === "`") {
          i = backquote(i);
        } else {
          add(d, i);
          i += 1;
        }
      }
      i += 1;
      continue;
    }
    if (c === "$") {
      i = dollar(i);
      continue;
    }
    if (c === "`") {
      i = backquote(i);
      continue;
    }
    if (c === "#" && word === null) {
      while (i < text.length && text[i] !== "\n") i += 1;
      continue;
    }
    if (c === " " || c === "\t") {
      close();
      i += 1;
      continue;
    }
    if (c === "\n") {
      close();
      tokens.push({ kind: "op", op: "\n", start: i });
      i += 1;
      i = skipHeredocBodies(text, i, heredocs.splice(0));
      continue;
    }
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (op !== undefined) {
      const current = word as Extract<Token, { kind: "word" }> | null;
      // "2>&1": the digits before a redirection are its file descriptor, not a word.
      if (REDIRECTIONS.has(op) && current !== null && !current.quoted && /^[0-9]+$/.test(current.value)) word = null;
      else close();
      tokens.push({ kind: "op", op, start: i });
      if (op === "<<" || op === "<<-") heredocDelimiterNext = op === "<<-";
      i += op.length;
      continue;
    }
    add(c, i);
    i += 1;
  }
  close();
  return tokens;
}

/** The index of the ")" closing the "(" at `open`, skipping quotes and nested parentheses; the end if none. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i];
    if (c === "\\") i += 1;
    else if (c === "'") i = closingQuote(text, i, "'");
    else if (c === '"') i = closingQuote(text, i, '"');
    else if (c === "(") depth += 1;
    else if (c === ")") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return text.length;
}

/** The index of the quote closing the one at `open` (a double quote may be escaped); the end if none. */
function closingQuote(text: string, open: number, quote: "'" | '"'): number {
  for (let i = open + 1; i < text.length; i += 1) {
    if (quote === '"' && text[i] === "\\") i += 1;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

function skipHeredocBodies(text: string, from: number, heredocs: Array<{ delimiter: string; stripTabs: boolean }>): number {
  let i = from;
  for (const heredoc of heredocs) {
    while (i < text.length) {
      const end = text.indexOf("\n", i);
      const line = text.slice(i, end === -1 ? text.length : end);
      i = end === -1 ? text.length : end + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) break;
    }
  }
  return i;
}

function parse(tokens: readonly Token[], at: (index: number) => number, found: ProgramUse[], depth: number): void {
  let expectCommand = true;
  let redirectTarget = false;
  /** After `for NAME`: the rest of the clause up to ; or a newline is a word list. */
  let wordList = false;
  /** case: "subject" up to `in`, then "pattern" up to `)`, then commands up to `;;`. */
  const cases: Array<"subject" | "pattern" | "body"> = [];
  let shell: { scriptNext: boolean } | null = null;

  for (const token of tokens) {
    const inCase = cases.at(-1);
    if (token.kind === "op") {
      if (REDIRECTIONS.has(token.op)) {
        redirectTarget = true;
        continue;
      }
      if (inCase === "pattern") {
        if (token.op === ")") {
          cases[cases.length - 1] = "body";
          expectCommand = true;
        }
        continue;
      }
      if (token.op === ";;" && inCase === "body") cases[cases.length - 1] = "pattern";
      expectCommand = true;
      wordList = false;
      shell = null;
      continue;
    }
    if (redirectTarget) {
      redirectTarget = false;
      continue;
    }
    if (inCase === "subject") {
      if (token.value === "in" && !token.quoted) cases[cases.length - 1] = "pattern";
      continue;
    }
    if (inCase === "pattern") {
      if (token.value === "esac" && !token.quoted) {
        cases.pop();
        expectCommand = false;
      }
      continue;
    }
    if (wordList) continue;
    if (expectCommand) {
      if (ASSIGNMENT.test(token.value)) continue;
      if (!token.quoted && RESERVED.has(token.value)) {
        if (token.value === "for") wordList = true;
        if (token.value === "case") cases.push("subject");
        if (token.value === "esac" && inCase === "body") {
          cases.pop();
          expectCommand = false;
        }
        continue;
      }
      if (token.value === "") continue;
      const name = token.value.split("/").at(-1) ?? token.value;
      found.push({ name, written: token.value, index: at(token.start) });
      expectCommand = false;
      shell = name === "sh" ? { scriptNext: false } : null;
      continue;
    }
    if (shell !== null) {
      if (!shell.scriptNext && /^-[A-Za-z]*c[A-Za-z]*$/.test(token.value)) {
        shell.scriptNext = true;
      } else if (shell.scriptNext && !token.value.startsWith("-")) {
        const offsets = token.offsets;
        scan(token.value, (index) => at(offsets[index] ?? token.start), found, depth + 1);
        shell = null;
      }
    }
  }
}
