// Pure: one access-log record as the request a replay sends, or the reason it cannot be sent. What is kept is
// what the config can answer differently to: method, path and query as received, HTTP version, Host and port,
// the client's identity, credentials and User-Agent. Request bodies and other headers are not in an access log;
// a POST is replayed without a body.
//
// Not replayable (each a bad line with its reason): no request line ("-": a connection that closed before one,
// httpd's 408 and 400 lines), HTTP/0.9 lines, CONNECT and absolute-URI (proxy) requests, `OPTIONS *`, a method
// that is no HTTP token, a target with bytes a client cannot send as logged (spaces, control or non-ASCII
// characters: httpd logs them escaped), a user no Basic credentials can carry.
import type { AccessLogRecord } from "../../logs/access-log-line.ts";
import { parseRequestLine, type RequestLine } from "../../logs/request-line.ts";
import type { ProbeClient } from "../probes/probe.ts";
import { type ReplayServers, replayTarget } from "./replay-targets.ts";

export type ReplayCredentials = "none" | "valid" | "wrong-password";

export interface ReplayRequest {
  method: string;
  /** Path and query, as received. */
  target: string;
  httpVersion: "1.1" | "1.0";
  /** The Host header; null: the client's default. */
  host: string | null;
  port: number;
  tls: boolean;
  /** The identity that sends it: a probe client's id, or localhost/localhost6 for a loopback-only port. */
  client: string;
  user: string | null;
  credentials: ReplayCredentials;
  userAgent: string | null;
}

/** Why a line is not replayed, by kind (for the tally) and in words. */
export interface NotReplayable {
  kind: "format" | "no-request" | "request-line" | "http-0.9" | "protocol" | "method" | "proxy" | "target" | "host" | "port" | "user" | "user-agent";
  reason: string;
}

export type ReplayOutcome = { ok: true; request: ReplayRequest } | { ok: false; why: NotReplayable };

export interface ReplayContext {
  servers: ReplayServers;
  identityOf: (remote: string | null) => ProbeClient;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SENDABLE_TARGET = /^[\x21-\x7e]*$/;
const SENDABLE_TEXT = /^[\x20-\x7e]*$/;

function requestLineOf(record: AccessLogRecord): { ok: true; line: RequestLine } | { ok: false; why: NotReplayable } {
  if (record.requestLine !== null) {
    const parsed = parseRequestLine(record.requestLine);
    return parsed.ok ? parsed : { ok: false, why: { kind: "request-line", reason: parsed.reason } };
  }
  if (record.fields.some((field) => field.directive === "%r")) {
    return { ok: false, why: { kind: "no-request", reason: 'no request line ("-": the connection closed before a request was read)' } };
  }
  // %U is logged as ap_escape_uri writes it: a path that travels as it is.
  if (record.method !== null && record.urlPath !== null) {
    return { ok: true, line: { method: record.method, target: `${record.urlPath}${record.query ?? ""}`, protocol: record.protocol ?? "HTTP/1.1" } };
  }
  return { ok: false, why: { kind: "no-request", reason: "the format logs no request line (%r) nor method and path (%m, %U)" } };
}

function httpVersionOf(protocol: string): "1.1" | "1.0" | null {
  if (protocol === "HTTP/1.1" || protocol === "HTTP/2.0" || protocol === "HTTP/2") return "1.1";
  if (protocol === "HTTP/1.0") return "1.0";
  return null;
}

export function replayRequestOf(record: AccessLogRecord, context: ReplayContext): ReplayOutcome {
  const fail = (kind: NotReplayable["kind"], reason: string): ReplayOutcome => ({ ok: false, why: { kind, reason } });
  const parsed = requestLineOf(record);
  if (!parsed.ok) return parsed;
  const { method, target, protocol } = parsed.line;
  if (protocol === null) return fail("http-0.9", "an HTTP/0.9 request line (no protocol): the harness's clients send HTTP/1.0 and 1.1");
  const httpVersion = httpVersionOf(protocol);
  if (httpVersion === null) return fail("protocol", `protocol ${JSON.stringify(protocol)}: not HTTP/1.0, 1.1 or 2`);
  if (!TOKEN.test(method)) return fail("method", `method ${JSON.stringify(method)} is not an HTTP token`);
  if (method === "CONNECT") return fail("proxy", "CONNECT (a proxy tunnel) is not replayed");
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target)) return fail("proxy", `an absolute-URI request (${target.slice(0, 80)}): a proxy request, not replayed`);
  if (target === "*") return fail("target", `${method} * (asterisk form) is not sent by the harness's clients`);
  if (!target.startsWith("/")) return fail("target", `request target ${JSON.stringify(target.slice(0, 80))} is not a path`);
  if (!SENDABLE_TARGET.test(target)) return fail("target", "the request target holds spaces, control or non-ASCII characters, which a client cannot send as logged");
  if (target.includes("#")) return fail("target", "the request target holds a fragment (#), which no client sends");
  const user = record.remoteUser;
  if (user !== null && (!/^[\x21-\x7e]+$/.test(user) || user.includes(":"))) return fail("user", `user ${JSON.stringify(user)} cannot be sent in Basic credentials`);
  const userAgent = record.userAgent;
  if (userAgent !== null && !SENDABLE_TEXT.test(userAgent)) return fail("user-agent", "the User-Agent holds control or non-ASCII characters");
  const where = replayTarget(context.servers, record);
  if (!where.ok) return fail(where.reason.startsWith("Host") ? "host" : "port", where.reason);
  const client = where.client === "host" ? context.identityOf(record.remoteHost).id : where.client;
  // A logged user on a 401 line sent credentials the server refused.
  const credentials: ReplayCredentials = user === null ? "none" : record.status === 401 ? "wrong-password" : "valid";
  return {
    ok: true,
    request: { method, target, httpVersion, host: where.host, port: where.port, tls: where.tls, client, user, credentials, userAgent },
  };
}

/** What makes two lines the same request. */
export function replayKey(request: ReplayRequest): string {
  return JSON.stringify([request.method, request.target, request.httpVersion, request.host, request.port, request.tls, request.client, request.user, request.credentials, request.userAgent]);
}
