// What each key of the format expects, with an example, for error messages. Looked up by the longest matching
// suffix of a path pattern: ["requests", 0, "expect", "2.4", "status"] → "requests[].expect.*.status", then
// "expect.*.status", "*.status", "status".
import type { PathSegment } from "./yaml-locator.ts";

export interface KeyHint {
  expected: string;
  example: string;
}

const VERSION_KEYS = new Set(["2.2", "2.4", "both"]);
const PER_VERSION_PARENTS = new Set(["expect", "guide", "modules", "omitModules", "config", "prepare"]);
const TEXT_MATCHER: KeyHint = {
  expected: 'a text matcher: "substring", "/regex/flags", { equals: "..." }, { contains: "..." } or { matches: "...", flags: "i" }',
  example: 'message: "/client denied .*server-status/"',
};
const LOG_LINE: KeyHint = {
  expected: "an error-log line matcher with any of code, level, module, message",
  example: 'errorLog: [{ code: AH01797, module: authz_core, level: error, message: "client denied" }]',
};
const RESPONSE: KeyHint = {
  expected: "response expectations (status, headers, body, errorLog, noErrorLog, errorLogEmpty, transportError, connectionReused, exitCode, stdout)",
  example: '"2.4": { status: 403, errorLog: [{ code: AH01797 }] }',
};
const SERVER_EXPECTATION: KeyHint = {
  expected: "server expectations (configTest, started, startupLog, noStartupLog)",
  example: '"2.4": { configTest: { ok: false, messages: ["Invalid command \'Order\'"] }, started: false }',
};
const NAME = "lower-case letters, digits and dashes, starting with a letter";
const SEED_ID: KeyHint = { expected: "a seed row id from spec/seed-rows.tsv (letter + number)", example: "seed: [A6, T1]" };
const FILES: KeyHint = {
  expected: "a map of path (relative to the root) to content, or to { content, mode }",
  example: 'files:\n  htdocs/index.html: "<h1>It works</h1>"\n  cgi-bin/hello: { content: "#!/bin/sh\\necho hi", mode: "0755" }',
};
const FILE: KeyHint = {
  expected: 'the content as a string, or { content: "...", mode: "0755" }',
  example: 'htdocs/index.html: "<h1>It works</h1>"',
};

export const KEY_HINTS: Readonly<Record<string, KeyHint>> = {
  "": { expected: "a map with at least id and title", example: "id: my-scenario\ntitle: GET / answers 200\nrequests:\n  - { name: home, path: / }" },
  id: { expected: "lower-case letters, digits and single dashes", example: "id: server-status-directory-deny" },
  title: { expected: "a one-line description", example: "title: GET /server-status behind a directory deny" },
  seed: { expected: "a list of seed row ids from spec/seed-rows.tsv", example: "seed: [A6, T1]" },
  "seed[]": SEED_ID,
  guide: {
    expected: 'what the upgrade guide claims: { claim, notes, "2.2", "2.4", both }',
    example: 'guide:\n  claim: "2.4 answers 403 and logs AH01797"\n  "2.4": { configTest: ok }',
  },
  "guide.claim": { expected: "the guide's claim in words", example: 'claim: "2.4 answers 403 and logs AH01797"' },
  "guide.notes": { expected: "a list of strings", example: 'notes: ["the real 2.4 logs AH01630 instead"]' },
  "guide.*": SERVER_EXPECTATION,
  server: { expected: "a map (base, modules, omitModules, logLevel, config, files, prepare, tls)", example: "server:\n  modules: [status]\n  config: |\n    <Location /server-status>\n      SetHandler server-status\n    </Location>" },
  "server.base": { expected: "minimal, stock or none", example: "base: minimal" },
  "server.modules": { expected: 'a list of module names, or one list per version { "2.2": [...], "2.4": [...] }', example: 'modules: [status, access_compat]' },
  "modules[]": { expected: "a logical module name: lower-case letters, digits, underscores", example: "modules: [status, access_compat]" },
  "modules.*": { expected: "a list of module names", example: '"2.4": [access_compat]' },
  "modules.*[]": { expected: "a logical module name: lower-case letters, digits, underscores", example: '"2.4": [access_compat]' },
  "server.omitModules": { expected: 'a list of base module names to leave out, or one list per version', example: "omitModules: [unixd]" },
  "omitModules[]": { expected: "a logical module name: lower-case letters, digits, underscores", example: "omitModules: [unixd]" },
  "omitModules.*": { expected: "a list of module names", example: '"2.4": [unixd]' },
  "omitModules.*[]": { expected: "a logical module name: lower-case letters, digits, underscores", example: '"2.4": [unixd]' },
  "server.logLevel": { expected: "an Apache LogLevel: a level, then optional module:level pairs", example: "logLevel: info ssl:warn" },
  "server.config": { expected: 'a string (use a | block), or one per version { "2.2": ..., "2.4": ... }', example: 'config: |\n  <Directory "{{server.docroot}}">\n    Require all granted\n  </Directory>' },
  "config.*": { expected: "a string (use a | block)", example: '"2.4": |\n  Require all granted' },
  files: FILES,
  "files.<path>": FILE,
  "files.<path>.content": { expected: "a string", example: 'content: "#!/bin/sh\\necho hi"' },
  mode: { expected: 'an octal file mode, quoted: "0755" (or 0o755)', example: 'mode: "0755"' },
  "server.prepare": { expected: 'a list of shell commands, or one list per version { "2.2": [...], "2.4": [...] }', example: 'prepare: ["htpasswd -bc conf/passwd alice secret"]' },
  "prepare[]": { expected: "a shell command using httpd's tools and POSIX sh utilities only", example: 'prepare: ["htpasswd -bc conf/passwd alice secret"]' },
  "prepare.*": { expected: "a list of shell commands", example: '"2.4": ["htdbm -bc conf/users.dbm alice secret"]' },
  "prepare.*[]": { expected: "a shell command using httpd's tools and POSIX sh utilities only", example: '"2.4": ["htdbm -bc conf/users.dbm alice secret"]' },
  "server.tls": { expected: "true, false, or { certificate, clientCa, crl, subject }", example: "tls: { certificate: valid, clientCa: true, crl: false }" },
  "tls.subject": { expected: "the server certificate's subject in OpenSSL's form: /type=value/type=value...", example: 'subject: "/C=DE/O=Example, Inc./OU=Web/CN=server.test"' },
  certificate: { expected: "valid, expired, not-yet-valid, wrong-name or self-signed", example: "certificate: expired" },
  clientCa: { expected: "true or false", example: "clientCa: true" },
  crl: { expected: "true or false", example: "crl: true" },
  backends: { expected: "a list of backends", example: "backends:\n  - { name: backend, kind: https-origin, certificate: expired }" },
  "backends[]": { expected: "a backend: { name, kind, certificate, files }", example: "- { name: backend, kind: https-origin, certificate: expired }" },
  "backends[].name": { expected: NAME, example: "name: backend" },
  "backends[].kind": { expected: "http-origin, https-origin, scgi-origin or forward-proxy-target", example: "kind: https-origin" },
  clients: { expected: "a list of clients", example: "clients:\n  - { name: allowed }\n  - { name: denied, hostname: denied.test }" },
  "clients[]": { expected: "a client: { name, hostname }", example: "- { name: denied, hostname: denied.test }" },
  "clients[].name": { expected: `${NAME}; not "host"`, example: "name: allowed" },
  "clients[].hostname": { expected: "a DNS name", example: "hostname: denied.test" },
  requests: { expected: "a list of requests", example: "requests:\n  - { name: home, path: / }" },
  "requests[]": { expected: "a request: name, then path (http), raw or exec", example: "- { name: home, path: /, expect: { both: { status: 200 } } }" },
  "requests[].name": { expected: "a unique name: letters, digits, dots, dashes, underscores", example: "name: server-status" },
  "requests[].client": { expected: "host, or the name of a client under clients:", example: "client: allowed" },
  "requests[].method": { expected: "an HTTP method", example: "method: POST" },
  "requests[].path": { expected: "the request target", example: "path: /server-status?auto" },
  "requests[].host": { expected: "a Host header value (also the TLS SNI name)", example: "host: www.example.com" },
  "requests[].headers": { expected: 'an ordered list of "Name: value" strings (duplicates allowed)', example: 'headers: ["Accept-Encoding: gzip", "X-Dup: 1", "X-Dup: 2"]' },
  "requests[].headers[]": { expected: '"Name: value"', example: 'headers: ["Accept-Encoding: gzip"]' },
  "requests[].body": { expected: "a string", example: 'body: "a=1&b=2"' },
  "requests[].auth": { expected: "{ user, password }", example: "auth: { user: alice, password: secret }" },
  user: { expected: "a string", example: "auth: { user: alice, password: secret }" },
  password: { expected: "a string (quote numbers)", example: 'auth: { user: alice, password: "1234" }' },
  "requests[].tls": { expected: "true or false", example: "tls: true" },
  "requests[].clientCertificate": { expected: "valid or revoked", example: "clientCertificate: valid" },
  "requests[].http": { expected: '"1.1" or "1.0"', example: 'http: "1.0"' },
  "requests[].raw": { expected: "the bytes to send, as a double-quoted string", example: 'raw: "GET / HTTP/1.0\\r\\n\\r\\n"' },
  "requests[].trickleMs": { expected: "milliseconds between bytes, 1 to 60000", example: "trickleMs: 500" },
  "requests[].exec": { expected: "a shell command run inside the server container", example: 'exec: "htpasswd -nb user pass"' },
  "requests[].keepAlive": { expected: "how many requests to send on one connection, 1 to 100", example: "keepAlive: 2" },
  "requests[].repeat": { expected: "true or false", example: "repeat: false" },
  "requests[].timeoutMs": { expected: "milliseconds, 1 to 600000", example: "timeoutMs: 30000" },
  "requests[].expect": { expected: 'a map of "2.2", "2.4" or both to response expectations', example: 'expect:\n  "2.2": { status: 200 }\n  "2.4": { status: 403 }' },
  "requests[].guide": { expected: 'a map of "2.2", "2.4" or both to what the guide claims', example: 'guide: { "2.4": { status: 502 } }' },
  "requests[].expect.*": RESPONSE,
  "requests[].guide.*": RESPONSE,
  status: { expected: "an HTTP status code, 100 to 599", example: "status: 403" },
  "*.headers": { expected: "a map of header name to text matcher, or { absent: true }", example: 'headers: { ETag: "/^\\"[0-9a-f-]+\\"$/", Content-Encoding: { absent: true } }' },
  "*.headers.<name>": { expected: `${TEXT_MATCHER.expected}, or { absent: true }`, example: "Content-Encoding: { absent: true }" },
  absent: { expected: "true or false", example: "Content-Encoding: { absent: true }" },
  body: { ...TEXT_MATCHER, example: 'body: { contains: "It works" }' },
  errorLog: { expected: "a list of error-log line matchers", example: LOG_LINE.example },
  noErrorLog: { expected: "a list of error-log line matchers", example: "noErrorLog: [{ code: AH01630 }]" },
  startupLog: { expected: "a list of error-log line matchers", example: 'startupLog: [{ message: "Ignoring deprecated use of DefaultType" }]' },
  noStartupLog: { expected: "a list of error-log line matchers", example: "noStartupLog: [{ level: error }]" },
  "errorLog[]": LOG_LINE,
  "noErrorLog[]": LOG_LINE,
  "startupLog[]": LOG_LINE,
  "noStartupLog[]": LOG_LINE,
  code: { expected: "an error code: AH and five digits", example: "code: AH01797" },
  level: { expected: "emerg, alert, crit, error, warn, notice, info, debug, trace1 … trace8", example: "level: error" },
  module: { expected: "a module name as the log writes it (lower case)", example: "module: authz_core" },
  message: TEXT_MATCHER,
  errorLogEmpty: { expected: "true or false", example: "errorLogEmpty: true" },
  transportError: { ...TEXT_MATCHER, example: "transportError: ECONNRESET" },
  connectionReused: { expected: "true or false", example: "connectionReused: true" },
  exitCode: { expected: "an exit status, 0 to 255", example: "exitCode: 0" },
  stdout: { ...TEXT_MATCHER, example: 'stdout: "/\\\\$apr1\\\\$/"' },
  equals: { expected: "a string", example: 'body: { equals: "hello\\n" }' },
  contains: { expected: "a string", example: 'body: { contains: "hello" }' },
  matches: { expected: "a regular expression, without slashes", example: 'body: { matches: "^hello", flags: "i" }' },
  flags: { expected: "regular expression flags from d, i, m, s, u, v", example: 'flags: "i"' },
  expect: { expected: 'a map of "2.2", "2.4" or both to server expectations', example: 'expect:\n  "2.2": { configTest: ok }\n  "2.4": { configTest: failed }' },
  "expect.*": SERVER_EXPECTATION,
  configTest: { expected: "ok, failed, or { ok, messages }", example: "configTest: { ok: false, messages: [\"Invalid command 'Order'\"] }" },
  "configTest.ok": { expected: "true or false", example: "configTest: { ok: false }" },
  "configTest.messages": { expected: "a list of text matchers", example: "messages: [\"Invalid command 'Order'\"]" },
  "configTest.messages[]": { ...TEXT_MATCHER, example: "messages: [\"Invalid command 'Order'\"]" },
  started: { expected: "true or false", example: "started: false" },
  predicted: { expected: "a list of predicted differences", example: "predicted:\n  - { field: status, request: status, seed: [D5] }" },
  "predicted[]": { expected: "{ field, request, seed }", example: "- { field: status, request: status, seed: [D5] }" },
  "predicted[].field": {
    expected: "per request: status, body, errorLog, outcome (or transport), exec, header:<Name>; per server: configTest, started, startupLog, missingModules",
    example: "field: header:ETag",
  },
  "predicted[].request": { expected: "the name of a request of this scenario", example: "request: status" },
  "predicted[].seed": { expected: "a non-empty list of seed row ids", example: "seed: [D5]" },
  "predicted[].seed[]": SEED_ID,
  ignore: { expected: "a list of ignore rules", example: 'ignore:\n  - { field: "header:Server", reason: "version banner" }' },
  "ignore[]": { expected: "{ field, reason }", example: '- { field: "header:Server", reason: "version banner" }' },
  "ignore[].field": { expected: "status, body, errorLog, outcome (or transport), exec or header:<Name>", example: 'field: "header:Server"' },
  "ignore[].reason": { expected: "why the difference does not matter", example: 'reason: "version banner"' },
};

/** "requests[].expect.*.status" for ["requests", 0, "expect", "2.4", "status"]. */
export function pathPattern(path: readonly PathSegment[]): string {
  const parts: string[] = [];
  let previous: PathSegment | undefined;
  for (const segment of path) {
    if (typeof segment === "number") {
      parts.push(`${parts.pop() ?? ""}[]`);
    } else if (typeof previous === "string" && PER_VERSION_PARENTS.has(previous) && VERSION_KEYS.has(segment)) {
      parts.push("*");
    } else if (previous === "files") {
      parts.push("<path>");
    } else if (previous === "headers") {
      parts.push("<name>");
    } else {
      parts.push(segment);
    }
    previous = segment;
  }
  return parts.join(".");
}

export function keyHint(path: readonly PathSegment[]): KeyHint | undefined {
  const parts = pathPattern(path).split(".");
  for (let start = 0; start < parts.length; start += 1) {
    const hint = KEY_HINTS[parts.slice(start).join(".")];
    if (hint !== undefined) return hint;
  }
  return path.length === 0 ? KEY_HINTS[""] : undefined;
}
