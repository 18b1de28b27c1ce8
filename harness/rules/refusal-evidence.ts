// How a blocking rule's recognise face reads 2.4's refusal to start: the candidate's config-test and start-up
// records. httpd writes a syntax error as two lines ("AH00526: Syntax error on line N of FILE:" and then the
// reason: "Invalid command 'Order', perhaps misspelled ...", "KeepAlive must be On or Off") or, for an error
// while reading (LoadModule, Include), as one ("httpd: Syntax error on line N of FILE: Cannot load ...").
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import { syntaxErrorPlace } from "../logs/split-config-test.ts";
import type { Evidence } from "./evidence.ts";
import type { Claim } from "./rule.ts";

export interface Refusal {
  /** The reason's text (the record's message, or the part after "FILE: " of a one-line error). */
  reason: string;
  match: RegExpExecArray;
  /** The config line the error names, when it names one. */
  place: { file: string; line: number } | null;
}

/** Whether the evidence is about the server refusing (config test or start-up), not a request. */
export function aboutStartup(evidence: Evidence): boolean {
  return evidence.field === "configTest" || evidence.field === "started" || evidence.field === "startupLog";
}

/** The first candidate refusal whose reason matches `pattern`, with the line the error names. */
export function candidateRefusal(evidence: Evidence, pattern: RegExp): Refusal | null {
  if (!aboutStartup(evidence)) return null;
  return findRefusal(evidence.log.candidate, pattern);
}

/** A one-line error in an included file nests the include's place around the file's own ("Syntax error on line 81
 * of /etc/apache2/apache2.conf: Syntax error on line 1 of /etc/apache2/mods-enabled/x.load: Cannot load ..."):
 * the innermost names the line at fault (logs/split-config-test.ts reads both forms). */
export function findRefusal(records: readonly ErrorLogRecord[], pattern: RegExp): Refusal | null {
  for (const [index, record] of records.entries()) {
    const oneLine = syntaxErrorPlace(record.message);
    const reason = oneLine?.reason ?? record.message;
    const match = pattern.exec(reason);
    if (!match) continue;
    const previous = index > 0 ? syntaxErrorPlace(records[index - 1]!.message) : null;
    const named = oneLine?.reason != null ? oneLine : previous !== null && previous.reason === null ? previous : null;
    return { reason, match, place: named ? { file: named.file, line: named.line } : null };
  }
  return null;
}

// 2.4's line for a per-directory file it cannot read: "[core:alert] ... /srv/www/x/.htaccess: Invalid command 'Order', ...".
const ACCESS_FILE_LINE = /^(\/\S+): (.+)$/;

/** A request answered 500 on 2.4 because a per-directory file (.htaccess) has a line matching `pattern`. */
export function accessFileRefusal(evidence: Evidence, pattern: RegExp): (Refusal & { accessFile: string }) | null {
  if (evidence.request === null || evidence.status.candidate !== 500) return null;
  for (const record of evidence.log.candidate) {
    const line = ACCESS_FILE_LINE.exec(record.message);
    const match = line ? pattern.exec(line[2]!) : null;
    if (line && match) return { reason: line[2]!, match, place: null, accessFile: line[1]! };
  }
  return null;
}

/** A claim on the first candidate refusal matching `pattern`, summarised by `summary`: the config test's or
 * start-up's, or, on a request answered 500, a per-directory file's (then the claim is behaviour). */
export function refusalClaim(evidence: Evidence, pattern: RegExp, summary: (refusal: Refusal) => string): Claim | null {
  const refusal = candidateRefusal(evidence, pattern);
  if (refusal === null) {
    const access = accessFileRefusal(evidence, pattern);
    return access === null ? null : { summary: `500 on 2.4 (it reads ${access.accessFile} per request): ${summary(access)}`, severity: "behaviour" };
  }
  const claim: Claim = { summary: summary(refusal) };
  if (refusal.place !== null) claim.lines = [refusal.place];
  return claim;
}

/** The reason AH00526 gives for a directive no loaded module has, for `names` (case-insensitive). */
export function invalidCommandPattern(names: readonly string[]): RegExp {
  return patternOf("invalid", names, () => {
    const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`Invalid command '(<?(?:${escaped.join("|")}))'`, "i");
  });
}

/** The reason of a LoadModule whose file is not there: "Cannot load modules/mod_x.so into server: ...". */
export function cannotLoadPattern(files: readonly string[]): RegExp {
  return patternOf("cannot-load", files, () => {
    const escaped = files.map((file) => file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`Cannot load (\\S*?(${escaped.join("|")})) into server`);
  });
}

/** The patterns above, made once per kind and word list: rules ask for them while recognising every difference
 * of every scenario (~0.3 CPU-s per 100 fleet configs went to building the same RegExps again). Neither has the g
 * or y flag, so a shared RegExp keeps no state between tests. */
const patterns = new Map<string, RegExp>();

function patternOf(kind: string, words: readonly string[], make: () => RegExp): RegExp {
  const key = `${kind}\u0000${words.join("\u0000")}`;
  let pattern = patterns.get(key);
  if (pattern === undefined) patterns.set(key, (pattern = make()));
  return pattern;
}
