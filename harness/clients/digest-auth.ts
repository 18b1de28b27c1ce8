// Pure: an answer to an HTTP Digest challenge (RFC 2617: MD5, qop "auth" when offered), for the host client,
// which sends through undici; client containers answer with curl --digest. Written here rather than taken from a
// package: the few maintained ones wrap fetch or axios, not the plain header value the raw and undici senders
// set, and MD5 with qop=auth is all httpd's mod_auth_digest offers (2.2 and 2.4).
import { createHash, randomBytes } from "node:crypto";

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque: string | null;
  qop: string[];
  algorithm: string;
}

/** The Digest challenge of a `WWW-Authenticate` value; null when it is none. */
export function parseDigestChallenge(value: string): DigestChallenge | null {
  const match = /^\s*Digest\s+(.*)$/is.exec(value);
  if (!match) return null;
  const params = new Map<string, string>();
  for (const part of match[1]!.matchAll(/([A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    params.set(part[1]!.toLowerCase(), part[2] !== undefined ? part[2].replace(/\\(.)/g, "$1") : (part[3] ?? ""));
  }
  const realm = params.get("realm");
  const nonce = params.get("nonce");
  if (realm === undefined || nonce === undefined) return null;
  return {
    realm,
    nonce,
    opaque: params.get("opaque") ?? null,
    qop: (params.get("qop") ?? "").split(",").map((q) => q.trim()).filter(Boolean),
    algorithm: params.get("algorithm") ?? "MD5",
  };
}

const md5 = (text: string): string => createHash("md5").update(text, "utf8").digest("hex");

/** The `Authorization` value answering `challenge` for one request. */
export function digestAuthorization(challenge: DigestChallenge, request: { method: string; uri: string; user: string; password: string }, cnonce = randomBytes(8).toString("hex")): string {
  const ha1 = md5(`${request.user}:${challenge.realm}:${request.password}`);
  const ha2 = md5(`${request.method}:${request.uri}`);
  const quote = (text: string) => `"${text.replace(/(["\\])/g, "\\$1")}"`;
  const parts = [`username=${quote(request.user)}`, `realm=${quote(challenge.realm)}`, `nonce=${quote(challenge.nonce)}`, `uri=${quote(request.uri)}`, `algorithm=${challenge.algorithm}`];
  if (challenge.qop.includes("auth")) {
    const nc = "00000001";
    parts.push(`response=${quote(md5(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:auth:${ha2}`))}`, "qop=auth", `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  } else {
    parts.push(`response=${quote(md5(`${ha1}:${challenge.nonce}:${ha2}`))}`);
  }
  if (challenge.opaque !== null) parts.push(`opaque=${quote(challenge.opaque)}`);
  return `Digest ${parts.join(", ")}`;
}
