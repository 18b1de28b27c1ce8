// Pure: which Docker engine the environment names, decided once for `run`, `images`, the tests and
// scripts/ensure-engine.sh (through `httpd-upgrade-harness engine`). The first of these that names one wins:
//
//   1. DOCKER_HOST (unix://, tcp://, http(s)://, ssh://), with DOCKER_TLS_VERIFY / DOCKER_TLS and DOCKER_CERT_PATH
//   2. DOCKER_CONTEXT, a docker context by name
//   3. docker.host in ~/.testcontainers.properties (with docker.tls.verify, docker.cert.path)
//   4. the current docker context: currentContext in $DOCKER_CONFIG/config.json (~/.docker/config.json), its
//      endpoint in contexts/meta/<sha256 of the name>/meta.json, its TLS files in contexts/tls/<sha256>/docker/
//   5. nothing named: the default socket unix:///var/run/docker.sock
//
// This is the docker CLI's order (DOCKER_HOST over DOCKER_CONTEXT over the current context) with testcontainers'
// properties file, which only tools like this one read, before the CLI's everyday setting. The harness never
// tries another engine when the named one does not answer (engine/engine.ts).
import { createHash } from "node:crypto";
import { join } from "node:path";

export interface EngineTls {
  /** Verify the engine's certificate against ca.pem. */
  verify: boolean;
  /** A directory holding ca.pem, cert.pem and key.pem. */
  certPath: string;
}

export interface EngineTarget {
  /** unix:///var/run/docker.sock, tcp://host:2376, ssh://user@host ... */
  url: string;
  /** What named it, for messages: "DOCKER_HOST", "docker context remote (DOCKER_CONTEXT)", ... */
  source: string;
  /** False only for the default socket, which nothing named. */
  named: boolean;
  tls: EngineTls | null;
}

export interface EngineEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** A file's text, or null when it cannot be read. */
  readText: (path: string) => string | null;
  /** Whether a path exists (a context's TLS directory). */
  exists: (path: string) => boolean;
}

export const DEFAULT_ENGINE_URL = "unix:///var/run/docker.sock";

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

/** Pure: `key=value` lines, `#` and `!` comments. */
export function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    const match = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
    if (match) out[match[1]!] = match[2]!.trim();
  }
  return out;
}

function dockerConfigDir(environment: EngineEnvironment): string {
  return environment.env.DOCKER_CONFIG || join(environment.home, ".docker");
}

function contextTarget(environment: EngineEnvironment, name: string, source: string): EngineTarget {
  const dir = dockerConfigDir(environment);
  const id = createHash("sha256").update(name).digest("hex");
  const metaPath = join(dir, "contexts", "meta", id, "meta.json");
  const text = environment.readText(metaPath);
  let host: string | undefined;
  let skipVerify = false;
  if (text !== null) {
    try {
      const meta = JSON.parse(text) as { Endpoints?: { docker?: { Host?: string; SkipTLSVerify?: boolean } } };
      host = meta.Endpoints?.docker?.Host;
      skipVerify = meta.Endpoints?.docker?.SkipTLSVerify === true;
    } catch {
      host = undefined;
    }
  }
  // A context that cannot be read still names an engine: the run must fail on it, not pick another.
  if (!host) return { url: `docker-context://${name}`, source: `${source} (no endpoint in ${metaPath})`, named: true, tls: null };
  const tlsDir = join(dir, "contexts", "tls", id, "docker");
  const tls = environment.exists(join(tlsDir, "ca.pem")) || environment.exists(join(tlsDir, "cert.pem")) ? { verify: !skipVerify, certPath: tlsDir } : null;
  return { url: host, source, named: true, tls };
}

/** Pure (given its environment): the engine named by the environment; see the top of the file for the order. */
export function resolveEngineTarget(environment: EngineEnvironment): EngineTarget {
  const { env } = environment;
  const certPath = env.DOCKER_CERT_PATH || dockerConfigDir(environment);
  if (env.DOCKER_HOST) {
    const verify = truthy(env.DOCKER_TLS_VERIFY);
    const tls = verify || truthy(env.DOCKER_TLS) ? { verify, certPath } : null;
    return { url: env.DOCKER_HOST, source: "DOCKER_HOST", named: true, tls };
  }
  if (env.DOCKER_CONTEXT && env.DOCKER_CONTEXT !== "default") {
    return contextTarget(environment, env.DOCKER_CONTEXT, `docker context ${env.DOCKER_CONTEXT} (DOCKER_CONTEXT)`);
  }
  const propertiesPath = join(environment.home, ".testcontainers.properties");
  const propertiesText = environment.readText(propertiesPath);
  if (propertiesText !== null) {
    const properties = parseProperties(propertiesText);
    const host = properties["docker.host"];
    if (host) {
      const verify = truthy(properties["docker.tls.verify"]);
      const path = properties["docker.cert.path"];
      return { url: host, source: `docker.host in ${propertiesPath}`, named: true, tls: verify || path ? { verify, certPath: path || certPath } : null };
    }
  }
  const configPath = join(dockerConfigDir(environment), "config.json");
  const configText = environment.readText(configPath);
  if (configText !== null) {
    let current: string | undefined;
    try {
      current = (JSON.parse(configText) as { currentContext?: string }).currentContext;
    } catch {
      current = undefined;
    }
    if (current && current !== "default") return contextTarget(environment, current, `docker context ${current} (currentContext in ${configPath})`);
  }
  return { url: DEFAULT_ENGINE_URL, source: "the default socket; nothing names an engine", named: false, tls: null };
}

/** Pure: whether the engine is on another machine (its published ports are reached on its host, not here). */
export function isRemoteEngine(url: string): boolean {
  return /^(tcp|https?|ssh):\/\//.test(url);
}

/** Pure: a one-line name for messages, e.g. "tcp://127.0.0.1:1 (DOCKER_HOST)". */
export function describeEngineTarget(target: EngineTarget): string {
  return `${target.url} (${target.source})`;
}

/** What names an engine given with `--engines` (as the `source` of its target). */
export const ENGINES_OPTION = "--engines";

/** One engine of `--engines`, and how many scenarios it runs at once (null: sized by the run). */
export interface EngineSlot {
  target: EngineTarget;
  concurrency: number | null;
}

/** Pure: `--engines ADDR[=N],...`, each ADDR as DOCKER_HOST would name it (unix://, tcp://, ssh://, https://);
 * `=N` runs N scenarios at once there. TLS (tcp:// with DOCKER_TLS_VERIFY, or https://) reads DOCKER_CERT_PATH as
 * DOCKER_HOST does. Returns an error sentence instead of slots when the list is not of that form. */
export function parseEngineList(value: string, env: Readonly<Record<string, string | undefined>> = {}): EngineSlot[] | string {
  const entries = value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (entries.length === 0) return "it names no engine";
  const slots: EngineSlot[] = [];
  for (const entry of entries) {
    const match = /^(.*?)(?:=(\d+))?$/.exec(entry)!;
    const url = match[1]!;
    if (!/^(unix|tcp|ssh|https?):\/\/./.test(url)) return `${JSON.stringify(url)} is not an engine address (unix:///path, tcp://host:port, ssh://user@host, https://host:port)`;
    const concurrency = match[2] === undefined ? null : Number(match[2]);
    if (concurrency !== null && concurrency < 1) return `${JSON.stringify(entry)} asks for ${concurrency} scenarios at once; give 1 or more`;
    if (slots.some((slot) => slot.target.url === url)) return `${url} is named twice`;
    const verify = truthy(env.DOCKER_TLS_VERIFY);
    const tls = url.startsWith("https://") || (url.startsWith("tcp://") && (verify || truthy(env.DOCKER_TLS)))
      ? { verify: verify || url.startsWith("https://"), certPath: env.DOCKER_CERT_PATH || join(env.HOME ?? "", ".docker") }
      : null;
    slots.push({ target: { url, source: ENGINES_OPTION, named: true, tls }, concurrency });
  }
  return slots;
}
