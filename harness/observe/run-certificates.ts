// The certificates one harness run shares: its CA, the CA's revocation list, the two client certificates
// scenarios present, and the server certificates, each kind and subject issued once.
import { type CertificateAuthority, createCertificateAuthority, createRevocationList, issueClientCertificate, issueServerCertificate, type PemPair } from "../backends/certificate-factory.ts";
import type { CertificateKind } from "../scenario/scenario.ts";
import type { Subject } from "../scenario/subject-name.ts";
import type { ObserveContext } from "./observe-context.ts";

/** The run's certificate authority, its revocation list and the two client certificates scenarios present. */
export async function runCertificates(): Promise<ObserveContext["certificates"]> {
  const ca = await createCertificateAuthority({ commonName: "httpd-upgrade-harness test CA" });
  const [valid, revoked] = await Promise.all([
    issueClientCertificate(ca, { commonName: "client-valid" }),
    issueClientCertificate(ca, { commonName: "client-revoked" }),
  ]);
  const crl = await createRevocationList(ca, [revoked.serialNumber]);
  return { ca, crl, clients: { valid, revoked }, server: serverCertificates(ca) };
}

/** Server certificates by kind and subject, each issued once for the run: a fleet's servers all ask for the same
 * one, and building and signing it again for each (X.509 encoding in JS, an RSA signature) was harness CPU per
 * config for a certificate that said the same. Its dates are fixed from the first issue: a valid one holds from a
 * day back for a year, longer than any run. */
export function serverCertificates(ca: CertificateAuthority): ObserveContext["certificates"]["server"] {
  const issued = new Map<string, Promise<PemPair>>();
  return (kind: CertificateKind, subject: Subject | null) => {
    const key = JSON.stringify([kind, subject]);
    let certificate = issued.get(key);
    if (certificate === undefined) {
      certificate = issueServerCertificate(ca, { kind, dnsName: "server", ipAddresses: [], ...(subject === null ? {} : { subject }) });
      // A failed issue is not kept: the next server asks again.
      certificate.catch(() => issued.delete(key));
      issued.set(key, certificate);
    }
    return certificate;
  };
}
