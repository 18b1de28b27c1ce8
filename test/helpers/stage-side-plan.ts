// A side of a tree's plan staged as a run stages it (files, generated certificates, environment, setup steps,
// httpd's -d/-f/-D/-C arguments), in a container that runs no server, so tests can ask the real httpd about it.
import { createCertificateAuthority, createRevocationList, issueServerCertificate, type PemPair } from "../../harness/backends/certificate-factory.ts";
import type { RunScope } from "../../harness/engine/run-scope.ts";
import type { GeneratedFile, SidePlan } from "../../harness/plan/scenario-plan.ts";
import type { ImageInspection } from "../../harness/server/inspect-image.ts";
import { type StagedHttpd, stageHttpd } from "../../harness/server/staged-httpd.ts";

let material: Promise<{ ca: PemPair; crl: string; server: PemPair }> | undefined;

/** One CA and server certificate for every staging of a test file, as a run issues one per scenario. */
function certificates(): Promise<{ ca: PemPair; crl: string; server: PemPair }> {
  material ??= (async () => {
    const ca = await createCertificateAuthority({ commonName: "httpd-upgrade-harness test CA" });
    const [crl, server] = await Promise.all([createRevocationList(ca, []), issueServerCertificate(ca, { kind: "valid", dnsName: "server" })]);
    return { ca, crl, server };
  })();
  return material;
}

async function generated(kind: GeneratedFile): Promise<string> {
  const { ca, crl, server } = await certificates();
  switch (kind) {
    case "ca-certificate":
      return ca.certificate;
    case "ca-crl":
      return crl;
    case "server-certificate":
      return server.certificate;
    case "server-key":
      return server.privateKey;
  }
}

export async function stageSidePlan(scope: RunScope, plan: SidePlan, inspection: ImageInspection, scenario: string): Promise<StagedHttpd> {
  // A tree's plan has no prepare steps of its own (a scenario's would run after `cd ServerRoot`).
  if (plan.prepare.length > 0) throw new Error(`stageSidePlan stages trees' plans only; ${scenario} has prepare steps`);
  const files = await Promise.all(
    plan.files.map(async (file) => ({
      path: file.path,
      content: "text" in file.content ? file.content.text : "base64" in file.content ? Buffer.from(file.content.base64, "base64") : await generated(file.content.generated),
      mode: file.mode,
    })),
  );
  return stageHttpd(scope, {
    inspection,
    scenario,
    config: plan.config,
    files,
    extras: { args: plan.httpd.args, environment: plan.httpd.environment, setup: plan.setup },
  });
}
