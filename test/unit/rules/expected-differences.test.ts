import { describe, expect, it } from "vitest";
import {
  ACCEPT_RANGES_RULE,
  AUTOINDEX_MARKUP_RULE,
  CACHE_AGE_RULE,
  CLOCK_RULE,
  CONFIG_TEST_WORDING_RULE,
  DEFLATE_VARY_RULE,
  ERROR_DOCUMENT_WORDING_RULE,
  EXPECTED_RULES,
  EXPIRES_SKEW_RULE,
  JUDGED_DIFFERENCES,
  LOG_LEVEL_MOVE_RULE,
  MODULE_LOADED_AGAIN_RULE,
  PUBLISHED_PORT_RULE,
  SATISFY_ANY_DENIAL_LOG_RULE,
  SSL_SESSION_CACHE_WARNING_RULE,
  VARY_RULE,
  VERSION_BANNER_RULE,
  X_PAD_RULE,
} from "../../../harness/rules/expected-differences.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import { evidence } from "./rule-harness.ts";

describe("the expected rules", () => {
  it("are all severity expected with a recognise face and no detect face", () => {
    expect(EXPECTED_RULES.map((rule) => [rule.severity, typeof rule.recognise, rule.detect])).toEqual(EXPECTED_RULES.map(() => ["expected", "function", undefined]));
  });

  it("give the judge its field differences, the ETag one credited to D3, the clock's as noise", () => {
    expect(JUDGED_DIFFERENCES.map((difference) => [difference.id, difference.seed])).toEqual([
      ["clock", []],
      ["cache-age", []],
      ["version-banner", []],
      ["etag-without-inode", ["D3"]],
      ["config-test-wording", []],
      ["published-port", []],
      ["error-document-wording", []],
      // Expires and max-age from each request's own time: the clock, whether a run shows them or not.
      ["expires-skew", []],
      ["expires-skew", []],
    ]);
  });

  it("claim the Date and Server headers whatever their values, and no other header", () => {
    expect(CLOCK_RULE.recognise!(evidence({ field: "header:date", baseline: "Sat, 21 Nov 2026 22:45:47 GMT", candidate: "Sat, 21 Nov 2026 22:45:50 GMT" }))).not.toBeNull();
    expect(VERSION_BANNER_RULE.recognise!(evidence({ field: "header:server", baseline: "Apache/2.2.34 (Unix)", candidate: null }))).not.toBeNull();
    expect(CLOCK_RULE.recognise!(evidence({ field: "header:expires", baseline: "a", candidate: "b" }))).toBeNull();
  });

  it("claim AH00558's wording on 2.4 against 2.2's, but not a config test that gained a message", () => {
    const old = "ok\nhttpd: Could not reliably determine the server's fully qualified domain name, using 172.18.0.3 for ServerName\nSyntax OK";
    const next = "ok\nAH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 172.18.0.4. Set the 'ServerName' directive globally to suppress this message\nSyntax OK";
    const server = { request: null, status: { baseline: null, candidate: null } };
    expect(CONFIG_TEST_WORDING_RULE.recognise!(evidence({ field: "configTest", baseline: old, candidate: next, ...server }))).not.toBeNull();
    expect(CONFIG_TEST_WORDING_RULE.recognise!(evidence({ field: "configTest", baseline: old, candidate: next.replace("Syntax OK", "AH00117: x\nSyntax OK"), ...server }))).toBeNull();
  });

  it("claim a redirect to each side's own port and a reworded error document of the same status", () => {
    expect(PUBLISHED_PORT_RULE.recognise!(evidence({ field: "header:location", baseline: "http://127.0.0.1:1/a", candidate: "http://127.0.0.1:2/a" }))).not.toBeNull();
    expect(PUBLISHED_PORT_RULE.recognise!(evidence({ field: "header:location", baseline: "http://127.0.0.1:1/a", candidate: "http://127.0.0.1:2/b" }))).toBeNull();
    // A probe client on its own network reaches each side's server at that server's address there.
    expect(PUBLISHED_PORT_RULE.recognise!(evidence({ field: "header:location", baseline: "http://198.51.100.131/statgraph-outside/", candidate: "http://198.51.100.134/statgraph-outside/" }))).not.toBeNull();
    expect(PUBLISHED_PORT_RULE.recognise!(evidence({ field: "header:location", baseline: "http://[2001:db8::2]/a/", candidate: "http://[2001:db8::3]/a/" }))).not.toBeNull();
    expect(PUBLISHED_PORT_RULE.recognise!(evidence({ field: "header:location", baseline: "http://198.51.100.131/a/", candidate: "http://www.example.com/a/" }))).toBeNull();
    const doc = (words: string) => `<html><head><title>404 Not Found</title></head><body>${words}</body></html>`;
    const notFound = { field: "body", baseline: doc("old"), candidate: doc("new") };
    expect(ERROR_DOCUMENT_WORDING_RULE.recognise!(evidence({ ...notFound, status: { baseline: 404, candidate: 404 } }))).not.toBeNull();
    expect(ERROR_DOCUMENT_WORDING_RULE.recognise!(evidence({ ...notFound, status: { baseline: 404, candidate: 500 } }))).toBeNull();
  });

  it("claim a Vary header with the same tokens written differently, not one that gained or lost a token", () => {
    expect(VARY_RULE.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding, User-Agent", candidate: "user-agent,accept-encoding" }))).not.toBeNull();
    expect(VARY_RULE.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding", candidate: null }))).toBeNull();
    expect(VARY_RULE.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding", candidate: "Accept-Encoding, Cookie" }))).toBeNull();
  });

  it("claim Accept-Ranges: bytes on one side only for the same 2xx status, not another value or another status", () => {
    expect(ACCEPT_RANGES_RULE.recognise!(evidence({ field: "header:accept-ranges", baseline: "bytes", candidate: null }))?.summary).toContain("baseline only");
    expect(ACCEPT_RANGES_RULE.recognise!(evidence({ field: "header:accept-ranges", baseline: "bytes", candidate: "none" }))).toBeNull();
    expect(ACCEPT_RANGES_RULE.recognise!(evidence({ field: "header:accept-ranges", baseline: "bytes", candidate: null, status: { baseline: 200, candidate: 500 } }))).toBeNull();
  });

  it("claim Expires and max-age a few seconds apart, not a changed expiry", () => {
    const expires = (baseline: string, candidate: string) => EXPIRES_SKEW_RULE.recognise!(evidence({ field: "header:expires", baseline, candidate }));
    expect(expires("Sat, 21 Nov 2026 23:45:47 GMT", "Sat, 21 Nov 2026 23:45:50 GMT")?.summary).toContain("seconds apart");
    expect(expires("Sat, 21 Nov 2026 23:45:47 GMT", "Sun, 22 Nov 2026 23:45:47 GMT")).toBeNull();
    const cacheControl = (baseline: string, candidate: string) => EXPIRES_SKEW_RULE.recognise!(evidence({ field: "header:cache-control", baseline, candidate }));
    expect(cacheControl("max-age=3597, public", "max-age=3600, public")).not.toBeNull();
    expect(cacheControl("max-age=3600, public", "max-age=3600, private")).toBeNull();
    expect(cacheControl("max-age=60", "max-age=86400")).toBeNull();
  });

  it("claim two listings of the same directory in other markup, not a listing against another page", () => {
    const listing22 = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n<html>\n <head>\n  <title>Index of /list</title>\n';
    const listing24 = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">\n<html>\n <head>\n  <title>Index of /list</title>\n';
    expect(AUTOINDEX_MARKUP_RULE.recognise!(evidence({ field: "body", baseline: listing22, candidate: listing24 }))).not.toBeNull();
    expect(AUTOINDEX_MARKUP_RULE.recognise!(evidence({ field: "body", baseline: listing22, candidate: listing24.replace("/list", "/other") }))).toBeNull();
    expect(AUTOINDEX_MARKUP_RULE.recognise!(evidence({ field: "body", baseline: listing22, candidate: "<h1>It works!</h1>" }))).toBeNull();
  });

  it("claim the same log event at another level, and 2.2's File does not exist that 2.4 logs at info, but not a new event", () => {
    const moved = LOG_LEVEL_MOVE_RULE.recognise!(evidence({ field: "errorLog", baseline: "warn something odd happened", candidate: "notice something odd happened" }));
    expect(moved?.summary).toContain("something odd happened");
    expect(LOG_LEVEL_MOVE_RULE.recognise!(evidence({ field: "errorLog", baseline: "AH01337\nfile-does-not-exist", candidate: "AH01337" }))?.summary).toContain("AH00128");
    expect(LOG_LEVEL_MOVE_RULE.recognise!(evidence({ field: "errorLog", baseline: "warn something odd happened", candidate: "notice something else" }))).toBeNull();
    expect(LOG_LEVEL_MOVE_RULE.recognise!(evidence({ field: "errorLog", baseline: null, candidate: "AH01328" }))).toBeNull();
    expect(LOG_LEVEL_MOVE_RULE.recognise!(evidence({ field: "body", baseline: "warn a", candidate: "notice a" }))).toBeNull();
  });

  it("claim 2.2's stock mod_ssl warning (AH01873) alone on 2.2, not when 2.4 gained a line or 2.2 had another", () => {
    const startup = (baseline: string | null, candidate: string | null) => evidence({ field: "startupLog", baseline, candidate, request: null, status: { baseline: null, candidate: null } });
    expect(SSL_SESSION_CACHE_WARNING_RULE.recognise!(startup("AH01873", null))).not.toBeNull();
    expect(SSL_SESSION_CACHE_WARNING_RULE.recognise!(startup("AH00558\nAH01873", "AH00558"))).not.toBeNull();
    expect(SSL_SESSION_CACHE_WARNING_RULE.recognise!(startup("AH01873", "AH00117"))).toBeNull();
    expect(SSL_SESSION_CACHE_WARNING_RULE.recognise!(startup("AH01873\nAH01909", null))).toBeNull();
    expect(SSL_SESSION_CACHE_WARNING_RULE.recognise!(evidence({ field: "errorLog", baseline: "AH01873", candidate: null }))).toBeNull();
  });

  // Recorded: a fragment with "LoadModule cgi_module modules/mod_cgi.so" on the stock configs of 2.2.34 (which loads
  // mod_cgi already) and 2.4.68 (which does not): only 2.2 warned, in its config test and its start-up log.
  it("claim a module loaded again on one side's stock config (AH01574), with or without 2.2's mod_ssl line", () => {
    const startup = (baseline: string | null, candidate: string | null) => evidence({ field: "startupLog", baseline, candidate, request: null, status: { baseline: null, candidate: null } });
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(startup("AH01873\nAH01574", null))).not.toBeNull();
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(startup("AH01574", null))).not.toBeNull();
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(startup("AH01574\nAH01909", null))).toBeNull();
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(startup("AH01873", null))).toBeNull();
    expect(SSL_SESSION_CACHE_WARNING_RULE.recognise!(startup("AH01873\nAH01574", null))).not.toBeNull();
    const configTest = (baseline: string, candidate: string) => evidence({ field: "configTest", baseline, candidate, request: null, status: { baseline: null, candidate: null } });
    const v22 = "ok\n[Mon Dec 07 18:28:08 2026] [warn] module cgi_module is already loaded, skipping\nhttpd: Could not reliably determine the server's fully qualified domain name, using 172.27.0.2 for ServerName\nSyntax OK";
    const v24 = "ok\nAH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 172.27.0.3. Set the 'ServerName' directive globally to suppress this message\nSyntax OK";
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(configTest(v22, v24))).not.toBeNull();
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(configTest(v22, `${v24}\nAH00112: Warning: DocumentRoot [/x] does not exist`))).toBeNull();
    expect(MODULE_LOADED_AGAIN_RULE.recognise!(configTest("ok\nSyntax OK", "ok\nSyntax OK\nAH00112: x"))).toBeNull();
    expect(parseErrorLogLine("[Mon Dec 07 18:28:08 2026] [warn] module cgi_module is already loaded, skipping", "2.2").event).toBe("AH01574");
  });
});

describe("a cache's Age header", () => {
  const age = (baseline: string | null, candidate: string | null) => CACHE_AGE_RULE.recognise!(evidence({ field: "header:age", baseline, candidate }));

  it("is the clock when both sides cached the answer, seconds apart", () => {
    expect(age("1", "0")).not.toBeNull();
  });

  it("is not the clock when one side did not cache it, or the ages are far apart", () => {
    expect(age("1", null)).toBeNull();
    expect(age("0", "3600")).toBeNull();
  });

  it("claim 2.2's deflate Vary on an answer 2.4 sends without it, 2.2's X-Pad, and 2.4's AH01797 before asking a client Satisfy Any sends to authentication", () => {
    expect(DEFLATE_VARY_RULE.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding", candidate: null, status: { baseline: 403, candidate: 403 } }))).not.toBeNull();
    expect(DEFLATE_VARY_RULE.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding", candidate: null, status: { baseline: 200, candidate: 403 } }))).toBeNull();
    expect(DEFLATE_VARY_RULE.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding,User-Agent", candidate: null }))).toBeNull();
    expect(X_PAD_RULE.recognise!(evidence({ field: "header:x-pad", baseline: "avoid browser bug", candidate: null }))).not.toBeNull();
    expect(X_PAD_RULE.recognise!(evidence({ field: "header:x-pad", baseline: null, candidate: "avoid browser bug" }))).toBeNull();
    const denied = parseErrorLogLine("[Mon Dec 07 10:50:10.665538 2026] [access_compat:error] [pid 18:tid 23] [client 198.51.100.77:47718] AH01797: client denied by server configuration: /usr/share/statgraph/www/", "2.4");
    const satisfyAny = { field: "errorLog", status: { baseline: 401, candidate: 401 }, log: { baseline: [], candidate: [denied] } };
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...satisfyAny, baseline: "AH01617", candidate: "AH01617\nclient-denied" }))).not.toBeNull();
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...satisfyAny, baseline: null, candidate: "client-denied" }))).not.toBeNull();
    // A client that sent a user is let in after the line: the same 200.
    const withUser = { ...satisfyAny, status: { baseline: 200, candidate: 200 }, request: { name: "r", method: "GET", path: "/statgraph/", host: null, client: "outsider", user: "probe-user" } };
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...withUser, baseline: null, candidate: "client-denied" }))?.summary).toMatch(/the same 200/);
    // Not a 200 to a client that sent no user (nothing authenticated it), nor a 403 to one that did.
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...withUser, request: { ...withUser.request, user: null }, baseline: null, candidate: "client-denied" }))).toBeNull();
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...withUser, status: { baseline: 403, candidate: 403 }, baseline: null, candidate: "client-denied" }))).toBeNull();
    // Not when the denial came with another status (a refusal), nor with other lines besides it.
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...satisfyAny, status: { baseline: 401, candidate: 403 }, baseline: null, candidate: "client-denied" }))).toBeNull();
    expect(SATISFY_ANY_DENIAL_LOG_RULE.recognise!(evidence({ ...satisfyAny, baseline: null, candidate: "client-denied\nAH01618" }))).toBeNull();
  });
});
