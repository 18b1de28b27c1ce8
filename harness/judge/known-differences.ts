// Differences between 2.2 and 2.4 that hold for every configuration, as data: each says which field it
// covers, how to recognise it, what class it gets and why. Scenario-specific predictions live in scenarios.
import type { Family } from "../versions/httpd-version.ts";
import type { DifferenceClass } from "./difference.ts";

export interface KnownDifferenceContext {
  baselineStatus: number | null;
  candidateStatus: number | null;
  baselineFamily: Family;
  candidateFamily: Family;
}

export interface KnownDifference {
  id: string;
  /** The field it covers ("header:date"), or a prefix ending in "*". */
  field: string;
  /** Only between these release lines (baseline, candidate); any when absent. */
  between?: { baseline: Family; candidate: Family };
  applies: (baseline: string | null, candidate: string | null, context: KnownDifferenceContext) => boolean;
  class: Exclude<DifferenceClass, "same" | "regression" | "error">;
  seed: string[];
  reason: string;
}

const apacheErrorDocument = /<title>\d{3} [^<]+<\/title>/;
// Weak (W/) when the file is younger than a second, as freshly prepared files are; both sides alike.
const etag22 = /^(W\/)?"([0-9a-f]+)-([0-9a-f]+)-([0-9a-f]+)(-gzip)?"$/;
const etag24 = /^(W\/)?"([0-9a-f]+)-([0-9a-f]+)(-gzip)?"$/;

/** A config-test message without what each version words or stamps its own way: time and pid brackets, the
 * 2.4 AH code, and the address httpd guessed. */
function configTestWording(value: string | null): string {
  return (value ?? "")
    .split("\n")
    .map((line) => line.replace(/^(\[[^\]]*\] )+/, "").replace(/\bAH\d{5}: /g, "").replace(/using \S+?( for ServerName|\. Set the 'ServerName' directive globally to suppress this message)$/, "using <address>").replace(/^httpd: /, ""))
    .join("\n");
}

const PUBLISHED_ORIGIN = /^(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])):\d+/;

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: "clock",
    field: "header:date",
    applies: () => true,
    class: "noise",
    seed: [],
    reason: "the Date header is the clock",
  },
  {
    id: "version-banner",
    field: "header:server",
    applies: () => true,
    class: "noise",
    seed: [],
    reason: "the Server header names the version under test",
  },
  {
    id: "etag-without-inode",
    field: "header:etag",
    between: { baseline: "2.2", candidate: "2.4" },
    // 2.2 "inode-size-mtime", 2.4 "size-mtime" for the same size and mtime (2.4's -gzip suffix aside).
    applies: (baseline, candidate) => {
      const old = baseline === null ? null : etag22.exec(baseline);
      const next = candidate === null ? null : etag24.exec(candidate);
      return old !== null && next !== null && old[1] === next[1] && old[3] === next[2] && old[4] === next[3];
    },
    class: "expected-change",
    seed: ["D3"],
    reason: 'FileETag defaults to "MTime Size" on 2.4: the inode part is gone',
  },
  {
    id: "config-test-wording",
    field: "configTest",
    // 2.2: "httpd: Could not reliably determine the server's fully qualified domain name, using 172.18.0.3 for
    // ServerName"; 2.4: "AH00558: httpd: Could not reliably ... using 172.18.0.4. Set the 'ServerName' ...".
    applies: (baseline, candidate) => configTestWording(baseline) === configTestWording(candidate),
    class: "noise",
    seed: [],
    reason: "the same config-test messages, worded and stamped each version's way (AH codes, the guessed ServerName address)",
  },
  {
    id: "published-port",
    field: "header:location",
    // A redirect names the host and port the request came to: each side is reached on its own published port.
    applies: (baseline, candidate) =>
      baseline !== null && candidate !== null && PUBLISHED_ORIGIN.test(baseline) && baseline.replace(PUBLISHED_ORIGIN, "$1:<port>") === candidate.replace(PUBLISHED_ORIGIN, "$1:<port>"),
    class: "noise",
    seed: [],
    reason: "the same redirect to each side's own published port",
  },
  {
    id: "error-document-wording",
    field: "body",
    applies: (baseline, candidate, { baselineStatus, candidateStatus }) =>
      baselineStatus !== null &&
      baselineStatus === candidateStatus &&
      baselineStatus >= 300 &&
      apacheErrorDocument.test(baseline ?? "") &&
      apacheErrorDocument.test(candidate ?? ""),
    class: "noise",
    seed: [],
    reason: "the built-in error and redirect documents are worded differently on 2.4; same status",
  },
];

export function findKnownDifference(
  field: string,
  baseline: string | null,
  candidate: string | null,
  context: KnownDifferenceContext,
): KnownDifference | undefined {
  return KNOWN_DIFFERENCES.find(
    (rule) =>
      (rule.field.endsWith("*") ? field.startsWith(rule.field.slice(0, -1)) : rule.field === field) &&
      (!rule.between || (rule.between.baseline === context.baselineFamily && rule.between.candidate === context.candidateFamily)) &&
      rule.applies(baseline, candidate, context),
  );
}
