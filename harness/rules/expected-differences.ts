// Benign differences between a 2.2 baseline and a 2.4 candidate that hold for every configuration: rules of
// severity "expected" with only a recognise face. The first seven are also what the judge classes while it diffs
// (JUDGED_DIFFERENCES, read by judge/known-differences.ts); the others need more than one field's values to be
// told safely from a regression, so only a run report's attribution claims them.
import { LOG_LEVELS } from "../logs/error-log-record.ts";
import { ETAG_WITHOUT_INODE } from "./etag-shape.ts";
import { type FieldDifference, recogniseFieldDifference } from "./field-difference.ts";
import type { Rule } from "./rule.ts";

const APACHE_ERROR_DOCUMENT = /<title>\d{3} [^<]+<\/title>/;

/** A config-test message without what each version words or stamps its own way: time and pid brackets, the
 * 2.4 AH code, and the address httpd guessed. */
function configTestWording(value: string | null): string {
  return (value ?? "")
    .split("\n")
    .map((line) => line.replace(/^(\[[^\]]*\] )+/, "").replace(/\bAH\d{5}: /g, "").replace(/using \S+?( for ServerName|\. Set the 'ServerName' directive globally to suppress this message)$/, "using <address>").replace(/^httpd: /, ""))
    .join("\n");
}

const PUBLISHED_ORIGIN = /^(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])):\d+/;

const CLOCK: FieldDifference = { id: "clock", field: "header:date", applies: () => true, seed: [], reason: "the Date header is the clock" };

/** A cache's Age counts seconds since it stored the answer; the two sides store and are asked seconds apart. An
 * Age on one side only (cached against not) is not this. */
const AGE_SKEW_SECONDS = 10;

const CACHE_AGE: FieldDifference = {
  id: "cache-age",
  field: "header:age",
  applies: (baseline, candidate) =>
    baseline !== null && candidate !== null && /^\d+$/.test(baseline.trim()) && /^\d+$/.test(candidate.trim()) && Math.abs(Number(baseline) - Number(candidate)) <= AGE_SKEW_SECONDS,
  seed: [],
  reason: "a cache's Age header counts seconds from when each side stored the answer",
};

const VERSION_BANNER: FieldDifference = {
  id: "version-banner",
  field: "header:server",
  applies: () => true,
  seed: [],
  reason: "the Server header names the version under test",
};

const CONFIG_TEST_WORDING: FieldDifference = {
  id: "config-test-wording",
  field: "configTest",
  // 2.2: "httpd: Could not reliably determine the server's fully qualified domain name, using 172.18.0.3 for
  // ServerName"; 2.4: "AH00558: httpd: Could not reliably ... using 172.18.0.4. Set the 'ServerName' ...".
  applies: (baseline, candidate) => configTestWording(baseline) === configTestWording(candidate),
  seed: [],
  reason: "the same config-test messages, worded and stamped each version's way (AH codes, the guessed ServerName address)",
};

/** An absolute URL's scheme and authority when the authority is an address (what httpd puts in a redirect to a
 * request that came without a name: the address it was sent to). */
const ADDRESS_ORIGIN = /^(https?:\/\/)(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])(?::\d+)?(?=\/|$)/;

const PUBLISHED_PORT: FieldDifference = {
  id: "published-port",
  field: "header:location",
  // A redirect names the host and port the request came to: each side is reached on its own published port, and a
  // client container reaches each side's server at that server's own address on the client's network.
  applies: (baseline, candidate) =>
    baseline !== null &&
    candidate !== null &&
    ((PUBLISHED_ORIGIN.test(baseline) && baseline.replace(PUBLISHED_ORIGIN, "$1:<port>") === candidate.replace(PUBLISHED_ORIGIN, "$1:<port>")) ||
      (ADDRESS_ORIGIN.test(baseline) && ADDRESS_ORIGIN.test(candidate) && baseline.replace(ADDRESS_ORIGIN, "$1<server>") === candidate.replace(ADDRESS_ORIGIN, "$1<server>"))),
  seed: [],
  reason: "the same redirect to each side's own address (its published port, or its address on the client's network)",
};

const ERROR_DOCUMENT_WORDING: FieldDifference = {
  id: "error-document-wording",
  field: "body",
  applies: (baseline, candidate, { baselineStatus, candidateStatus }) =>
    baselineStatus !== null &&
    baselineStatus === candidateStatus &&
    baselineStatus >= 300 &&
    APACHE_ERROR_DOCUMENT.test(baseline ?? "") &&
    APACHE_ERROR_DOCUMENT.test(candidate ?? ""),
  seed: [],
  reason: "the built-in error and redirect documents are worded differently on 2.4; same status",
};

/** The pages mod_status, mod_info and the balancer manager write: the server's own state (uptime, counters,
 * current time), never the same twice, let alone across versions. The judge does not compare their bodies. */
const STATUS_PAGE = /<title>(Apache Status|Server Information|Balancer Manager)<\/title>/i;

export function isStatusPage(body: string): boolean {
  return STATUS_PAGE.test(body.slice(0, 2048));
}

export const STATUS_PAGE_REASON = "a status page (server-status, server-info, balancer-manager) shows each server's own state";

function expectedRule(difference: FieldDifference, title: string): Rule {
  return { id: difference.id, seed: [...difference.seed], title, severity: "expected", recognise: recogniseFieldDifference(difference) };
}

export const CLOCK_RULE = expectedRule(CLOCK, "the Date header is each server's clock");
export const CACHE_AGE_RULE = expectedRule(CACHE_AGE, "a cache's Age header counts seconds from when each side stored the answer");
export const VERSION_BANNER_RULE = expectedRule(VERSION_BANNER, "the Server header names each version");
export const CONFIG_TEST_WORDING_RULE: Rule = {
  ...expectedRule(CONFIG_TEST_WORDING, "the same config-test and start-up messages worded each version's way (AH00558 for 2.2's \"Could not reliably determine the server's fully qualified domain name\")"),
  fix: "Set ServerName globally to silence AH00558 on both versions.",
};
export const PUBLISHED_PORT_RULE = expectedRule(PUBLISHED_PORT, "a redirect names each side's own published port");
export const ERROR_DOCUMENT_WORDING_RULE = expectedRule(ERROR_DOCUMENT_WORDING, "the built-in error documents are worded differently on 2.4");

// ---- claimed only in a run report's attribution ---------------------------------------------------------------

function tokens(value: string | null): string | null {
  if (value === null) return null;
  return [...new Set(value.split(",").map((token) => token.trim().toLowerCase()).filter(Boolean))].sort().join(",");
}

export const VARY_RULE: Rule = {
  id: "vary-format",
  seed: [],
  title: "the same Vary header tokens, written in another order, case or number of lines",
  severity: "expected",
  recognise: (evidence) =>
    evidence.field === "header:vary" && evidence.baseline !== null && evidence.candidate !== null && tokens(evidence.baseline) === tokens(evidence.candidate)
      ? { summary: `the same Vary tokens written differently (${evidence.baseline} / ${evidence.candidate})` }
      : null,
};

// 2.2's mod_deflate notes `Vary: Accept-Encoding` on every answer its filter sees (mod_deflate.c:580, before it
// decides whether to compress), error pages and status pages included; 2.4 only on answers it may compress. An
// answer neither side compressed carries the token on 2.2 alone (configs/static-expires: its 403s and server-status).
export const DEFLATE_VARY_RULE: Rule = {
  id: "deflate-vary",
  seed: [],
  title: "2.2's deflate filter adds Vary: Accept-Encoding to answers it does not compress; 2.4 does not",
  severity: "expected",
  recognise: (evidence) => {
    if (evidence.field !== "header:vary" || evidence.candidate !== null || tokens(evidence.baseline) !== "accept-encoding") return null;
    const { baseline, candidate } = evidence.status;
    return baseline !== null && baseline === candidate ? { summary: "Vary: Accept-Encoding on 2.2 only, from its deflate filter, on the same answer" } : null;
  },
};

// 2.2's HTTP header filter pads a head of 255 to 257 bytes with "X-Pad: avoid browser bug" (http_filters.c
// terminate_header, for an old Navigator bug); 2.4 dropped it. Which answers get it depends on their heads' length.
export const X_PAD_RULE: Rule = {
  id: "x-pad",
  seed: [],
  title: "2.2 pads a response head of 255 to 257 bytes with X-Pad: avoid browser bug; 2.4 never does",
  severity: "expected",
  recognise: (evidence) =>
    evidence.field === "header:x-pad" && evidence.candidate === null && (evidence.baseline ?? "").trim() === "avoid browser bug"
      ? { summary: "2.2's X-Pad: avoid browser bug, on a head of 255 to 257 bytes" }
      : null,
};

// With `Satisfy Any` and a user required, a client the host lines refuse is sent on to authentication. 2.2 logs
// nothing for it (mod_authz_host.c check_dir_access logs only under Satisfy All or without Require); 2.4's
// mod_access_compat logs AH01797 all the same, and then asks for credentials: the same 401, one line more. A client
// that sent credentials goes on to them the same way: the same answer once its user is checked (200 for a valid
// user), and the line all the same.
export const SATISFY_ANY_DENIAL_LOG_RULE: Rule = {
  id: "satisfy-any-denial-logged",
  seed: [],
  title: "under Satisfy Any, 2.4 logs AH01797 for a client the host lines refuse before it checks the client's credentials; 2.2 logs nothing",
  severity: "expected",
  recognise: (evidence) => {
    const { baseline, candidate } = evidence.status;
    if (evidence.field !== "errorLog" || baseline === null || baseline !== candidate) return null;
    // Past the host refusal only to authentication: a 401, or an answer other than a refusal to a client with a user.
    if (baseline !== 401 && (evidence.request?.user == null || baseline === 403)) return null;
    const before = new Set(lines(evidence.baseline));
    const added = lines(evidence.candidate).filter((line) => !before.has(line));
    const denied = evidence.log.candidate.some((record) => record.event === "AH01797");
    return denied && added.length > 0 && added.every((line) => line === "client-denied") && lines(evidence.baseline).every((line) => lines(evidence.candidate).includes(line))
      ? { summary: baseline === 401 ? "2.4 logged AH01797 (the host lines refuse) and asked for credentials, as 2.2 did without the line: the same 401" : `2.4 logged AH01797 (the host lines refuse) and then checked the credentials, as 2.2 did without the line: the same ${baseline}` }
      : null;
  },
};

export const ACCEPT_RANGES_RULE: Rule = {
  id: "accept-ranges",
  seed: [],
  title: "one side advertises byte ranges (Accept-Ranges: bytes) and the other does not, on the same status",
  severity: "expected",
  recognise: (evidence) => {
    if (evidence.field !== "header:accept-ranges") return null;
    const { baseline, candidate } = evidence.status;
    if (baseline === null || baseline !== candidate || baseline < 200 || baseline >= 300) return null;
    const values = [evidence.baseline, evidence.candidate];
    return values.includes(null) && values.some((value) => value?.trim().toLowerCase() === "bytes")
      ? { summary: `Accept-Ranges: bytes on the ${evidence.baseline === null ? "candidate" : "baseline"} only; a client that sends no Range header is not affected` }
      : null;
  },
};

// Two requests, one to each side, are seconds apart (a run sends them in turn): an expiry computed from each
// request's own time differs by that much. Ten minutes covers a slow run; a changed ExpiresDefault is hours.
const SKEW_SECONDS = 600;

function maxAgeShape(value: string): { shape: string; ages: number[] } {
  const ages: number[] = [];
  const shape = value.replace(/(max-age|s-maxage)=(\d+)/gi, (_, name: string, age: string) => {
    ages.push(Number(age));
    return `${name.toLowerCase()}=<n>`;
  });
  return { shape, ages };
}

/** Expires and max-age are computed from each request's own time: within the seconds between the two requests they
 * are the clock, like Date, and the judge classes them as noise (a run that sends both requests within one second
 * shows no difference at all, one that does not would otherwise show a cause more). */
const EXPIRES_CLOCK: FieldDifference = {
  id: "expires-skew",
  field: "header:expires",
  applies: (baseline, candidate) => {
    if (baseline === null || candidate === null) return false;
    const delta = Math.abs(Date.parse(baseline) - Date.parse(candidate)) / 1000;
    return Number.isFinite(delta) && delta <= SKEW_SECONDS;
  },
  seed: [],
  reason: "Expires computed from each request's own time, seconds apart",
};

const MAX_AGE_CLOCK: FieldDifference = {
  id: "expires-skew",
  field: "header:cache-control",
  applies: (baseline, candidate) => {
    if (baseline === null || candidate === null) return false;
    const a = maxAgeShape(baseline);
    const b = maxAgeShape(candidate);
    return a.shape === b.shape && a.ages.length === b.ages.length && a.ages.length > 0 && a.ages.every((age, index) => Math.abs(age - b.ages[index]!) <= SKEW_SECONDS);
  },
  seed: [],
  reason: "max-age computed from each request's own time, seconds apart",
};

/** What the judge classes on its own while it diffs (judge/known-differences.ts), in the order it tries them. */
export const JUDGED_DIFFERENCES: readonly FieldDifference[] = [CLOCK, CACHE_AGE, VERSION_BANNER, ETAG_WITHOUT_INODE, CONFIG_TEST_WORDING, PUBLISHED_PORT, ERROR_DOCUMENT_WORDING, EXPIRES_CLOCK, MAX_AGE_CLOCK];

export const EXPIRES_SKEW_RULE: Rule = {
  id: "expires-skew",
  seed: [],
  title: "Expires and Cache-Control max-age computed from each request's own time",
  severity: "expected",
  recognise: (evidence) => recogniseFieldDifference(EXPIRES_CLOCK)(evidence) ?? recogniseFieldDifference(MAX_AGE_CLOCK)(evidence),
};

const LISTING_TITLE = /<(?:title|h1)>Index of ([^<]*)<\/(?:title|h1)>/;

/** The directory a mod_autoindex listing is of, or null when the body is none. */
export function listingOf(body: string | null): string | null {
  return LISTING_TITLE.exec(body ?? "")?.[1] ?? null;
}

export const AUTOINDEX_MARKUP_RULE: Rule = {
  id: "autoindex-markup",
  seed: [],
  title: "mod_autoindex writes its directory listings in other markup on 2.4 (doctype, date format, table)",
  severity: "expected",
  recognise: (evidence) => {
    if (evidence.field !== "body" || evidence.status.baseline !== 200 || evidence.status.candidate !== 200) return null;
    const a = LISTING_TITLE.exec(evidence.baseline ?? "");
    const b = LISTING_TITLE.exec(evidence.candidate ?? "");
    return a && b && a[1] === b[1] ? { summary: `the listing of ${a[1]} in 2.4's markup` } : null;
  },
};

const LEVEL_WORDS = new Set<string>([...LOG_LEVELS, "-"]);

/** Events 2.4 logs at a lower level than 2.2 did, so that at the usual LogLevel only 2.2 shows them (data from
 * real servers: ssi-errordocument-legacy-expr, the message map's AH00128 row). */
const LOWERED_ON_24: Readonly<Record<string, string>> = {
  "file-does-not-exist": "2.2 logs \"File does not exist\" at error, 2.4 at info (AH00128)",
};

function lines(value: string | null): string[] {
  return value === null ? [] : value.split("\n").filter(Boolean);
}

function withoutLevel(line: string): string | null {
  const space = line.indexOf(" ");
  return space > 0 && LEVEL_WORDS.has(line.slice(0, space)) ? line.slice(space + 1) : null;
}

export const LOG_LEVEL_MOVE_RULE: Rule = {
  id: "log-level-move",
  seed: [],
  title: "the same event logged at another level on 2.4 (or below the configured LogLevel there)",
  severity: "expected",
  recognise: (evidence) => {
    if (!["errorLog", "startupLog", "trailingLog"].includes(evidence.field)) return null;
    const before = lines(evidence.baseline);
    const after = lines(evidence.candidate);
    const onlyBefore = before.filter((line) => !after.includes(line));
    const onlyAfter = after.filter((line) => !before.includes(line));
    const moved: string[] = [];
    for (const line of onlyAfter) {
      const text = withoutLevel(line);
      const partner = text === null ? -1 : onlyBefore.findIndex((other) => withoutLevel(other) === text);
      if (partner < 0) return null;
      moved.push(text!);
      onlyBefore.splice(partner, 1);
    }
    if (!onlyBefore.every((line) => line in LOWERED_ON_24)) return null;
    const hidden = onlyBefore.map((line) => LOWERED_ON_24[line]!);
    if (moved.length === 0 && hidden.length === 0) return null;
    return { summary: [...moved.map((text) => `logged at another level: ${text}`), ...hidden].join("; ") };
  },
};

// 2.2's stock httpd.conf loads mod_ssl without configuring it (its httpd-ssl.conf is not included), so every 2.2
// start warns "Init: Session Cache is not configured [hint: SSLSessionCache]" (AH01873 in 2.4's numbering); 2.4's
// stock config does not load mod_ssl, so it never says it (fragments on the stock configs: configs/ samples).
// A tree that uses SSL on 2.4 without SSLSessionCache logs AH01873 on 2.4 too, and then nothing is claimed.
const SESSION_CACHE_WARNING = "AH01873";

// A fragment that loads a module its stock config loads already: httpd warns "module X is already loaded,
// skipping" (AH01574) and carries on. 2.2's stock httpd.conf loads every module it has, 2.4's far fewer, so the
// same LoadModule line warns on 2.2 only (recorded: LoadModule cgi_module in a fragment on 2.2.34 and 2.4.68).
// Nothing else changes: the module is loaded on both sides.
const LOADED_AGAIN = "AH01574";
const LOADED_AGAIN_TEXT = /^(?:\[[^\]]*\] )*(?:AH01574: )?module \S+ is already loaded, skipping$/;

export const MODULE_LOADED_AGAIN_RULE: Rule = {
  id: "module-loaded-again",
  seed: [],
  title: "one side warns that a LoadModule line loads a module its stock config loads already (AH01574)",
  severity: "expected",
  recognise: (evidence) => {
    if (evidence.field === "configTest") {
      const without = (value: string | null) => configTestWording((value ?? "").split("\n").filter((line) => !LOADED_AGAIN_TEXT.test(line.replace(/^\S+ /, "")) && !LOADED_AGAIN_TEXT.test(line)).join("\n"));
      const told = (value: string | null) => (value ?? "").split("\n").some((line) => LOADED_AGAIN_TEXT.test(line) || LOADED_AGAIN_TEXT.test(line.replace(/^\S+ /, "")));
      if ((told(evidence.baseline) || told(evidence.candidate)) && without(evidence.baseline) === without(evidence.candidate)) {
        return { summary: "a LoadModule line loads a module that one side's stock httpd.conf loads already: that side warns \"module is already loaded, skipping\" (AH01574)" };
      }
      return null;
    }
    if (evidence.field !== "startupLog") return null;
    const before = lines(evidence.baseline).filter((line) => line !== SESSION_CACHE_WARNING);
    const after = lines(evidence.candidate).filter((line) => line !== SESSION_CACHE_WARNING);
    const onlyBefore = before.filter((line) => !after.includes(line));
    const onlyAfter = after.filter((line) => !before.includes(line));
    const oneSided = [...onlyBefore, ...onlyAfter];
    return oneSided.length > 0 && oneSided.every((line) => line === LOADED_AGAIN)
      ? { summary: `${onlyBefore.length > 0 ? "2.2" : "2.4"} warned "module is already loaded, skipping" (AH01574): a LoadModule line loads a module its stock httpd.conf loads already` }
      : null;
  },
};

export const SSL_SESSION_CACHE_WARNING_RULE: Rule = {
  id: "ssl-session-cache-warning",
  seed: [],
  title: "2.2 warns that mod_ssl has no session cache (AH01873) where 2.4 does not load or does configure mod_ssl",
  severity: "expected",
  // A fragment on the two stock configs: the log line of mod_ssl, which only 2.2's stock config loads.
  stockModule: "ssl_module",
  recognise: (evidence) => {
    if (evidence.field !== "startupLog") return null;
    // A module loaded again is told by MODULE_LOADED_AGAIN_RULE, with or without this line.
    const before = lines(evidence.baseline).filter((line) => line !== LOADED_AGAIN);
    const after = lines(evidence.candidate).filter((line) => line !== LOADED_AGAIN);
    const onlyBefore = before.filter((line) => !after.includes(line));
    const onlyAfter = after.filter((line) => !before.includes(line));
    return onlyAfter.length === 0 && onlyBefore.length > 0 && onlyBefore.every((line) => line === SESSION_CACHE_WARNING)
      ? { summary: "only 2.2 warned \"Init: Session Cache is not configured\" (AH01873): mod_ssl loaded without an SSLSessionCache there, not on 2.4" }
      : null;
  },
};

export const EXPECTED_RULES: readonly Rule[] = [
  CLOCK_RULE,
  CACHE_AGE_RULE,
  VERSION_BANNER_RULE,
  CONFIG_TEST_WORDING_RULE,
  PUBLISHED_PORT_RULE,
  ERROR_DOCUMENT_WORDING_RULE,
  VARY_RULE,
  DEFLATE_VARY_RULE,
  X_PAD_RULE,
  SATISFY_ANY_DENIAL_LOG_RULE,
  ACCEPT_RANGES_RULE,
  EXPIRES_SKEW_RULE,
  AUTOINDEX_MARKUP_RULE,
  LOG_LEVEL_MOVE_RULE,
  SSL_SESSION_CACHE_WARNING_RULE,
  MODULE_LOADED_AGAIN_RULE,
];
