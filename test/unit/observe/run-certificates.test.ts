// A run's server certificates (observe/run-certificates.ts): each kind and subject issued once by the run's CA,
// and every server asking for it presents that one.
import { X509Certificate } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { type CertificateAuthority, createCertificateAuthority } from "../../../harness/backends/certificate-factory.ts";
import { serverCertificates } from "../../../harness/observe/run-certificates.ts";

describe("a run's server certificates", () => {
  let ca: CertificateAuthority;
  beforeAll(async () => {
    ca = await createCertificateAuthority({ commonName: "run-certificates test CA" });
  });

  it("give every server asking for one kind and subject the same certificate, issued by the run's CA for the name server", async () => {
    const server = serverCertificates(ca);
    const [first, second] = await Promise.all([server("valid", null), server("valid", null)]);
    const third = await server("valid", null);
    expect(second.certificate).toBe(first.certificate);
    expect(third.certificate).toBe(first.certificate);
    expect(third.privateKey).toBe(first.privateKey);
    const certificate = new X509Certificate(first.certificate);
    expect(certificate.checkIssued(new X509Certificate(ca.certificate))).toBe(true);
    expect(certificate.subjectAltName).toBe("DNS:server");
  });

  it("issue another for another kind or subject", async () => {
    const server = serverCertificates(ca);
    const valid = await server("valid", null);
    const expired = await server("expired", null);
    const named = await server("valid", [{ attribute: "O", value: "Example" }, { attribute: "CN", value: "server" }]);
    const serials = [valid, expired, named].map((pair) => new X509Certificate(pair.certificate).serialNumber);
    expect(new Set(serials).size).toBe(3);
    expect(new Date(new X509Certificate(expired.certificate).validTo).getTime()).toBeLessThan(Date.now());
    expect(new X509Certificate(named.certificate).subject).toContain("O=Example");
    // Asked again, each is the one issued before.
    expect((await server("expired", null)).certificate).toBe(expired.certificate);
  });

  it("keep no certificate between runs: another run's CA issues its own", async () => {
    const other = await createCertificateAuthority({ commonName: "another run's CA" });
    const [ours, theirs] = await Promise.all([serverCertificates(ca)("valid", null), serverCertificates(other)("valid", null)]);
    expect(theirs.certificate).not.toBe(ours.certificate);
    expect(new X509Certificate(theirs.certificate).checkIssued(new X509Certificate(other.certificate))).toBe(true);
  });
});
