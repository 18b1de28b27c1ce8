// The ignore file an operator keeps for a whole fleet (`.httpd-upgrade-ignore.yaml`, or `--ignore FILE`): each
// entry names what it silences by rule id, config file glob, request path glob, header name, log code or a
// value pattern (all given selectors must match) and says why. Lint drops matching findings; a run lists
// matching differences as ignored. Both count what each entry silenced.
import { readFile } from "node:fs/promises";
import { yaml } from "./yaml-on-demand.ts";
import { HarnessError } from "../errors.ts";
import type { LintFinding } from "./finding.ts";

export const IGNORE_FILE_NAME = ".httpd-upgrade-ignore.yaml";

export interface IgnoreEntry {
  /** Rule id, or a glob of ids ("R*"). */
  rule: string | null;
  /** Glob over the config file's tree path ("sites-enabled/*"). */
  path: string | null;
  /** Glob over the request path ("/legacy/*"). */
  request: string | null;
  /** A header name: a difference of that header. */
  header: string | null;
  /** An AH code (or 2.2 event code) in the evidence's log lines. */
  code: string | null;
  /** A regular expression over either side's value (or a finding's directive). */
  value: RegExp | null;
  reason: string;
  /** "FILE:LINE" of the entry, for reports. */
  at: string;
}

export interface IgnoreFile {
  path: string;
  entries: IgnoreEntry[];
}

const KEYS = ["rule", "path", "request", "header", "code", "value", "reason"] as const;

/** A glob with `*`, `?` and `**` as a whole-string regular expression (`*` stays within one path segment). */
export function globPattern(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "i");
}

export function parseIgnoreFile(text: string, path: string): IgnoreFile {
  const { LineCounter, parseDocument, isMap, isSeq, isScalar } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const fail = (offset: number | undefined, message: string, hint: string): never => {
    const line = offset === undefined ? 1 : lineCounter.linePos(offset).line;
    throw new HarnessError("HARNESS_IGNORE_FILE", `${path}:${line}: ${message}`, { hint });
  };
  if (document.errors.length > 0) fail(document.errors[0]!.pos[0], document.errors[0]!.message.split("\n")[0]!, "Fix the YAML syntax.");
  const root = document.contents;
  const list = isMap(root) ? root.get("ignore", true) : null;
  if (!isSeq(list)) return fail(root?.range?.[0], "the file has no `ignore:` list", "Write `ignore:` followed by entries such as `- rule: D3` with a `reason:`.");
  const entries = list.items.map((item) => {
    const offset = (item as { range?: [number, number, number] }).range?.[0];
    if (!isMap(item)) return fail(offset, "an entry is not a mapping", "Each entry is a mapping: `- rule: E2` / `  reason: ...`.");
    const values: Partial<Record<(typeof KEYS)[number], string>> = {};
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      if (!(KEYS as readonly string[]).includes(key)) fail(offset, `unknown key "${key}"`, `An entry takes ${KEYS.join(", ")}.`);
      if (!isScalar(pair.value) || pair.value.value === null) fail(offset, `"${key}" needs a text value`, "Quote globs and patterns.");
      values[key as (typeof KEYS)[number]] = String((pair.value as { value: unknown }).value);
    }
    if (!values.reason?.trim()) fail(offset, "an entry has no reason", "Say why the difference is accepted: `reason: ...`.");
    if (!values.rule && !values.path && !values.request && !values.header && !values.code && !values.value) {
      fail(offset, "an entry selects nothing", "Give at least one of rule, path, request, header, code, value.");
    }
    let value: RegExp | null = null;
    if (values.value !== undefined) {
      try {
        value = new RegExp(values.value);
      } catch (error) {
        fail(offset, `"value" is no regular expression: ${(error as Error).message}`, "Write a JavaScript regular expression.");
      }
    }
    return {
      rule: values.rule ?? null,
      path: values.path ?? null,
      request: values.request ?? null,
      header: values.header ?? null,
      code: values.code ?? null,
      value,
      reason: values.reason!.trim(),
      at: `${path}:${offset === undefined ? 1 : lineCounter.linePos(offset).line}`,
    };
  });
  return { path, entries };
}

export async function loadIgnoreFile(path: string): Promise<IgnoreFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new HarnessError("HARNESS_IGNORE_FILE", `${path}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`, {
      hint: "Give --ignore an existing YAML file, or leave it out.",
    });
  }
  return parseIgnoreFile(text, path);
}

/** What an entry is matched against: a finding, or a run's difference with its cause. */
export interface IgnoreSubject {
  rule: string | null;
  /** Config files the subject is tied to. */
  files: readonly string[];
  request: string | null;
  /** The difference's field ("header:etag", "status"), or null for a lint finding. */
  field: string | null;
  codes: readonly string[];
  values: ReadonlyArray<string | null>;
}

export function entryMatches(entry: IgnoreEntry, subject: IgnoreSubject): boolean {
  if (entry.rule !== null && (subject.rule === null || !globPattern(entry.rule).test(subject.rule))) return false;
  if (entry.path !== null && !subject.files.some((file) => globPattern(entry.path!).test(file) || globPattern(`**/${entry.path!}`).test(file))) return false;
  if (entry.request !== null && (subject.request === null || !globPattern(entry.request).test(subject.request))) return false;
  if (entry.header !== null && subject.field?.toLowerCase() !== `header:${entry.header.toLowerCase()}`) return false;
  if (entry.code !== null && !subject.codes.includes(entry.code)) return false;
  if (entry.value !== null && !subject.values.some((value) => value !== null && entry.value!.test(value))) return false;
  return true;
}

export function findingSubject(finding: LintFinding): IgnoreSubject {
  return { rule: finding.rule, files: [finding.file], request: null, field: null, codes: [], values: [finding.directive] };
}

/** The first entry that silences the subject, or undefined. */
export function ignoredBy(file: IgnoreFile | null, subject: IgnoreSubject): IgnoreEntry | undefined {
  return file?.entries.find((entry) => entryMatches(entry, subject));
}
