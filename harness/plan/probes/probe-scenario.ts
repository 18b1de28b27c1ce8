// A probe set as scenario clients and requests, and its users written into a tree's own user files (in memory,
// the same lines on both sides), so that "valid credentials" means the same thing to both servers.
import { createHash } from "node:crypto";
import { posix } from "node:path";
import type { ConfigTree } from "../../conf/load-tree.ts";
import type { SourcePosition } from "../../errors.ts";
import type { BasicAuth, ClientSpec, RequestSpec } from "../../scenario/scenario.ts";
import { generatedRequest } from "../tree/generated-request.ts";
import { OTHER_REALM_USER, PROBE_USER, WRONG_PASSWORD } from "./generate-probes.ts";
import type { Probe, ProbeSet, ProbeUser } from "./probe.ts";

const BUILT_IN = new Set(["host", "localhost", "localhost6"]);
const PROBE_TIMEOUT_MS = 10_000;

export function validUserOf(set: ProbeSet): string {
  return set.users.find((u) => u.kind === "basic")?.user ?? PROBE_USER.user;
}

function authOf(probe: Probe, user: string): BasicAuth | null {
  switch (probe.credentials) {
    case "none":
      return null;
    case "valid":
      return { user, password: PROBE_USER.password };
    case "wrong-password":
      return { user, password: WRONG_PASSWORD };
    case "other-realm":
      return { ...OTHER_REALM_USER };
  }
}

export function probeRequests(set: ProbeSet, at: SourcePosition): { clients: ClientSpec[]; requests: RequestSpec[] } {
  const used = new Set(set.probes.map((p) => p.client));
  const clients: ClientSpec[] = set.clients
    .filter((c) => used.has(c.id) && !BUILT_IN.has(c.id))
    .map((c) => ({ at, name: c.id, address: c.address, domain: c.domain }));
  const user = validUserOf(set);
  // One client's probes in a row: the observer sends a run of one client's requests in one exec.
  const order = new Map(set.clients.map((c, i) => [c.id, i]));
  const probes = [...set.probes].sort((a, b) => (order.get(a.client) ?? 0) - (order.get(b.client) ?? 0));
  const requests = probes.map((probe) => generatedRequest({
    at,
    name: probe.id,
    client: probe.client,
    method: probe.method,
    path: probe.path,
    host: probe.target.host,
    port: probe.target.port,
    body: probe.method === "POST" ? "probe=1" : null,
    auth: authOf(probe, user),
    tls: probe.target.tls,
    repeat: false,
    timeoutMs: PROBE_TIMEOUT_MS,
  }));
  return { clients, requests };
}

function userLine(user: ProbeUser): string {
  if (user.kind === "group") return `${user.password}: ${user.user}`;
  if (user.kind === "digest") return `${user.user}:${user.realm ?? ""}:${createHash("md5").update(`${user.user}:${user.realm ?? ""}:${user.password}`).digest("hex")}`;
  // {SHA}: read by 2.2's and 2.4's apr_password_validate alike.
  return `${user.user}:{SHA}${createHash("sha1").update(user.password).digest("base64")}`;
}

/** The tree with the probe users appended to the user and group files it holds (a file the config names but the
 * tree lacks, under the tree's mount, is made). Files outside the mount are left: their cells say so. With
 * `replace`, a user file's lines for the same user go first: the first line of a name is the one httpd checks
 * (mod_authn_file), so a user the file already has gets the probe password only this way (replayed log users). */
export function withProbeUsers(tree: ConfigTree, users: readonly ProbeUser[], options: { replace?: boolean } = {}): ConfigTree {
  if (users.length === 0) return tree;
  const files = new Map(tree.source.files);
  const directories = new Set(tree.source.directories);
  const mount = tree.source.mount.replace(/\/+$/, "");
  for (const user of users) {
    if (!(user.file === mount || user.file.startsWith(`${mount}/`) || mount === "")) continue;
    const relative = posix.relative(mount === "" ? "/" : mount, user.file);
    if (relative.startsWith("..")) continue;
    const path = tree.source.links.get(relative) ?? relative;
    const held = files.get(path)?.toString("utf8") ?? "";
    const before = options.replace === true && user.kind === "basic" ? held.split("\n").filter((l) => !l.startsWith(`${user.user}:`)).join("\n") : held;
    const line = userLine(user);
    if (before.split("\n").includes(line)) continue;
    files.set(path, Buffer.from(`${before}${before === "" || before.endsWith("\n") ? "" : "\n"}${line}\n`, "utf8"));
    for (let dir = posix.dirname(path); dir !== "." && dir !== ""; dir = posix.dirname(dir)) directories.add(dir);
  }
  return { ...tree, source: { ...tree.source, files, directories } };
}
