// Replaces the parts of an error-log message that change from run to run, so that two runs of the same request
// (and the 2.2 and 2.4 lines of one event) compare equal. Pure: no I/O, no clock.
//
// Replaced:
//   times        ctime ("Sat Nov 21 22:41:17 2026", with or without .usec), HTTP dates, CLF dates, ISO 8601,
//                build stamps ("Nov 21 2026 22:37:16"), bare hh:mm:ss            -> <time>
//   IPv6         any IPv6 address except the loopback ::1                        -> <ip>
//   IPv4         any IPv4 address except 127.0.0.1                               -> <ip>
//                (container addresses differ per network; the loopback says "the request came from inside")
//   ports        ephemeral ports (>= 32768) after an address                     -> <port>
//                (443 in "failed to 172.19.0.2:443" names the backend's port and stays)
//   pids/tids    "pid 12", "tid 140", "child pid 12", "[pid 1:tid 1]"            -> pid <pid>, tid <tid>
//   conn. ids    "child 3" in mod_ssl's "Connection to child 3 established"       -> child <n>
//   pointers     0x followed by 6 or more hex digits                             -> <hex>
//   temp names   mktemp-style names: "...tmp" + 6 random characters with a digit or capital letter
//                ("/tmp/htpasswd.tmp.aB3dEf", "aptmpX1y2Z3")                     -> ...tmp<tmp>
//   durations    a number with ms/us/µs, or a fractional number with s/sec/seconds -> <duration>
//                (whole seconds such as "Timeout of 300 seconds" are configuration, not measurement, and stay)
// Kept: filesystem paths and URIs (AH01797 names the file path; a different path is a real difference),
// status codes, errno numbers, module and directive names, versions ("OpenSSL/1.0.2s").
import { isIPv6 } from "node:net";

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MON = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const HMS = "\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?";

const TIME_PATTERNS: readonly RegExp[] = [
  // ctime, as in the log prefix and in some messages: "Sat Nov 21 22:41:24.568687 2026"
  new RegExp(`\\b${DAY} ${MON} [ \\d]?\\d ${HMS} \\d{4}\\b`, "g"),
  // HTTP date: "Sat, 21 Nov 2026 22:45:47 GMT"
  new RegExp(`\\b${DAY}, \\d{1,2} ${MON} \\d{4} ${HMS}(?: GMT)?`, "g"),
  // CLF: "21/Nov/2026:22:45:47 +0000"
  new RegExp(`\\b\\d{1,2}/${MON}/\\d{4}:${HMS}(?: [+-]\\d{4})?`, "g"),
  // ISO 8601: "2026-11-21T22:41:17.123Z", "2026-11-21 22:41:17+01:00"
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?/g,
  // __DATE__ __TIME__, as in "Server built: Nov 21 2026 22:37:16"
  new RegExp(`\\b${MON} [ \\d]?\\d \\d{4} ${HMS}`, "g"),
  // bare clock time "22:41:17" (checked for ranges so "1:2:3"-like text stays)
  /(?<![\w:.])(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?![\w:])/g,
];

// A run of hex digits, colons and dots with at least two colons; checked with isIPv6 before replacing.
const IPV6_CANDIDATE = /(?<![\w:.])[0-9A-Fa-f]*(?::[0-9A-Fa-f.]*){2,}/g;
const IPV4 = /(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w]|\.\d)/g;
const EPHEMERAL_PORT = /(<ip>|127\.0\.0\.1|\]|localhost):(\d{5})(?!\d)/g;
const FIRST_EPHEMERAL_PORT = 32768;

function replaceIPv6(text: string): string {
  return text.replace(IPV6_CANDIDATE, (candidate) => {
    // The run may have picked up a sentence's full stop or a following ": ".
    let address = candidate;
    while (address.length > 0 && !isIPv6(address) && /[.:]$/.test(address)) address = address.slice(0, -1);
    if (!isIPv6(address) || address === "::1") return candidate;
    return `<ip>${candidate.slice(address.length)}`;
  });
}

function replaceIPv4(text: string): string {
  return text.replace(IPV4, (match, a: string, b: string, c: string, d: string) => {
    if ([a, b, c, d].some((octet) => Number(octet) > 255)) return match;
    return match === "127.0.0.1" ? match : "<ip>";
  });
}

export function normalizeMessage(message: string): string {
  let text = message;
  for (const pattern of TIME_PATTERNS) text = text.replace(pattern, "<time>");
  text = replaceIPv6(text);
  text = replaceIPv4(text);
  text = text.replace(EPHEMERAL_PORT, (match, host: string, port: string) =>
    Number(port) >= FIRST_EPHEMERAL_PORT ? `${host}:<port>` : match,
  );
  text = text.replace(/\bpid([ =:])\d+/g, "pid$1<pid>");
  text = text.replace(/\btid([ =:])\d+/g, "tid$1<tid>");
  text = text.replace(/\b(Connection (?:to|closed to) child) \d+/g, "$1 <n>");
  text = text.replace(/\b0x[0-9A-Fa-f]{6,}\b/g, "<hex>");
  text = text.replace(/(tmp[._-]?)([A-Za-z0-9]{6})(?![A-Za-z0-9])/g, (match, stem: string, random: string) =>
    /[0-9A-Z]/.test(random) ? `${stem}<tmp>` : match,
  );
  text = text.replace(/(?<![\w./])\d+(?:\.\d+)?\s?(?:ms|us|µs)(?![\w])/g, "<duration>");
  text = text.replace(/(?<![\w./])\d+\.\d+\s?(?:s|sec|secs|seconds?)(?![\w])/g, "<duration>");
  return text;
}
