import type { CertificateAuthority, IssuedClientCertificate, PemPair } from "../backends/certificate-factory.ts";
import type { CertificateKind } from "../scenario/scenario.ts";
import type { Subject } from "../scenario/subject-name.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { PlannedSideInput } from "../plan/plan-scenario.ts";
import type { SkippedSide } from "./scenario-run.ts";
import type { SharedClientNetworks } from "./shared-client-networks.ts";

/** What every scenario of one run shares: the engine scope, the sides' images as inspected, the helper
 * images and the run's certificate authority. */
export interface ObserveContext {
  scope: RunScope;
  /** The sides that run, baseline first. */
  sides: PlannedSideInput[];
  /** Sides that have no image (the baseline image is missing). */
  skipped: SkippedSide[];
  helperImages: { httpd: string; tools: string };
  certificates: {
    ca: CertificateAuthority;
    crl: string;
    clients: { valid: IssuedClientCertificate; revoked: IssuedClientCertificate };
    /** The server certificate of a kind and subject (for the name "server"), issued by the CA once per run: every
     * server asking for the same one presents it (run-harness.ts serverCertificates). */
    server(kind: CertificateKind, subject: Subject | null): Promise<PemPair>;
  };
  /** Send each request twice to learn noise (a scenario request can still opt out). */
  learnNoise: boolean;
  /** What a scenario may take when it names no limit of its own. */
  scenarioTimeLimitMs: number;
  /** When the whole run must end (epoch ms), or null. */
  runDeadline: number | null;
  /** The run's networks of fixed-address clients on this engine, which scenarios asking for one subnet share;
   * absent: each scenario makes its own. */
  sharedClients?: SharedClientNetworks;
  /** Whether a lane's servers run config after config in one host per seat (server/server-host.ts); default true.
   * HARNESS_REUSE=0 turns it off for a run that does not say. */
  reuseServers?: boolean;
}
