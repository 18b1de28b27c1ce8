import { execFile } from "node:child_process";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  AuthorityKeyIdentifierExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate as PeculiarCertificate,
} from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CERTIFICATE_KINDS,
  createCertificateAuthority,
  createRevocationList,
  issueClientCertificate,
  issueServerCertificate,
} from "../../../harness/backends/certificate-factory.ts";
import type {
  CertificateAuthority,
  CertificateKind,
  IssuedClientCertificate,
  PemPair,
} from "../../../harness/backends/certificate-factory.ts";
import type { Subject } from "../../../harness/scenario/subject-name.ts";

const execFileAsync = promisify(execFile);
const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
const HOST = "www.example.test";
const SETUP_TIMEOUT_MS = 60_000;

let dir: string;
let now: Date;
let ca: CertificateAuthority;
const servers = {} as Record<CertificateKind, PemPair>;
let alice: IssuedClientCertificate;
let bob: IssuedClientCertificate;
let crl: string;

/** Writes `content` into the test's temp dir and returns the path. */
async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** Runs openssl; never throws on a non-zero exit, returns it with stdout and stderr joined. */
async function openssl(...args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await execFileAsync("openssl", args);
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = "", stderr = "", code } = error as { stdout?: string; stderr?: string; code?: unknown };
    if (typeof code !== "number") throw error; // openssl missing, not a verdict
    return { ok: false, output: stdout + stderr };
  }
}

/** X.509 times have whole seconds. */
function seconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

function dates(pem: string): { from: number; to: number } {
  const cert = new X509Certificate(pem);
  return { from: Date.parse(cert.validFrom), to: Date.parse(cert.validTo) };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "certificate-factory-"));
  now = new Date();
  ca = await createCertificateAuthority({ commonName: "Factory Test CA", now });
  for (const kind of CERTIFICATE_KINDS) {
    servers[kind] = await issueServerCertificate(ca, { kind, dnsName: HOST, ipAddresses: ["127.0.0.1"], now });
  }
  alice = await issueClientCertificate(ca, { commonName: "alice", now });
  bob = await issueClientCertificate(ca, { commonName: "bob", now });
  crl = await createRevocationList(ca, [alice.serialNumber], { now });
  await file("ca.pem", ca.certificate);
  await file("crl.pem", crl);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("certificate authority", () => {
  it("is a self-signed CA allowed to sign certificates and CRLs", () => {
    const cert = new X509Certificate(ca.certificate);
    expect(cert.subject).toBe("CN=Factory Test CA");
    expect(cert.ca).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const usage = new PeculiarCertificate(ca.certificate).getExtension(KeyUsagesExtension);
    expect(usage?.critical).toBe(true);
    expect((usage?.usages ?? 0) & KeyUsageFlags.keyCertSign).toBeTruthy();
    expect((usage?.usages ?? 0) & KeyUsageFlags.cRLSign).toBeTruthy();
  });

  it("has an RSA 2048 key signed with SHA-256, whose private key matches in PKCS#8 and PKCS#1", async () => {
    const cert = new X509Certificate(ca.certificate);
    expect(cert.publicKey.asymmetricKeyType).toBe("rsa");
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(ca.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(ca.privateKeyPkcs1).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(cert.checkPrivateKey(createPrivateKey(ca.privateKey))).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(ca.privateKeyPkcs1))).toBe(true);
    const text = await openssl("x509", "-in", join(dir, "ca.pem"), "-noout", "-text");
    expect(text.output).toContain("Signature Algorithm: sha256WithRSAEncryption");
  });
});

describe("server certificates", () => {
  it("valid: signed by the CA, names the host in CN and SAN, valid from a day ago for a year", async () => {
    const pem = servers.valid.certificate;
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe(`CN=${HOST}`);
    expect(cert.subjectAltName).toBe(`DNS:${HOST}, IP Address:127.0.0.1`);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(new X509Certificate(ca.certificate))).toBe(true);
    expect(cert.verify(new X509Certificate(ca.certificate).publicKey)).toBe(true);
    expect(dates(pem)).toEqual({ from: seconds(now.getTime() - DAY_MS), to: seconds(now.getTime() + YEAR_MS) });

    const leaf = await file("valid.pem", pem);
    const verdict = await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-purpose", "sslserver", leaf);
    expect(verdict).toEqual({ ok: true, output: `${leaf}: OK\n` });
    expect((await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-verify_hostname", HOST, leaf)).ok).toBe(true);
    expect((await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-verify_ip", "127.0.0.1", leaf)).ok).toBe(true);
  });

  it("valid: names the CA's key in authorityKeyIdentifier, so OpenSSL can build the chain", () => {
    const caKeyId = new PeculiarCertificate(ca.certificate).getExtension(SubjectKeyIdentifierExtension)?.keyId;
    const leaf = new PeculiarCertificate(servers.valid.certificate);
    expect(caKeyId).toMatch(/^[0-9a-f]{40}$/);
    expect(leaf.getExtension(AuthorityKeyIdentifierExtension)?.keyId).toBe(caKeyId);
    expect(leaf.getExtension(SubjectKeyIdentifierExtension)?.keyId).toMatch(/^[0-9a-f]{40}$/);
  });

  it("expired: ran from 2020-01-01 to 2021-01-01 and OpenSSL says it has expired", async () => {
    const pem = servers.expired.certificate;
    expect(dates(pem)).toEqual({ from: Date.parse("2020-01-01T00:00:00Z"), to: Date.parse("2021-01-01T00:00:00Z") });
    expect(new X509Certificate(pem).checkIssued(new X509Certificate(ca.certificate))).toBe(true);
    const verdict = await openssl("verify", "-CAfile", join(dir, "ca.pem"), await file("expired.pem", pem));
    expect(verdict.ok).toBe(false);
    expect(verdict.output).toContain("certificate has expired");
  });

  it("not-yet-valid: starts in a year, ends in two, and OpenSSL says it is not yet valid", async () => {
    const pem = servers["not-yet-valid"].certificate;
    expect(dates(pem)).toEqual({ from: seconds(now.getTime() + YEAR_MS), to: seconds(now.getTime() + 2 * YEAR_MS) });
    const verdict = await openssl("verify", "-CAfile", join(dir, "ca.pem"), await file("not-yet-valid.pem", pem));
    expect(verdict.ok).toBe(false);
    expect(verdict.output).toContain("certificate is not yet valid");
  });

  it("wrong-name: a sound chain for wrong-name.invalid that fails the requested host and address", async () => {
    const pem = servers["wrong-name"].certificate;
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe("CN=wrong-name.invalid");
    expect(cert.subjectAltName).toBe("DNS:wrong-name.invalid");
    expect(dates(pem)).toEqual(dates(servers.valid.certificate));
    const leaf = await file("wrong-name.pem", pem);
    expect((await openssl("verify", "-CAfile", join(dir, "ca.pem"), leaf)).ok).toBe(true);
    const byName = await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-verify_hostname", HOST, leaf);
    expect(byName.ok).toBe(false);
    expect(byName.output).toContain("hostname mismatch");
    const byAddress = await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-verify_ip", "127.0.0.1", leaf);
    expect(byAddress.ok).toBe(false);
    expect(byAddress.output).toContain("IP address mismatch");
  });

  it("self-signed: right name and dates, signed by its own key, rejected against the CA", async () => {
    const pem = servers["self-signed"].certificate;
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe(`CN=${HOST}`);
    expect(cert.issuer).toBe(`CN=${HOST}`);
    expect(cert.subjectAltName).toBe(`DNS:${HOST}, IP Address:127.0.0.1`);
    expect(dates(pem)).toEqual(dates(servers.valid.certificate));
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkIssued(new X509Certificate(ca.certificate))).toBe(false);
    expect(cert.verify(new X509Certificate(ca.certificate).publicKey)).toBe(false);
    const verdict = await openssl("verify", "-CAfile", join(dir, "ca.pem"), await file("self-signed.pem", pem));
    expect(verdict.ok).toBe(false);
    expect(verdict.output).toMatch(/self[- ]signed certificate/);
  });

  it.each(CERTIFICATE_KINDS)("%s: the private key belongs to the certificate (PKCS#8 and PKCS#1)", async (kind) => {
    const pair = servers[kind];
    const cert = new X509Certificate(pair.certificate);
    expect(cert.checkPrivateKey(createPrivateKey(pair.privateKey))).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(pair.privateKeyPkcs1))).toBe(true);
    const certModulus = await openssl("x509", "-noout", "-modulus", "-in", await file(`${kind}.crt`, pair.certificate));
    const keyFile = await file(`${kind}.key`, pair.privateKeyPkcs1);
    const keyModulus = await openssl("rsa", "-noout", "-modulus", "-in", keyFile);
    expect(certModulus.output).toMatch(/^Modulus=[0-9A-F]{512}\n$/);
    expect(keyModulus.output).toBe(certModulus.output);
  });

  it("are PEM files that can be concatenated into a chain file", async () => {
    expect(servers.valid.certificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    const chain = await file("chain.pem", servers.valid.certificate + ca.certificate);
    const verdict = await openssl("verify", "-CAfile", chain, chain);
    expect(verdict.ok).toBe(true);
    expect(verdict.output.match(/: OK/g)).toHaveLength(1);
  });
});

describe("server certificates with a subject", () => {
  // The subject of the S8 scenarios (ssl-dn-format-*): four parts, a comma in O.
  const SUBJECT: Subject = [
    { attribute: "C", value: "DE" },
    { attribute: "O", value: "Example, Inc." },
    { attribute: "OU", value: "Web" },
    { attribute: "CN", value: "server.test" },
  ];
  let withSubject: PemPair;
  beforeAll(async () => {
    withSubject = await issueServerCertificate(ca, { kind: "valid", dnsName: HOST, subject: SUBJECT, now });
  });

  it("carries C, O (with its comma), OU and CN in that order; the SAN still names the host", () => {
    const cert = new X509Certificate(withSubject.certificate);
    // Node prints the subject most significant part first, one part a line, commas escaped as in RFC 2253.
    expect(cert.subject).toBe("C=DE\nO=Example\\, Inc.\nOU=Web\nCN=server.test");
    expect(cert.subjectAltName).toBe(`DNS:${HOST}`);
    expect(cert.checkIssued(new X509Certificate(ca.certificate))).toBe(true);
    // Parsed back from the DER, RDN by RDN: the comma is data inside O, not a separator.
    expect(new PeculiarCertificate(withSubject.certificate).subjectName.toJSON()).toEqual([
      { C: ["DE"] },
      { O: ["Example, Inc."] },
      { OU: ["Web"] },
      { CN: ["server.test"] },
    ]);
  });

  it("encodes each value as `openssl req -subj` does: C as PrintableString, the others as UTF8String", async () => {
    const parsed = await openssl("asn1parse", "-in", await file("subject.pem", withSubject.certificate));
    const subjectStrings = parsed.output
      .split("\n")
      .filter((line) => / prim: \w+STRING +:(DE|Example, Inc\.|Web|server\.test)$/.test(line))
      .map((line) => line.replace(/^.* prim: (\w+) +:(.*)$/, "$1 $2"));
    // The issuer (the CA, CN only) comes first in the DER; the subject's four parts follow in order.
    expect(subjectStrings).toEqual(["PRINTABLESTRING DE", "UTF8STRING Example, Inc.", "UTF8STRING Web", "UTF8STRING server.test"]);
  });

  it("reads as httpd 2.2 and 2.4 show SSL_SERVER_S_DN: OpenSSL's oneline form and RFC 2253", async () => {
    const leaf = await file("subject-dn.pem", withSubject.certificate);
    // mod_ssl 2.2 uses X509_NAME_oneline (-nameopt compat); 2.4 prints RFC 2253 (reversed, commas escaped).
    const oneline = await openssl("x509", "-noout", "-subject", "-nameopt", "compat", "-in", leaf);
    expect(oneline.output).toBe("subject=/C=DE/O=Example, Inc./OU=Web/CN=server.test\n");
    const rfc2253 = await openssl("x509", "-noout", "-subject", "-nameopt", "RFC2253", "-in", leaf);
    expect(rfc2253.output).toBe("subject=CN=server.test,OU=Web,O=Example\\, Inc.,C=DE\n");
    expect((await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-purpose", "sslserver", leaf)).ok).toBe(true);
  });

  it("self-signed: the subject is also the issuer", async () => {
    const pair = await issueServerCertificate(ca, { kind: "self-signed", dnsName: HOST, subject: SUBJECT, now });
    const cert = new X509Certificate(pair.certificate);
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.subject).toContain("O=Example\\, Inc.");
  });

  it("refuses a subject for wrong-name, an empty subject and a value its attribute cannot hold", async () => {
    await expect(issueServerCertificate(ca, { kind: "wrong-name", dnsName: HOST, subject: SUBJECT })).rejects.toThrow(
      /wrong-name certificate takes no subject/,
    );
    await expect(issueServerCertificate(ca, { kind: "valid", dnsName: HOST, subject: [] })).rejects.toThrow(/at least one/);
    await expect(
      issueServerCertificate(ca, { kind: "valid", dnsName: HOST, subject: [{ attribute: "C", value: "Germany" }] }),
    ).rejects.toThrow(/C: countryName takes exactly 2 characters/);
  });
});

describe("client certificates and the revocation list", () => {
  it("client certificates are for client authentication only", async () => {
    const cert = new X509Certificate(bob.certificate);
    expect(cert.subject).toBe("CN=bob");
    expect(cert.serialNumber).toBe(bob.serialNumber);
    expect(cert.checkPrivateKey(createPrivateKey(bob.privateKey))).toBe(true);
    const leaf = await file("bob.pem", bob.certificate);
    expect((await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-purpose", "sslclient", leaf)).ok).toBe(true);
    const asServer = await openssl("verify", "-CAfile", join(dir, "ca.pem"), "-purpose", "sslserver", leaf);
    expect(asServer.ok).toBe(false);
    expect(asServer.output).toMatch(/(unsuitable|unsupported) certificate purpose/);
  });

  it("the CRL is signed by the CA, lists the revoked serial and is due again in 30 days", async () => {
    const text = await openssl("crl", "-in", join(dir, "crl.pem"), "-noout", "-text", "-nextupdate");
    expect(text.ok).toBe(true);
    expect(text.output).toContain("Issuer: CN = Factory Test CA");
    expect(text.output).toContain(`Serial Number: ${alice.serialNumber}\n`);
    expect(text.output).not.toContain(bob.serialNumber);
    const nextUpdate = /^nextUpdate=(.+)$/m.exec(text.output)?.[1];
    expect(Date.parse(nextUpdate ?? "")).toBe(seconds(now.getTime() + 30 * DAY_MS));
    expect(crl).toMatch(/^-----BEGIN X509 CRL-----\n[\s\S]+\n-----END X509 CRL-----\n$/);
    const signature = await openssl("crl", "-in", join(dir, "crl.pem"), "-noout", "-CAfile", join(dir, "ca.pem"));
    expect(signature.output).toContain("verify OK");
  });

  it("OpenSSL rejects the revoked client certificate and accepts the other", async () => {
    const crlCheck = ["verify", "-crl_check", "-CRLfile", join(dir, "crl.pem"), "-CAfile", join(dir, "ca.pem")];
    const revoked = await openssl(...crlCheck, await file("alice.pem", alice.certificate));
    expect(revoked.ok).toBe(false);
    expect(revoked.output).toContain("certificate revoked");
    const fine = await openssl(...crlCheck, await file("bob.pem", bob.certificate));
    expect(fine.ok).toBe(true);
  });

  it("a chosen serial with its top bit set is stored as that positive number and revoked by any spelling", async () => {
    const carol = await issueClientCertificate(ca, { commonName: "carol", serialNumber: "00:80", now });
    expect(carol.serialNumber).toBe("80");
    expect(new X509Certificate(carol.certificate).serialNumber).toBe("80");
    const crlFile = await file("crl-80.pem", await createRevocationList(ca, ["0x80", "80"], { now }));
    const verdict = await openssl(
      "verify", "-crl_check", "-CRLfile", crlFile, "-CAfile", join(dir, "ca.pem"),
      await file("carol.pem", carol.certificate),
    );
    expect(verdict.output).toContain("certificate revoked");
  });

  it("refuses serial numbers that are not positive hex of at most 20 octets", async () => {
    await expect(issueClientCertificate(ca, { commonName: "x", serialNumber: "0" })).rejects.toThrow(/positive/);
    await expect(issueClientCertificate(ca, { commonName: "x", serialNumber: "12g4" })).rejects.toThrow(/hex/);
    await expect(createRevocationList(ca, ["ff".repeat(20)])).rejects.toThrow(/20 octets/);
  });

  it("keeps a common name with commas and quotes verbatim", async () => {
    const odd = await issueClientCertificate(ca, { commonName: 'Doe, "J" + co\\', now });
    const subject = await openssl("x509", "-noout", "-subject", "-nameopt", "utf8,sep_multiline", "-in",
      await file("odd.pem", odd.certificate));
    expect(subject.output).toBe('subject=\n    CN=Doe, "J" + co\\\n');
  });
});

describe("key reuse and CA reuse", () => {
  it("leaves share one key pair per process unless a fresh key is asked for; the CA's key is its own", async () => {
    const modulus = (pem: string): string | undefined =>
      new X509Certificate(pem).publicKey.export({ format: "jwk" }).n;
    expect(modulus(servers.valid.certificate)).toBe(modulus(alice.certificate));
    expect(modulus(ca.certificate)).not.toBe(modulus(alice.certificate));
    const fresh = await issueServerCertificate(ca, { kind: "valid", dnsName: HOST, freshKey: true, now });
    expect(modulus(fresh.certificate)).not.toBe(modulus(servers.valid.certificate));
    expect(new X509Certificate(fresh.certificate).checkPrivateKey(createPrivateKey(fresh.privateKey))).toBe(true);
  }, SETUP_TIMEOUT_MS);

  it("a CA rebuilt from its PEM strings (e.g. read back from files) issues certificates OpenSSL accepts", async () => {
    const reloaded = { certificate: ca.certificate, privateKey: ca.privateKeyPkcs1 };
    const pair = await issueServerCertificate(reloaded, { kind: "valid", dnsName: HOST, now });
    const leaf = await file("reloaded.pem", pair.certificate);
    const verdict = await openssl("verify", "-CAfile", join(dir, "ca.pem"), leaf);
    expect(verdict.ok).toBe(true);
  });

  it("refuses a non-CA certificate or a key that is not the CA's", async () => {
    await expect(issueClientCertificate(servers.valid, { commonName: "x" })).rejects.toThrow(/not a CA/);
    await expect(
      issueClientCertificate({ certificate: ca.certificate, privateKey: alice.privateKey }, { commonName: "x" }),
    ).rejects.toThrow(/does not belong/);
  });
});
