// What one HTTP request to a server under test is made of, once the scenario has been resolved for one side.
// The senders (send-http.ts, send-raw.ts) turn it into bytes on a socket; they never change the plan.
import { isIP } from "node:net";

export interface RequestTarget {
  /** Where to connect: 127.0.0.1 (or another address) and the published port. */
  host: string;
  port: number;
  tls: boolean;
}

/** A client certificate and its key, both PEM. */
export interface TlsClientIdentity {
  certificate: string;
  privateKey: string;
}

export interface HttpRequestPlan {
  target: RequestTarget;
  method: string;
  /** Sent as is on the request line (no normalisation, no encoding). */
  path: string;
  /** Overrides Host; also the TLS SNI servername when tls (not for IP literals). null: `host:port` of the target. */
  hostHeader: string | null;
  /** Ordered, duplicates allowed, names sent as written. */
  headers: Array<[string, string]>;
  /** Sent as UTF-8. */
  body: string | null;
  /** Basic credentials, sent as an `authorization` header right after Host (before the plan's headers); with
   * scheme digest, the answer to the server's Digest challenge instead (send-http.ts). */
  auth: { user: string; password: string; scheme?: "basic" | "digest" } | null;
  httpVersion: "1.1" | "1.0";
  /** >= 1: send the request this many times on one connection; the last answer is recorded, with whether it came
   * on a connection an earlier request of the plan had used. */
  keepAliveRequests: number;
  /** Deadline for the whole exchange (connect, every request of the plan, all bodies). */
  timeoutMs: number;
  tlsClient: TlsClientIdentity | null;
  /** Not used to verify: the servers under test use test certificates (rejectUnauthorized false). Kept for completeness. */
  caCertificate: string | null;
}

/** Bodies longer than this are cut in `HttpResponseOutcome.body`; bodyBytes and bodySha256 cover the whole body. */
export const BODY_TEXT_LIMIT = 64 * 1024;

/** Throws on a plan no sender could act on: these are programming errors, not observations. */
export function assertValidPlan(plan: HttpRequestPlan): void {
  assertValidTarget(plan.target);
  if (!Number.isInteger(plan.keepAliveRequests) || plan.keepAliveRequests < 1) {
    throw new RangeError(`keepAliveRequests must be an integer >= 1, got ${plan.keepAliveRequests}`);
  }
  assertValidTimeout(plan.timeoutMs);
  if (plan.httpVersion !== "1.1" && plan.httpVersion !== "1.0") {
    throw new RangeError(`httpVersion must be "1.1" or "1.0", got ${String(plan.httpVersion)}`);
  }
  if (plan.method.length === 0) throw new RangeError("method must not be empty");
}

export function assertValidTarget(target: RequestTarget): void {
  if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535) {
    throw new RangeError(`target port must be 1..65535, got ${target.port}`);
  }
  if (target.host.length === 0) throw new RangeError("target host must not be empty");
}

export function assertValidTimeout(timeoutMs: number): void {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be > 0, got ${timeoutMs}`);
}

/** The host part of a Host header value: "a.example:8080" → "a.example", "[::1]:80" → "::1". */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value.slice(1) : value.slice(1, end);
  }
  // A bare IPv6 literal has several colons and no port.
  if (isIP(value) === 6) return value;
  const colon = value.lastIndexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

/** The TLS SNI name for a plan: the Host override's name, else the target host; null for IP literals (SNI
 * carries names only) and for plain HTTP. */
export function servernameFor(plan: Pick<HttpRequestPlan, "target" | "hostHeader">): string | null {
  if (!plan.target.tls) return null;
  const name = hostnameOf(plan.hostHeader ?? plan.target.host);
  if (name.length === 0 || isIP(name) !== 0) return null;
  return name;
}

/** The Host header value sent when the plan does not override it: `host:port`, port left out when it is the
 * scheme's default (as undici and curl do). */
export function defaultHostHeader(target: RequestTarget): string {
  const host = isIP(target.host) === 6 ? `[${target.host}]` : target.host;
  const defaultPort = target.tls ? 443 : 80;
  return target.port === defaultPort ? host : `${host}:${target.port}`;
}

/** `Basic <base64(user:password)>`, the credentials encoded as UTF-8. */
export function basicAuthorization(auth: { user: string; password: string }): string {
  return `Basic ${Buffer.from(`${auth.user}:${auth.password}`, "utf8").toString("base64")}`;
}

/** The origin URL for a target (undici's Client needs one). */
export function originOf(target: RequestTarget): string {
  const host = isIP(target.host) === 6 ? `[${target.host}]` : target.host;
  return `${target.tls ? "https" : "http"}://${host}:${target.port}`;
}
