import type { CertificateAuthority, IssuedClientCertificate } from "../backends/certificate-factory.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { ImageInspection } from "../server/inspect-image.ts";
import type { Side } from "./observation.ts";

/** What every scenario of one run shares: the engine scope, the two images as inspected, the helper images
 * and the run's certificate authority. */
export interface RunContext {
  scope: RunScope;
  sides: Partial<Record<Side, ImageInspection>>;
  /** Why a side has no image (the baseline image is missing). */
  skipped: Partial<Record<Side, string>>;
  helperImages: { httpd: string; tools: string };
  certificates: {
    ca: CertificateAuthority;
    crl: string;
    clients: { valid: IssuedClientCertificate; revoked: IssuedClientCertificate };
  };
  /** Send each request twice to learn noise (a scenario request can still opt out). */
  learnNoise: boolean;
}
