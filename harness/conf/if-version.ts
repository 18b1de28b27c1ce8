// `<IfVersion [[!]operator] version>` as mod_version.c start_ifversion reads it (same on 2.2.34 and 2.4.62):
// operators `=` `==` `<` `<=` `>` `>=` and `~`, each optionally preceded by `!` (so `!=` is negated `=`); a
// version written `/regex/` with `=`/`==` is a regular expression, as is any version with `~`. A missing minor
// or patch counts as 0 (`< 2.4` is false on 2.4.0 and later; `= 2.4` holds on 2.4.0 only).
import type { HttpdVersion } from "../versions/httpd-version.ts";

export type IfVersionResult = { ok: true; holds: boolean } | { ok: false; error: string };

/** `words`: the section's arguments without the closing `>`. */
export function testIfVersion(words: readonly string[], version: HttpdVersion, addString = ""): IfVersionResult {
  if (words.length === 0 || words.length > 2) return { ok: false, error: "<IfVersion> takes an optional operator and a version" };
  const [operatorWord, operand] = words.length === 1 ? ["=", words[0]!] : [words[0]!, words[1]!];
  let op = operatorWord;
  let reverse = false;
  if (op.startsWith("!")) {
    reverse = true;
    if (op.length > 1) op = op.slice(1);
  }
  const c = op[0];
  const rest = op.slice(1);
  if (!(rest === "" || (rest === "=" && c !== "~"))) return { ok: false, error: `unrecognized operator '${operatorWord}'` };
  const orEqual = rest === "=";
  let match: boolean;
  if (c === "=" && !operand.startsWith("/")) {
    const compare = compareTo(operand, version);
    if (compare === null) return { ok: false, error: INVALID };
    match = compare === 0;
  } else if (c === "=" || c === "~") {
    let source = operand;
    if (c === "=") {
      if (source.length < 2 || !source.endsWith("/")) return { ok: false, error: "Missing delimiting / of regular expression." };
      source = source.slice(1, -1);
    }
    let regex: RegExp;
    try {
      regex = new RegExp(source);
    } catch {
      return { ok: false, error: "Unable to compile regular expression" };
    }
    match = regex.test(`${version.major}.${version.minor}.${version.patch}${addString}`);
  } else if (c === "<" || c === ">") {
    const compare = compareTo(operand, version);
    if (compare === null) return { ok: false, error: INVALID };
    match = (c === "<" ? compare === -1 : compare === 1) || (orEqual && compare === 0);
  } else return { ok: false, error: `unrecognized operator '${operatorWord}'` };
  return { ok: true, holds: match !== reverse };
}

const INVALID = "Version appears to be invalid. It must have the format major[.minor[.patch]] where major, minor and patch are numbers.";

/** The running version compared with the written one: 1 newer, -1 older, 0 equal; null when unreadable. */
function compareTo(written: string, version: HttpdVersion): number | null {
  if (!/^\d+(\.\d+){0,2}$/.test(written)) return null;
  const [major = 0, minor = 0, patch = 0] = written.split(".").map(Number);
  const pairs: Array<[number, number]> = [
    [version.major, major],
    [version.minor, minor],
    [version.patch, patch],
  ];
  for (const [have, want] of pairs) if (have !== want) return have > want ? 1 : -1;
  return 0;
}
