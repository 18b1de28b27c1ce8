// Certificates for the TLS test servers, made at run time: no private key is ever written to the repository.
//
// Everything is RSA 2048 with SHA-256 signatures, chosen so mod_ssl loads it with the OpenSSL 1.0.2 of httpd 2.2
// as well as with the OpenSSL 3 of httpd 2.4 (the unit tests check with OpenSSL 3 only). Private keys come in
// PKCS#8 ("BEGIN PRIVATE KEY") and PKCS#1 ("BEGIN RSA PRIVATE KEY"); OpenSSL 1.0.2 reads both.
//
// A CA is plain data (its certificate and key as PEM), so it can be made once (e.g. in a global setup), handed
// to workers as strings, or rebuilt from files, and then used for any number of leaves. Parsed handles are
// cached per CA object.
//
// Key generation is the slow part (about 0.1-0.4 s per RSA 2048 key). Every CA gets a key of its own, but leaf
// certificates (server and client) issued in one process share ONE key pair, generated on first use, unless
// `freshKey: true` is passed. Certificates stay distinct (serial, names, dates, issuer); only the key repeats.
import { KeyObject, X509Certificate as NodeX509Certificate, createPrivateKey, randomBytes } from "node:crypto";
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  Name,
  PemConverter,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
  X509CrlGenerator,
  X509CrlReason,
} from "@peculiar/x509";
import type { JsonGeneralName } from "@peculiar/x509";
import { SUBJECT_ATTRIBUTES, type Subject, formatSubject, valueProblem } from "../scenario/subject-name.ts";

import { CERTIFICATE_KINDS } from "../scenario/certificate-kinds.ts";
import type { CertificateKind } from "../scenario/scenario.ts";

// The kinds are the scenario format's (one list, scenario/certificate-kinds.ts); re-exported for the factory's users.
export { CERTIFICATE_KINDS, type CertificateKind };

/** PEM strings. `privateKey` is PKCS#8; `privateKeyPkcs1` is the same key as PKCS#1. */
export interface PemPair {
  certificate: string;
  privateKey: string;
  privateKeyPkcs1: string;
}

/** A CA is its certificate and key; only `certificate` and `privateKey` (PKCS#8 or PKCS#1) are needed to sign. */
export type CertificateAuthority = PemPair;
export type CertificateAuthorityInput = Pick<CertificateAuthority, "certificate" | "privateKey">;

export interface IssuedClientCertificate extends PemPair {
  /** Uppercase hex without a sign byte, as OpenSSL and mod_ssl's SSL_CLIENT_M_SERIAL print it. */
  serialNumber: string;
}

/** The name a "wrong-name" certificate carries instead of the requested one (RFC 6761: never resolves). */
export const WRONG_NAME = "wrong-name.invalid";
/** Validity of "expired" certificates, fixed like the recorded fixture's. */
export const EXPIRED_NOT_BEFORE = new Date("2020-01-01T00:00:00Z");
export const EXPIRED_NOT_AFTER = new Date("2021-01-01T00:00:00Z");

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
/** Certificates and CRLs start a day back so a container clock a little behind the host still accepts them. */
const BACKDATE_MS = DAY_MS;
const CA_LIFETIME_MS = 10 * YEAR_MS;
const CRL_LIFETIME_MS = 30 * DAY_MS;

const RSA_ALGORITHM: RsaHashedKeyGenParams = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
};
const SIGNING_ALGORITHM = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const OID_COMMON_NAME = "2.5.4.3";
const OID_CRL_NUMBER = "2.5.29.20";

/** A root CA (CN only, valid from a day ago for 10 years) with a key of its own. Reuse it: keys are slow. */
export async function createCertificateAuthority(
  opts: { commonName?: string; now?: Date } = {},
): Promise<CertificateAuthority> {
  const now = opts.now ?? new Date();
  const keys = await generateKeyPair();
  const name = commonNameOnly(opts.commonName ?? "httpd-upgrade-harness test CA");
  const subjectKeyId = await SubjectKeyIdentifierExtension.create(keys.publicKey);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial().hex,
    name,
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(now.getTime() + CA_LIFETIME_MS),
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new BasicConstraintsExtension(true, undefined, true),
      new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature, true),
      subjectKeyId,
      new AuthorityKeyIdentifierExtension(subjectKeyId.keyId),
    ],
  });
  const ca = { certificate: certificatePem(certificate), ...exportPrivateKey(keys.privateKey) };
  parsedAuthorities.set(ca, Promise.resolve({ certificate, signingKey: keys.privateKey, keyId: subjectKeyId.keyId }));
  return ca;
}

/**
 * A server certificate (CN and SAN DNS = dnsName, SAN IP = ipAddresses, extKeyUsage serverAuth) of one kind:
 * - valid: signed by `ca`, from now - 1 day to now + 1 year
 * - expired: signed by `ca`, 2020-01-01 to 2021-01-01 whatever `now` is
 * - not-yet-valid: signed by `ca`, from now + 1 year to now + 2 years
 * - wrong-name: like valid but for WRONG_NAME only (no dnsName, no IP addresses)
 * - self-signed: like valid but signed by its own key (`ca` is not used)
 *
 * `subject` replaces the subject CN=dnsName with these parts, in this order (most significant first), each
 * encoded as `openssl req -subj` encodes it (C PrintableString, emailAddress IA5String, most UTF8String); the SAN
 * still names dnsName. Not for wrong-name, whose point is to name no requested server.
 */
export async function issueServerCertificate(
  ca: CertificateAuthorityInput,
  opts: { kind: CertificateKind; dnsName: string; ipAddresses?: string[]; subject?: Subject; now?: Date; freshKey?: boolean },
): Promise<PemPair> {
  const now = opts.now ?? new Date();
  const wrongName = opts.kind === "wrong-name";
  if (wrongName && opts.subject !== undefined) {
    throw new TypeError("a wrong-name certificate takes no subject: it must name no server the client asks for");
  }
  const dnsName = wrongName ? WRONG_NAME : opts.dnsName;
  // A wrong-name certificate must not match by address either.
  const ipAddresses = wrongName ? [] : (opts.ipAddresses ?? []);
  const altNames: JsonGeneralName[] = [
    { type: "dns", value: dnsName },
    ...ipAddresses.map((value): JsonGeneralName => ({ type: "ip", value })),
  ];
  const subject = opts.subject === undefined ? commonNameOnly(dnsName) : subjectName(opts.subject);
  const keys = await leafKeyPair(opts.freshKey);
  const validity = leafValidity(opts.kind, now);
  const extensions = [
    new BasicConstraintsExtension(false, undefined, true),
    new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
    new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth]),
    new SubjectAlternativeNameExtension(altNames),
    await SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  let certificate: X509Certificate;
  if (opts.kind === "self-signed") {
    certificate = await X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial().hex,
      name: subject,
      ...validity,
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions,
    });
  } else {
    const authority = await parseAuthority(ca);
    certificate = await X509CertificateGenerator.create({
      serialNumber: randomSerial().hex,
      subject,
      issuer: authority.certificate.subjectName,
      ...validity,
      publicKey: keys.publicKey,
      signingKey: authority.signingKey,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: [...extensions, new AuthorityKeyIdentifierExtension(authority.keyId)],
    });
  }
  return { certificate: certificatePem(certificate), ...exportPrivateKey(keys.privateKey) };
}

/** A client certificate (CN = commonName, extKeyUsage clientAuth) signed by `ca`, valid from now - 1 day for a year. */
export async function issueClientCertificate(
  ca: CertificateAuthorityInput,
  opts: { commonName: string; serialNumber?: string; now?: Date; freshKey?: boolean },
): Promise<IssuedClientCertificate> {
  const now = opts.now ?? new Date();
  const serial = opts.serialNumber === undefined ? randomSerial() : parseSerial(opts.serialNumber);
  const [authority, keys] = await Promise.all([parseAuthority(ca), leafKeyPair(opts.freshKey)]);
  const certificate = await X509CertificateGenerator.create({
    serialNumber: serial.hex,
    subject: commonNameOnly(opts.commonName),
    issuer: authority.certificate.subjectName,
    ...leafValidity("valid", now),
    publicKey: keys.publicKey,
    signingKey: authority.signingKey,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new BasicConstraintsExtension(false, undefined, true),
      new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
      new ExtendedKeyUsageExtension([ExtendedKeyUsage.clientAuth]),
      await SubjectKeyIdentifierExtension.create(keys.publicKey),
      new AuthorityKeyIdentifierExtension(authority.keyId),
    ],
  });
  return {
    certificate: certificatePem(certificate),
    ...exportPrivateKey(keys.privateKey),
    serialNumber: serial.hex,
  };
}

/**
 * A PEM X.509 v2 CRL from `ca` listing `revokedSerials` (hex, as returned by issueClientCertificate; case, leading
 * zeros and colons do not matter; duplicates are listed once), each with reason keyCompromise. thisUpdate is
 * backdated like certificates; nextUpdate is now + 30 days.
 */
export async function createRevocationList(
  ca: CertificateAuthorityInput,
  revokedSerials: readonly string[],
  opts: { now?: Date } = {},
): Promise<string> {
  const now = opts.now ?? new Date();
  const authority = await parseAuthority(ca);
  const thisUpdate = new Date(now.getTime() - BACKDATE_MS);
  const seen = new Set<string>();
  const entries = [];
  for (const input of revokedSerials) {
    const serial = parseSerial(input);
    if (seen.has(serial.hex)) continue;
    seen.add(serial.hex);
    entries.push({
      // The generator copies this hex into the INTEGER as is: it must carry the sign byte itself.
      serialNumber: serial.derHex,
      revocationDate: thisUpdate,
      // Not decoration: for an entry without reason, invalidity date or issuer, @peculiar/x509 1.14.3 writes an
      // empty crlEntryExtensions SEQUENCE, which DER forbids (SIZE 1..MAX). OpenSSL 3 tolerates it; no need to
      // find out whether every parser does.
      reason: X509CrlReason.keyCompromise,
    });
  }
  const crl = await X509CrlGenerator.create({
    issuer: authority.certificate.subjectName,
    thisUpdate,
    nextUpdate: new Date(now.getTime() + CRL_LIFETIME_MS),
    signingKey: authority.signingKey,
    signingAlgorithm: SIGNING_ALGORITHM,
    entries,
    extensions: [
      new AuthorityKeyIdentifierExtension(authority.keyId),
      // RFC 5280 requires a CRL number; the issue time in milliseconds keeps it increasing without state.
      new Extension(OID_CRL_NUMBER, false, derInteger(BigInt(now.getTime()))),
    ],
  });
  // Not crl.toString("pem"): @peculiar/x509 labels it "BEGIN CRL", which OpenSSL (hence mod_ssl) does not load.
  return `${PemConverter.encode(crl.rawData, "X509 CRL")}\n`;
}

// ---- internals ----

interface ParsedAuthority {
  certificate: X509Certificate;
  signingKey: CryptoKey;
  /** Hex key identifier that leaves and CRLs name in authorityKeyIdentifier. */
  keyId: string;
}

const parsedAuthorities = new WeakMap<object, Promise<ParsedAuthority>>();

function parseAuthority(ca: CertificateAuthorityInput): Promise<ParsedAuthority> {
  let parsed = parsedAuthorities.get(ca);
  if (parsed === undefined) {
    parsed = loadAuthority(ca);
    parsedAuthorities.set(ca, parsed);
    // A rejected load is not cached, so a caller that fixes its CA object is not stuck with the failure.
    parsed.catch(() => parsedAuthorities.delete(ca));
  }
  return parsed;
}

async function loadAuthority(ca: CertificateAuthorityInput): Promise<ParsedAuthority> {
  const certificate = new X509Certificate(ca.certificate);
  const basicConstraints = certificate.getExtension(BasicConstraintsExtension);
  if (basicConstraints?.ca !== true) {
    throw new TypeError(`certificate "${certificate.subject}" is not a CA (basicConstraints CA:TRUE is missing)`);
  }
  const nodeKey = createPrivateKey(ca.privateKey);
  if (!new NodeX509Certificate(ca.certificate).checkPrivateKey(nodeKey)) {
    throw new TypeError(`the private key does not belong to CA certificate "${certificate.subject}"`);
  }
  const signingKey = await globalThis.crypto.subtle.importKey(
    "pkcs8",
    nodeKey.export({ type: "pkcs8", format: "der" }),
    RSA_ALGORITHM,
    false,
    ["sign"],
  );
  const keyId =
    certificate.getExtension(SubjectKeyIdentifierExtension)?.keyId ??
    (await SubjectKeyIdentifierExtension.create(await certificate.publicKey.export())).keyId;
  return { certificate, signingKey, keyId };
}

async function generateKeyPair(): Promise<CryptoKeyPair> {
  return globalThis.crypto.subtle.generateKey(RSA_ALGORITHM, true, ["sign", "verify"]);
}

let sharedLeafKeyPair: Promise<CryptoKeyPair> | undefined;

function leafKeyPair(fresh = false): Promise<CryptoKeyPair> {
  if (fresh) return generateKeyPair();
  if (sharedLeafKeyPair === undefined) {
    sharedLeafKeyPair = generateKeyPair();
    sharedLeafKeyPair.catch(() => {
      sharedLeafKeyPair = undefined;
    });
  }
  return sharedLeafKeyPair;
}

/** With a final newline (which @peculiar/x509 leaves off), so PEMs can be concatenated into chain files. */
function certificatePem(certificate: X509Certificate): string {
  return `${PemConverter.encode(certificate.rawData, "CERTIFICATE")}\n`;
}

function exportPrivateKey(privateKey: CryptoKey): Omit<PemPair, "certificate"> {
  const key = KeyObject.from(privateKey);
  return {
    privateKey: key.export({ type: "pkcs8", format: "pem" }).toString(),
    privateKeyPkcs1: key.export({ type: "pkcs1", format: "pem" }).toString(),
  };
}

function leafValidity(kind: CertificateKind, now: Date): { notBefore: Date; notAfter: Date } {
  const t = now.getTime();
  switch (kind) {
    case "expired":
      return { notBefore: EXPIRED_NOT_BEFORE, notAfter: EXPIRED_NOT_AFTER };
    case "not-yet-valid":
      return { notBefore: new Date(t + YEAR_MS), notAfter: new Date(t + 2 * YEAR_MS) };
    case "valid":
    case "wrong-name":
    case "self-signed":
      return { notBefore: new Date(t - BACKDATE_MS), notAfter: new Date(t + YEAR_MS) };
  }
}

/**
 * A subject of just CN=value, as a UTF8String (what `openssl req` writes). Given as a typed value: @peculiar/x509
 * unquotes and unescapes plain strings even in its JSON form ('alice, "x"' became 'x').
 */
function commonNameOnly(commonName: string): Name {
  if (commonName.length === 0 || commonName.length > 64) {
    throw new RangeError(`a common name must have 1 to 64 characters, got ${JSON.stringify(commonName)}`);
  }
  return new Name([{ [OID_COMMON_NAME]: [{ utf8String: commonName }] }]);
}

/**
 * A subject of several parts, order kept: one single-valued RDN per part, each value a typed string (never a
 * string @peculiar/x509 would parse, so a comma in "Example, Inc." is data, not a separator; the DER holds the
 * value as is and readers escape it when they print RFC 2253).
 */
function subjectName(subject: Subject): Name {
  if (subject.length === 0) throw new RangeError("a subject needs at least one part");
  return new Name(
    subject.map((part) => {
      const info = SUBJECT_ATTRIBUTES[part.attribute];
      const problem = valueProblem(part.attribute, part.value);
      if (problem !== null) throw new RangeError(`subject ${formatSubject(subject)}: ${part.attribute}: ${problem}`);
      return { [info.oid]: [{ [info.stringType]: part.value }] };
    }),
  );
}

interface Serial {
  /** Uppercase, even-length hex of the positive value, no sign byte (as OpenSSL prints serials). */
  hex: string;
  /** The DER INTEGER content: `hex` with a 00 sign byte when its top bit is set. */
  derHex: string;
}

function serialFromBytes(bytes: Uint8Array): Serial {
  const hex = Buffer.from(bytes).toString("hex").toUpperCase();
  return { hex, derHex: (bytes[0] ?? 0) > 0x7f ? `00${hex}` : hex };
}

/** 16 random bytes, top bit clear (no sign byte needed) and first byte non-zero (so the length is stable). */
function randomSerial(): Serial {
  const bytes = new Uint8Array(randomBytes(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return serialFromBytes(bytes);
}

function parseSerial(input: string): Serial {
  const digits = input.replace(/:/g, "").replace(/^0x/i, "");
  if (!/^[0-9a-f]+$/i.test(digits)) {
    throw new TypeError(`a serial number must be hex digits, got ${JSON.stringify(input)}`);
  }
  let stripped = digits.replace(/^0+/, "");
  if (stripped.length === 0) throw new RangeError("a serial number must be positive, got 0");
  if (stripped.length % 2 === 1) stripped = `0${stripped}`;
  const serial = serialFromBytes(Buffer.from(stripped, "hex"));
  if (serial.derHex.length > 40) {
    throw new RangeError(`a serial number must fit in 20 octets (RFC 5280), got ${JSON.stringify(input)}`);
  }
  return serial;
}

/** DER encoding of a non-negative INTEGER. */
function derInteger(value: bigint): Uint8Array<ArrayBuffer> {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const content = Buffer.from(hex, "hex");
  const body = (content[0] ?? 0) > 0x7f ? Buffer.concat([Buffer.from([0]), content]) : content;
  return Uint8Array.from(Buffer.concat([Buffer.from([0x02, body.length]), body]));
}
