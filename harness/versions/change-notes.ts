// Known 2.4 patch releases that changed what a configuration does, with upstream's own words and links: the
// notes `bisect` prints at a change point for the versions between its two images. Data, one entry per change;
// a version without an entry is covered by upstream's CHANGES file of the newer image's version, which lists
// every release's changes, newest first.
import { compareVersions, type HttpdVersion, httpdVersion } from "./httpd-version.ts";

export interface ChangeLink {
  title: string;
  url: string;
}

export interface ChangeNote {
  /** The release the change shipped in: "2.4.60". */
  version: string;
  /** Where in httpd: "core", "mod_rewrite". */
  area: string;
  /** What changed, as it shows to a configuration. */
  summary: string;
  /** What breaks, and how to get the old behaviour back where there is a way. */
  effect: string;
  links: readonly ChangeLink[];
}

/** Upstream's CHANGES file of one release: every change of every release up to it, newest first. */
export function changesFileUrl(version: string): string {
  return `https://archive.apache.org/dist/httpd/CHANGES_${version}`;
}

const SECURITY_24 = "https://httpd.apache.org/security/vulnerabilities_24.html";

export const CHANGE_NOTES: readonly ChangeNote[] = [
  {
    version: "2.4.25",
    area: "core",
    summary: "strict HTTP request parsing (CVE-2016-8743): request lines and header lines with bare CR, bare LF, control characters or whitespace before the colon are refused",
    effect: "requests that 2.4.23 and earlier answered get 400 Bad Request; `HttpProtocolOptions Unsafe` relaxes the checks",
    links: [
      { title: "CVE-2016-8743 (httpd 2.4 security vulnerabilities)", url: `${SECURITY_24}#CVE-2016-8743` },
      { title: "HttpProtocolOptions", url: "https://httpd.apache.org/docs/2.4/mod/core.html#httpprotocoloptions" },
      { title: "CHANGES_2.4.25", url: changesFileUrl("2.4.25") },
    ],
  },
  {
    version: "2.4.60",
    area: "mod_rewrite",
    summary: "substitutions that capture and substitute unsafely are refused when the result has a `?` (an encoded %3F) in its path (CVE-2024-38474)",
    effect: "403 Forbidden and AH10508 \"Unsafe URL with %3f URL rewritten without UnsafeAllow3F\" where 2.4.59 rewrote; the [UnsafeAllow3F] flag restores the old rewrite for one rule",
    links: [
      { title: "CVE-2024-38474 (httpd 2.4 security vulnerabilities)", url: `${SECURITY_24}#CVE-2024-38474` },
      { title: "RewriteRule flag UnsafeAllow3F", url: "https://httpd.apache.org/docs/2.4/rewrite/flags.html#flag_unsafe_allow_3f" },
      { title: "Bug 69197: better question mark tracking to avoid UnsafeAllow3F", url: "https://bz.apache.org/bugzilla/show_bug.cgi?id=69197" },
      { title: "CHANGES_2.4.60", url: changesFileUrl("2.4.60") },
    ],
  },
  {
    version: "2.4.64",
    area: "mod_rewrite",
    summary: "a regression: every `RewriteCond expr ...` evaluates as true (CVE-2025-54090)",
    effect: "rules guarded by an expr condition apply to every request; fixed in 2.4.65",
    links: [
      { title: "CVE-2025-54090 (httpd 2.4 security vulnerabilities)", url: `${SECURITY_24}#CVE-2025-54090` },
      { title: "CHANGES_2.4.64", url: changesFileUrl("2.4.64") },
    ],
  },
  {
    version: "2.4.65",
    area: "mod_rewrite",
    summary: "`RewriteCond expr ...` evaluates its expression again (the fix of 2.4.64's CVE-2025-54090)",
    effect: "rules guarded by an expr condition apply only where the condition holds, as before 2.4.64",
    links: [
      { title: "CVE-2025-54090 (httpd 2.4 security vulnerabilities)", url: `${SECURITY_24}#CVE-2025-54090` },
      { title: "CHANGES_2.4.65", url: changesFileUrl("2.4.65") },
    ],
  },
  {
    version: "2.4.68",
    area: "mod_include",
    summary: "none of the if/elif/else content is printed when a conditional evaluation returns an error",
    effect: "an #if whose expression does not parse (a 2.2-style expression without SSILegacyExprParser) prints only \"[an error occurred while processing this directive]\", no longer the error text followed by the if-branch",
    links: [
      { title: "apache/httpd#658: mod_include if/elseif/else suppressed after evaluation error (r1934852)", url: "https://github.com/apache/httpd/pull/658" },
      { title: "CHANGES_2.4.68", url: changesFileUrl("2.4.68") },
    ],
  },
];

export interface NotesBetween {
  /** The lower and the higher of the two versions (a change point may go either way in a user's list). */
  from: string;
  to: string;
  /** The known changes of the releases after `from` up to and including `to`, oldest first. */
  notes: ChangeNote[];
  /** Upstream's CHANGES file of `to`, for every release in between (with or without a note); null when the two
   * are the same upstream version (a build difference: a distribution's patches, modules or layout). */
  changes: ChangeLink | null;
}

/** What upstream changed between two versions of one release line, whichever order they come in. */
export function notesBetween(a: HttpdVersion, b: HttpdVersion, table: readonly ChangeNote[] = CHANGE_NOTES): NotesBetween {
  const [low, high] = compareVersions(a, b) <= 0 ? [a, b] : [b, a];
  const notes = table
    .filter((note) => {
      const version = httpdVersion(note.version);
      return compareVersions(version, low) > 0 && compareVersions(version, high) <= 0;
    })
    .sort((x, y) => compareVersions(httpdVersion(x.version), httpdVersion(y.version)));
  const same = compareVersions(low, high) === 0;
  return {
    from: low.text,
    to: high.text,
    notes,
    changes: same ? null : { title: `CHANGES_${high.text}: every change from ${low.text} to ${high.text}, newest first`, url: changesFileUrl(high.text) },
  };
}
