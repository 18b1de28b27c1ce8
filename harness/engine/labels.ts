import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

// The labels of what the harness makes. Clean-up selects containers and networks by LABEL_RUN_ID, which only the
// harness sets, on the containers and networks it creates: images carry image labels only (LABEL_IMAGE,
// LABEL_RECIPE_HASH), because Docker copies an image's labels to every container made from it, and a container a
// user starts from a harness image must never look like the harness's.
/** Carried by what versions before leases made, images included; nothing selects by it now, and nothing the harness
 * makes carries it any more (those versions' sweeps select by it, and would remove a live run's containers). */
export const LABEL_APP = "io.httpd-upgrade-harness";
/** The selector of clean-up: one run of the harness. Never on an image. */
export const LABEL_RUN_ID = "io.httpd-upgrade-harness.run-id";
/** The process that made it: a random id per process, or the CI job (see `sessionId`). */
export const LABEL_SESSION = "io.httpd-upgrade-harness.session";
/** The lease length the creating run renews its lease by, in seconds (see engine/lease.ts). */
export const LABEL_LEASE_SECONDS = "io.httpd-upgrade-harness.lease-seconds";
/** On a run's lease volume only: when the lease ends, in the engine's clock (ISO 8601). */
export const LABEL_LEASE_EXPIRES = "io.httpd-upgrade-harness.lease-expires";
/** On a run's lease volume only: the process that renews it (engine/lease-holder.ts), for a sweep that can see it. */
export const LABEL_LEASE_HOLDER = "io.httpd-upgrade-harness.lease-holder";
export const LABEL_ROLE = "io.httpd-upgrade-harness.role";
/** On a claim's place in line only (engine/claim-queue.ts): what it waits for (a subnet), and since when in the
 * engine's clock (epoch ms). */
export const LABEL_CLAIM_KEY = "io.httpd-upgrade-harness.claim-key";
export const LABEL_CLAIM_SINCE = "io.httpd-upgrade-harness.claim-since";
export const LABEL_SCENARIO = "io.httpd-upgrade-harness.scenario";
/** The container ports a container publishes on the host, as its create asked the engine (`80,443`); absent when
 * none. The engine's events carry a container's labels, so what a short-lived container published can be told
 * from its create event, without looking at it while it lives. */
export const LABEL_PUBLISHES = "io.httpd-upgrade-harness.publishes";
/** On images only. */
export const LABEL_IMAGE = "io.httpd-upgrade-harness.image";
export const LABEL_RECIPE_HASH = "io.httpd-upgrade-harness.recipe-hash";
/** Informational only (`docker ps` shows who made a container): a pid means nothing in another pid namespace or
 * on another machine, so clean-up never reads them (a lease's holder, LABEL_LEASE_HOLDER, says where it means
 * something). */
export const LABEL_OWNER_PID = "io.httpd-upgrade-harness.owner-pid";
export const LABEL_OWNER_HOST = "io.httpd-upgrade-harness.owner-host";

export type ResourceRole = "server" | "seat" | "backend" | "client" | "probe" | "lease" | "claim";

/** The default lease, in seconds; HARNESS_LEASE_SECONDS changes it. */
export const DEFAULT_LEASE_SECONDS = 60;

/** Pure: HARNESS_LEASE_SECONDS when it is a positive number, the default otherwise. */
export function leaseSeconds(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.HARNESS_LEASE_SECONDS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_LEASE_SECONDS;
}

/** Pure: the session a process's resources carry. HARNESS_SESSION when set; else the CI job (GitHub Actions:
 * `gh-<GITHUB_RUN_ID>-<GITHUB_RUN_ATTEMPT>-<GITHUB_JOB>`, GitLab: `gl-<CI_JOB_ID>`, Jenkins: `BUILD_TAG`); else
 * null (the caller draws a random id). Labels are informational and group a job's resources for `docker ps
 * --filter`; clean-up decides by the run's lease, never by the session. */
export function sessionFromEnv(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.HARNESS_SESSION) return env.HARNESS_SESSION;
  if (env.GITHUB_RUN_ID && env.GITHUB_JOB) return `gh-${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? "1"}-${env.GITHUB_JOB}`;
  if (env.CI_JOB_ID) return `gl-${env.CI_JOB_ID}`;
  if (env.BUILD_TAG) return env.BUILD_TAG;
  return null;
}

let session: string | undefined;

/** This process's session, decided once. */
export function sessionId(): string {
  session ??= sessionFromEnv(process.env) ?? `s-${randomBytes(6).toString("hex")}`;
  return session;
}

export function resourceLabels(runId: string, role: ResourceRole, scenario?: string): Record<string, string> {
  return {
    [LABEL_RUN_ID]: runId,
    [LABEL_SESSION]: sessionId(),
    [LABEL_LEASE_SECONDS]: String(leaseSeconds()),
    [LABEL_ROLE]: role,
    [LABEL_OWNER_PID]: String(process.pid),
    [LABEL_OWNER_HOST]: hostname(),
    ...(scenario === undefined ? {} : { [LABEL_SCENARIO]: scenario }),
  };
}

/** The engine's list filter for what the harness made: one run's resources, or every run's. It selects by the run
 * label, which no image carries, so a user's container from a harness image is never listed. */
export function harnessResourceFilters(runId?: string): { label: string[] } {
  return { label: [runId ? `${LABEL_RUN_ID}=${runId}` : LABEL_RUN_ID] };
}

/** The labels a harness-built image carries: never LABEL_RUN_ID (see above). */
export function imageLabels(recipeHash: string): Record<string, string> {
  return { [LABEL_IMAGE]: "true", [LABEL_RECIPE_HASH]: recipeHash };
}
