// Which 2.2 message is which 2.4 event. 2.2 lines carry no AH code, so a 2.2 record's `event` comes from this
// table: the AH code 2.4 logs for the same event, or a synthetic id (lower-case words) when 2.4 logs the event
// without a code or not at all. 2.4 records use their own code; a 2.4 line without a code goes through the
// `v24` patterns, which give the same synthetic ids as the 2.2 side.
//
// Sources were read at the git tags 2.2.34 and 2.4.62 of apache/httpd (the versions the recorded fixtures in
// /work/shared/fixtures/real-httpd come from); "file:line" below is at those tags. Patterns match the message
// after the parser removed the prefixes, the AH code and an "(errno)text: " prefix (see splitErrnoPrefix).
import type { ErrorLogDialect } from "./error-log-record.ts";

export interface MessageMapRow {
  /** The event both versions' lines of this row get. */
  event: string;
  /** Matches the 2.2 message; null when 2.2 never logs the event. */
  v22: RegExp | null;
  /** Matches a 2.4 message that carries no AH code (only for events 2.4 logs without one). */
  v24: RegExp | null;
  /** Where 2.4.62 logs the event, or why it does not. */
  source24: string;
  /** Where 2.2.34 logs the event. */
  source22: string;
  note?: string;
}

/** First match wins: the .htaccess rows come before the plain "Invalid command" row, AH01097 before AH01084. */
export const MESSAGE_MAP: readonly MessageMapRow[] = [
  // ---- configuration errors (config test and .htaccess) -------------------------------------------------
  {
    event: "htaccess-invalid-command",
    v22: /^\/\S*: Invalid command '[^']*', perhaps misspelled or defined by a module not included in the server configuration$/,
    v24: /^\/\S*: Invalid command '[^']*', perhaps misspelled or defined by a module not included in the server configuration$/,
    source24: "server/config.c:2045 (ap_parse_htaccess, core:alert, no AH code) with the text of server/config.c:1322",
    source22: "server/config.c:1832 ([alert] \"%s: %s\", filename, errmsg)",
    note: "2.4 logs the .htaccess error without a code, so both sides get this synthetic id.",
  },
  {
    event: "htaccess-not-allowed-here",
    v22: /^\/\S*: .+ not allowed here$/,
    v24: /^\/\S*: .+ not allowed here$/,
    source24: "server/config.c:2045 (no AH code) with the text of server/config.c:882 or server/core.c:2066",
    source22: "server/config.c:1832 with the text of server/config.c:747",
  },
  {
    event: "htaccess-error",
    v22: /^\/\S*\/\.htaccess: /,
    v24: /^\/\S*\/\.htaccess: /,
    source24: "server/config.c:2045 (no AH code)",
    source22: "server/config.c:1832",
    note: "Any other error in a file named .htaccess.",
  },
  {
    event: "invalid-command",
    v22: /^Invalid command '[^']*', perhaps misspelled or defined by a module not included in the server configuration$/,
    v24: /^Invalid command '[^']*', perhaps misspelled or defined by a module not included in the server configuration$/,
    source24: "server/config.c:1322 (returned text, printed without prefix or code after AH00526)",
    source22: "server/config.c:1144 (same text)",
    note: "The second line of a config-test syntax error; the first line is AH00526.",
  },
  {
    event: "AH00526",
    v22: /^Syntax error on line \d+ of .*:$/,
    v24: null,
    source24: "server/config.c:1975 \"Syntax error on line %d of %s:\"",
    source22: "server/config.c:1768 (same text, no code)",
  },
  {
    event: "directive-must-be-on-or-off",
    v22: /^\S+ must be On or Off$/,
    v24: /^\S+ must be On or Off$/,
    source24: "server/config.c:1041 (FLAG directive, no AH code)",
    source22: "server/config.c:892",
    note: "2.4 rejects \"KeepAlive yes\" with this; 2.2 accepts it.",
  },
  {
    event: "syntax-ok",
    v22: /^Syntax OK$/,
    v24: /^Syntax OK$/,
    source24: "server/main.c:735 (APLOG_STARTUP, no AH code)",
    source22: "server/main.c:659",
  },
  {
    event: "AH00548",
    v22: /^NameVirtualHost \S+ has no VirtualHosts$/,
    v24: null,
    source24: "server/vhost.c:276 \"NameVirtualHost has no effect and will be removed in the next release %s:%d\"",
    source22: "server/vhost.c:509 \"NameVirtualHost %s:%u has no VirtualHosts\"",
    note:
      "Not the same condition: 2.2 warns when no <VirtualHost> uses the address, 2.4 warns for every " +
      "NameVirtualHost line (the directive is obsolete). Both are the warning a NameVirtualHost line causes, so " +
      "they are paired: with an unused NameVirtualHost both versions warn and the diff shows one changed line, " +
      "not one vanished and one new. With a used one only 2.4 warns, and the diff shows a new AH00548.",
  },
  {
    event: "AH01574",
    v22: /^module \S+ is already loaded, skipping$/,
    v24: null,
    source24: "modules/core/mod_so.c (load_module: APLOGNO(01574) \"module %s is already loaded, skipping\", warn; in bin/httpd's strings)",
    source22: "modules/mappers/mod_so.c (load_module: \"module %s is already loaded, skipping\", warn)",
    note: "A LoadModule for a module loaded already: a fragment on a stock config that loads it (2.2's loads every module it has).",
  },
  {
    event: "AH00558",
    v22: /^\S+: Could not reliably determine the server's fully qualified domain name, using \S+ for ServerName$/,
    v24: null,
    source24: "server/util.c:2466 (\"... using %s. Set the 'ServerName' directive globally to suppress this message\")",
    source22: "server/util.c:2134 (\"... using %s for ServerName\")",
  },
  // ---- startup ---------------------------------------------------------------------------------------------
  {
    event: "AH00489",
    v22: /^.+ configured -- resuming normal operations$/,
    v24: null,
    source24:
      "server/mpm/event/event.c:3248 AH00489; the same text is AH00163 in server/mpm/prefork/prefork.c:963 and " +
      "AH00292 in server/mpm/worker/worker.c:1810",
    source22: "server/mpm/prefork/prefork.c:1017 (2.2's default MPM)",
    note: "2.2 maps to the event MPM's code (2.4's default); EVENT_FAMILIES pairs it with the prefork/worker codes.",
  },
  {
    event: "AH00490",
    v22: /^Server built: /,
    v24: null,
    source24: "server/mpm/event/event.c:3251 AH00490 (prefork AH00164, worker AH00293)",
    source22: "server/mpm/prefork/prefork.c (info)",
  },
  {
    event: "AH01873",
    v22: /^Init: Session Cache is not configured \[hint: SSLSessionCache\]$/,
    v24: null,
    source24: "modules/ssl/ssl_scache.c:76",
    source22: "modules/ssl/ssl_scache.c:49",
  },
  {
    event: "AH01887",
    v22: /^Init: Initializing \(virtual\) servers for SSL$/,
    v24: null,
    source24: "modules/ssl/ssl_engine_init.c:391",
    source22: "modules/ssl/ssl_engine_init.c",
  },
  {
    event: "AH01876",
    v22: /^mod_ssl\/\S+ compiled against Server: .*, Library: .*$/,
    v24: null,
    source24: "modules/ssl/ssl_engine_init.c:184",
    source22: "modules/ssl/ssl_engine_init.c",
  },
  {
    event: "ssl-seeding-prng",
    v22: /^(?:Init: )?Seeding PRNG with \d+ bytes of entropy$/,
    v24: /^(?:Init: )?Seeding PRNG with \d+ bytes of entropy$/,
    source24: "modules/ssl/ssl_engine_rand.c:125 (trace2, no AH code)",
    source22: "modules/ssl/ssl_engine_rand.c (info)",
  },
  {
    event: "AH01757",
    v22: /^Digest: generating secret for digest authentication \.\.\.$/,
    v24: null,
    source24: "modules/aaa/mod_auth_digest.c:377 (debug, \"generating secret for digest authentication\")",
    source22: "modules/aaa/mod_auth_digest.c:229 (notice)",
    note: "2.2's following \"Digest: done\" (mod_auth_digest.c:246) has no 2.4 counterpart and stays unmapped.",
  },
  {
    event: "mpm-child-started",
    v22: null,
    v24: /^Child \d+ started: pid \d+, gen \d+, active \d+\/\d+, total \d+\/\d+\/\d+$/,
    source24: "server/mpm/event/event.c make_child (mpm_event:debug, no AH code; the real 2.4.68 logged it at event.c(751))",
    source22: "not logged: 2.2's MPMs log no line when they start a child",
    note: "The parent starts a child when the load asks for one, so the line falls in whichever request's window was open: at LogLevel debug a cache request of the catalogue had it in one run and not in the next.",
  },
  // ---- access control and authentication ------------------------------------------------------------------
  {
    event: "AH01797",
    v22: /^client denied by server configuration: /,
    v24: null,
    source24:
      "modules/aaa/mod_access_compat.c:350 AH01797 (Order/Allow/Deny); the same text is AH01630 in " +
      "modules/aaa/mod_authz_core.c:879 (Require)",
    source22: "modules/aaa/mod_authz_host.c:311 (Order/Allow/Deny, the module 2.4's access_compat replaces)",
    note: "See EVENT_FAMILIES: AH01797 and AH01630 are one \"client denied\" family.",
  },
  {
    event: "authtype-not-set",
    v22: /^configuration error: {2}couldn't perform authentication\. AuthType not set!: /,
    v24: null,
    source24:
      "none: 2.4's decl_die (server/request.c:115, AH00025) is never called with this phase; for the same " +
      "configuration (Require without AuthType) 2.4 denies with AH01630 and a 403 instead of a 500",
    source22: "server/request.c:202 (decl_die, [crit], two spaces after \"error:\")",
  },
  {
    event: "AH00025",
    v22: /^configuration error: {2}couldn't check (?:user\. {2}Check your authn provider!|access\. {2}Check your 'Require' directive|access): /,
    v24: null,
    source24:
      "server/request.c:115 decl_die \"configuration error:  couldn't %s: %s\" with phase \"check user\", " +
      "\"check access\" or \"check authorization\" (server/request.c:343 and following)",
    source22: "server/request.c:88 decl_die, phases at server/request.c:194-234",
    note:
      "Not AH01627 (\"AuthType configured with no corresponding authorization directives\", " +
      "mod_authz_core.c:836): the 2.2 line is the same decl_die call as 2.4's AH00025, only the phase text differs.",
  },
  {
    event: "AH01618",
    v22: /^user .* not found: /,
    v24: null,
    source24: "modules/aaa/mod_auth_basic.c:410",
    source22: "modules/aaa/mod_auth_basic.c:264",
  },
  {
    event: "AH01617",
    v22: /^user .*: authentication failure for ".*": Password Mismatch$/,
    v24: null,
    source24: "modules/aaa/mod_auth_basic.c:403",
    source22: "modules/aaa/mod_auth_basic.c:257",
  },
  {
    event: "AH01631",
    v22: /^access to .* failed, reason: user '.*' does not meet 'require'ments for user\/valid-user to be allowed access$/,
    v24: null,
    source24: "modules/aaa/mod_authz_core.c:887 \"user %s: authorization failure for \\\"%s\\\": \" (an authenticated user no Require grants)",
    source22: "modules/aaa/mod_authz_user.c:106",
  },
  {
    event: "AH01631",
    v22: /^Authorization of user .* to access .* failed, reason: /,
    v24: null,
    source24: "modules/aaa/mod_authz_core.c:887 (2.4's group provider denies; authz_core logs the failure)",
    source22: "modules/aaa/mod_authz_groupfile.c:264",
  },
  {
    event: "AH01790",
    v22: /^Digest: user `.*' in realm `.*' not found: /,
    v24: null,
    source24: "modules/aaa/mod_auth_digest.c:1772",
    source22: "modules/aaa/mod_auth_digest.c:1765",
  },
  {
    event: "AH01794",
    v22: /^Digest: user .*: password mismatch: /,
    v24: null,
    source24: "modules/aaa/mod_auth_digest.c:1835 (1800: the same text as AH01792, for MD5-sess)",
    source22: "modules/aaa/mod_auth_digest.c:1826 (1793 for MD5-sess)",
  },
  // ---- content handling -----------------------------------------------------------------------------------
  {
    event: "AH00128",
    v22: /^File does not exist: /,
    v24: null,
    source24:
      "server/core.c:4920 AH00128 at level info (2.2 logs it at error, so at LogLevel warn only 2.2 shows it); " +
      "the same text is AH00130 (core.c:4939), AH00652 (mod_actions.c:193) and AH01233 (mod_asis.c:47)",
    source22: "server/core.c:3792 ([error])",
  },
  {
    event: "AH01276",
    v22: /^Directory index forbidden by Options directive: /,
    v24: null,
    source24:
      "modules/generators/mod_autoindex.c:2326 \"Cannot serve directory %s: No matching DirectoryIndex (%s) " +
      "found, and server-generated directory index forbidden by Options directive\"",
    source22: "modules/generators/mod_autoindex.c:2293",
  },
  {
    event: "AH00687",
    v22: /^Negotiation: discovered file\(s\) matching request: .* \(None could be negotiated\)\.$/,
    v24: null,
    source24: "modules/mappers/mod_negotiation.c:1286",
    source22: "modules/mappers/mod_negotiation.c:1295",
  },
  // ---- proxy and SSL proxy ----------------------------------------------------------------------------------
  {
    event: "AH01097",
    v22: /^proxy: pass request body failed to \S+ \(.*\) from \S+ \(.*\)$/,
    v24: null,
    source24: "modules/proxy/mod_proxy_http.c:698",
    source22: "modules/proxy/mod_proxy_http.c:1160",
  },
  {
    event: "AH01084",
    v22: /^proxy: pass request body failed to \S+ \(.*\)$/,
    v24: null,
    source24: "modules/proxy/proxy_util.c:5082",
    source22: "modules/proxy/mod_proxy_http.c:274",
    note: "2.2 logs it with the server, not the request: no [client] part.",
  },
  {
    event: "AH00898",
    v22: /^proxy: .* returned by \S+/,
    v24: null,
    source24: "modules/proxy/proxy_util.c:415 ap_proxyerror \"%s returned by %s\"",
    source22: "modules/proxy/proxy_util.c:525 \"proxy: %s returned by %s\"",
  },
  {
    event: "AH02004",
    v22: /^SSL Proxy: Peer certificate is expired$/,
    v24: null,
    source24: "modules/ssl/ssl_engine_io.c:1326 (info; 2.4 then fails the handshake)",
    source22: "modules/ssl/ssl_engine_io.c:1122 (info; logged only when 2.2 checks the peer, and 2.2 carries on)",
  },
  {
    event: "AH02003",
    v22: /^SSL Proxy connect failed$/,
    v24: null,
    source24: "modules/ssl/ssl_engine_io.c:1308",
    source22: "modules/ssl/ssl_engine_io.c",
  },
  {
    event: "AH02039",
    v22: /^Certificate Verification: Error \(\d+\): /,
    v24: null,
    source24: "modules/ssl/ssl_engine_kernel.c:1868 AH02039 (error); at LogLevel info the same text is AH02276 (:1863)",
    source22: "modules/ssl/ssl_engine_kernel.c:1324",
  },
  {
    event: "AH01964",
    v22: /^Connection to child \d+ established \(server .*\)$/,
    v24: null,
    source24: "modules/ssl/mod_ssl.c:680",
    source22: "modules/ssl/mod_ssl.c",
  },
  {
    event: "AH01998",
    v22: /^Connection closed to child \d+ with abortive shutdown \(server .*\)$/,
    v24: null,
    source24: "modules/ssl/ssl_engine_io.c:1112",
    source22: "modules/ssl/ssl_engine_io.c",
  },
  {
    event: "AH02812",
    v22: /^attempt to invoke directory as script: /,
    v24: null,
    source24: "modules/generators/mod_cgi.c (log_scripterror, APLOGNO(02812): seen on 2.4.68 for GET /cgi-bin/); mod_cgid.c logs it as AH01265",
    source22: "modules/generators/mod_cgi.c (cgi_handler: log_scripterror for a directory, 403)",
  },
  {
    event: "AH02809",
    v22: /^Options ExecCGI is off in this directory: /,
    v24: null,
    source24:
      "modules/generators/mod_cgi.c (log_scripterror, APLOGNO(02809): seen on 2.4.68 as \"stderr from PATH: Options " +
      "ExecCGI is off in this directory\", 403); mod_cgid.c logs it as AH01262 (its module file's strings)",
    source22: "modules/generators/mod_cgi.c (cgi_handler: log_scripterror \"Options ExecCGI is off in this directory\", 403)",
    note: "A handler's refusal after access control let the request in, not an access decision.",
  },
  {
    event: "AH00037",
    v22: /^Symbolic link not allowed or link target not accessible: /,
    v24: null,
    source24: "server/request.c (resolve_symlink refused: AH00037 in a directory walk, AH00032 for the file; both in bin/httpd's strings)",
    source22: "server/request.c (\"Symbolic link not allowed or link target not accessible: %s\", 403)",
  },
  {
    event: "ssl-library-error",
    v22: /^SSL Library Error: /,
    v24: /^SSL Library Error: /,
    source24: "modules/ssl/ssl_engine_log.c:111 (no AH code)",
    source22: "modules/ssl/ssl_engine_log.c",
  },
];

export interface EventFamily {
  family: string;
  events: readonly string[];
  why: string;
}

/** Events that differ in code but are one event for the comparison. */
export const EVENT_FAMILIES: readonly EventFamily[] = [
  {
    family: "client-denied",
    events: ["AH01797", "AH01630"],
    why:
      "Both log \"client denied by server configuration: PATH\" and answer 403. 2.4 logs the code of the module " +
      "that made the decision: mod_access_compat (Order/Allow/Deny, AH01797) or mod_authz_core (Require, AH01630). " +
      "A 2.2 configuration run on 2.4 can get either, or both for one request (recorded in case b4), for the same " +
      "denial 2.2 logs once from mod_authz_host.",
  },
  {
    family: "startup-complete",
    events: ["AH00489", "AH00163", "AH00292"],
    why: "\"configured -- resuming normal operations\": the code depends on the MPM (event, prefork, worker).",
  },
  {
    family: "server-built",
    events: ["AH00490", "AH00164", "AH00293"],
    why: "\"Server built: ...\": the code depends on the MPM (event, prefork, worker).",
  },
  {
    family: "file-does-not-exist",
    events: ["AH00128", "AH00130", "AH00652", "AH01233"],
    why: "\"File does not exist: PATH\" from core (plain, and path_info rejected), mod_actions and mod_asis.",
  },
  {
    family: "cgi-directory-as-script",
    events: ["AH02812", "AH01265"],
    why: "\"attempt to invoke directory as script: PATH\" and a 403: mod_cgi's code (AH02812) or mod_cgid's (AH01265).",
  },
  {
    family: "cgi-execcgi-off",
    events: ["AH02809", "AH01262"],
    why: "\"Options ExecCGI is off in this directory\" and a 403: mod_cgi's code (AH02809) or mod_cgid's (AH01262).",
  },
  {
    family: "symlink-refused",
    events: ["AH00037", "AH00032"],
    why: "\"Symbolic link not allowed or link target not accessible: PATH\" and a 403: the directory walk's code (AH00037) or the file's (AH00032).",
  },
  {
    family: "certificate-verification-error",
    events: ["AH02039", "AH02276"],
    why: "\"Certificate Verification: Error (N): text\": 2.4 picks the code by the connection's log level.",
  },
];

/** The families of a 403 given after access control let the request in: a handler or Options refused it (a CGI
 * directory, ExecCGI off, a forbidden directory index, a refused symlink). Such a 403 is no access decision. */
export const HANDLER_REFUSALS: ReadonlySet<string> = new Set(["cgi-directory-as-script", "cgi-execcgi-off", "AH01276", "symlink-refused"]);

const FAMILY_OF = new Map<string, string>(
  EVENT_FAMILIES.flatMap((family) => family.events.map((event) => [event, family.family] as const)),
);

/** The family id of an event, or the event itself when it has no family; null for null. */
export function eventFamily(event: string | null): string | null {
  if (event === null) return null;
  return FAMILY_OF.get(event) ?? event;
}

/** The row that maps a message, for reports that want to cite the source. */
export function findMessageMapRow(message: string, dialect: ErrorLogDialect): MessageMapRow | null {
  for (const row of MESSAGE_MAP) {
    const pattern = dialect === "2.2" ? row.v22 : row.v24;
    if (pattern?.test(message)) return row;
  }
  return null;
}

/** The event of a parsed line: its AH code when it has one, else the mapped id of its message (errno prefix
 * already removed), else null. */
export function eventFor(code: string | null, message: string, dialect: ErrorLogDialect): string | null {
  if (code !== null) return code;
  return findMessageMapRow(message, dialect)?.event ?? null;
}
