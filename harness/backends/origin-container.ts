// Helper origins a scenario's server talks to, on the scenario network under the backend's name: HTTP and
// HTTPS origins (an httpd 2.4 from the harness's own image, with a harness-made certificate) and an SCGI
// origin (the tools image). The certificate decides what the server under test meets: valid, expired, ...
// On a lane, a backend joins an origin seat (origin-seat.ts) that carries its name and address on the network.
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { HarnessError } from "../errors.ts";
import type { BackendSpec } from "../scenario/scenario.ts";
import { FAMILY_TRAITS } from "../server/family-traits.ts";
import { inlineBundle, packBundle } from "../server/site-bundle.ts";
import { stagingLines } from "../server/start-script.ts";
import { backendPort } from "./backend-ports.ts";
import { type CertificateAuthority, issueServerCertificate } from "./certificate-factory.ts";
import type { OriginSeat } from "./origin-seat.ts";

export interface StartedOrigin {
  name: string;
  host: string;
  ip: string;
  port: number;
  container: HarnessContainer;
}

export interface OriginImages {
  httpd: string;
  tools: string;
}

const ORIGIN_ROOT = "/usr/local/apache2";
/** The HTTP and HTTPS origins run the harness's own httpd 2.4 image: its base modules, its ready line. */
const ORIGIN_HTTPD = FAMILY_TRAITS["2.4"];

function originConfig(tls: boolean): string {
  const modules = [...ORIGIN_HTTPD.baseModules, ...(tls ? ["ssl", "socache_shmcb"] : [])];
  return [
    `ServerRoot "${ORIGIN_ROOT}"`,
    tls ? "Listen 443" : "Listen 80",
    ...modules.map((m) => `LoadModule ${m}_module modules/mod_${m}.so`),
    "User daemon",
    "Group daemon",
    "ServerName origin",
    "ErrorLog /proc/self/fd/2",
    "LogLevel warn",
    'LogFormat "%h %l %u %t \\"%r\\" %>s %b" common',
    "CustomLog /proc/self/fd/1 common",
    "TypesConfig conf/mime.types",
    "DirectoryIndex index.html",
    `DocumentRoot "${ORIGIN_ROOT}/htdocs"`,
    `<Directory "${ORIGIN_ROOT}/htdocs">`,
    "    Require all granted",
    "</Directory>",
    ...(tls
      ? ["SSLEngine on", "SSLCertificateFile /harness/origin.crt", "SSLCertificateKeyFile /harness/origin.key"]
      : []),
    "",
  ].join("\n");
}

export async function startOrigin(
  scope: RunScope,
  spec: BackendSpec,
  context: { scenario: string; network: string; images: OriginImages; ca: CertificateAuthority; seat?: OriginSeat },
): Promise<StartedOrigin> {
  const { seat } = context;
  const place = seat ? { joinNetworkOf: seat.holder.id } : { network: { name: context.network, aliases: [spec.name] } };
  const files = spec.files.map((f) => ({ path: `${ORIGIN_ROOT}/htdocs/${f.path}`, content: f.content, mode: f.mode }));
  let container: HarnessContainer;
  const port = backendPort(spec.kind);
  let ready: RegExp;
  if (spec.kind === "scgi-origin") {
    ready = /scgi origin listening/;
    container = await HarnessContainer.create(scope, {
      image: context.images.tools,
      role: "backend",
      scenario: context.scenario,
      command: ["python3", "/usr/local/bin/scgi-origin.py", String(port)],
      ...place,
    });
  } else {
    const tls = spec.kind === "https-origin";
    ready = ORIGIN_HTTPD.readyLog;
    const certificate = tls ? await issueServerCertificate(context.ca, { kind: spec.certificate, dnsName: spec.name }) : null;
    const archive = await packBundle([
      { path: `${ORIGIN_ROOT}/conf/httpd.conf`, content: originConfig(tls) },
      ...(certificate
        ? [
            { path: "/harness/origin.crt", content: certificate.certificate },
            { path: "/harness/origin.key", content: certificate.privateKey, mode: 0o600 },
          ]
        : []),
      ...(files.length > 0 ? files : [{ path: `${ORIGIN_ROOT}/htdocs/index.html`, content: `hello from ${spec.name}\n` }]),
    ]);
    // Its files travel in its command line where they fit, extracted by the image's own tar, as a server's do: the
    // engine's archive copy costs a dockerd started anew.
    const inline = inlineBundle(archive);
    container = await HarnessContainer.create(scope, {
      image: context.images.httpd,
      role: "backend",
      scenario: context.scenario,
      ...(inline === null
        ? { entrypoint: ["httpd", "-DFOREGROUND"], command: [], archive }
        : { entrypoint: ["/bin/sh", "-c"], command: [[...stagingLines("/", inline.gzip), "exec httpd -DFOREGROUND"].join("\n"), "origin", inline.base64] }),
      ...place,
    });
  }
  await container.start();
  const stream = spec.kind === "scgi-origin" ? container.stdout : container.stderr;
  if ((await stream.waitForLine((line) => ready.test(line), { timeoutMs: 20_000 })) < 0) {
    throw new HarnessError("HARNESS_CONTAINER", `The ${spec.kind} backend '${spec.name}' did not start.`, {
      hint: `Its last lines:\n${[...container.stderr.lines, ...container.stdout.lines].slice(-10).join("\n")}`,
    });
  }
  return { name: spec.name, host: spec.name, ip: seat ? seat.address : await container.ipAddress(context.network), port, container };
}
