// Pure: what one side did with one probe, read from its answer and the probe world, and what shows that the
// answer reached the decision the probe stands for (its witnesses):
// - the outcome: executed (a script's or parsed page's output came back), served (the object, or other content),
//   source served (a script or page came back as its text), denied (403), auth required (401), not found (404:
//   the file system was reached, so access was granted), redirected, error (5xx, another refusal, no answer);
// - credentials: a valid probe user was accepted (it got past authentication: anything but 401, or an
//   authorization failure naming it), or refused as unknown or with a wrong password (the store did not hold it);
// - the object: planted by the world and found in the container, held by the tree, or missing;
// - the marker: what of the object came back in a 2xx body.
import type { HttpResponseOutcome } from "../../clients/outcome.ts";
import { authEvent } from "../../logs/auth-events.ts";
import { eventFamily, HANDLER_REFUSALS } from "../../logs/message-map.ts";
import type { ErrorLogRecord } from "../../logs/error-log-record.ts";
import type { ObservedWorld, RequestObservation, SideObservation } from "../../observe/observation.ts";
import { markerSeen } from "../../plan/probes/world-content.ts";
import type { SideWorldObject } from "../../plan/tree/world-staging.ts";
import type { ProbeObject } from "../../scenario/probe-world.ts";

export const OUTCOMES = ["executed", "served", "source-served", "denied", "auth-required", "not-found", "redirected", "error"] as const;
export type ProbeOutcome = (typeof OUTCOMES)[number];

/** Outcomes in which the request got past access control (a 404 means the file system was looked at). */
export const GRANTED: ReadonlySet<ProbeOutcome> = new Set(["executed", "served", "source-served", "not-found", "redirected"]);
export const REFUSED: ReadonlySet<ProbeOutcome> = new Set(["denied", "auth-required"]);

export interface SideWitness {
  outcome: ProbeOutcome;
  /** The status, or the transport error's code. */
  answer: string;
  /** For a valid user's probe: whether that side took the user in; not-sent without credentials or for the
   * wrong-password and unknown-user probes (their refusal is the point). */
  credentials: "accepted" | "refused" | "unknown" | "not-sent";
  /** What object stood behind the path: planted (and found in the container), tree, missing (planted but not
   * found), none (nothing meant to be there: a ScriptAlias directory, DirectoryIndex disabled; or no world). */
  object: "planted" | "tree" | "missing" | "none";
  /** What of the object a 2xx body showed: its output (executed), its source, its marker, the tree's file as it
   * is, other content; not-applicable without a 2xx body. */
  marker: "executed" | "source" | "seen" | "as-is" | "other" | "not-applicable";
  /** The evidence in words: "AH01631 user admin: authorization failure", "planted /srv/www/x/probe.cgi". */
  evidence: string[];
  /** For a 403 that a handler or Options gave after access control let the request in (its own log line says so:
   * a CGI directory, ExecCGI off, a forbidden directory index, a refused symlink), that line; else null. Such a
   * 403 is not an access decision: cell-class.ts does not count it as refused. */
  handlerRefusal: string | null;
}


/** What a probe asked and who it was for, as the judge needs it. */
export interface ProbeQuestion {
  url: string;
  method: string;
  host: string | null;
  port: number | null;
  credentials: "none" | "valid" | "wrong-password" | "other-realm";
  user: string | null;
  object: ProbeObject | null;
}

function header(outcome: HttpResponseOutcome, name: string): string | null {
  return outcome.headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
}

/** The side's object for a URL (by Host when several vhosts name it). */
export function sideObject(world: ObservedWorld | null, question: Pick<ProbeQuestion, "url" | "host" | "port">): SideWorldObject | null {
  if (world === null) return null;
  const url = question.url.split("?")[0]!;
  const candidates = world.objects.filter((o) => o.url === url);
  return candidates.find((o) => o.target.host === question.host && (question.port === null || o.target.port === question.port)) ?? candidates.find((o) => o.target.host === question.host) ?? candidates[0] ?? null;
}

function describe(record: ErrorLogRecord): string {
  return `${record.event ?? record.code ?? ""} ${record.message}`.trim().slice(0, 160);
}

/** Whether the side took a valid user in, from its own answer and lines, else from the side's other requests
 * (a line can be attributed to a neighbour; a refusal anywhere on the side means the store lacks the user). */
function credentialWitness(question: ProbeQuestion, request: RequestObservation, side: SideObservation): Pick<SideWitness, "credentials" | "evidence"> {
  if (question.credentials !== "valid" || question.user === null) return { credentials: "not-sent", evidence: [] };
  const user = question.user;
  const about = (records: readonly ErrorLogRecord[]) => records.map((r) => ({ record: r, event: authEvent(r) })).filter((e) => e.event !== null && (e.event.user === user || e.event.user === null));
  const own = about(request.errorLog);
  const refusal = own.find((e) => e.event!.kind === "unknown-user" || e.event!.kind === "password-mismatch" || e.event!.kind === "store-unreadable");
  if (refusal) return { credentials: "refused", evidence: [describe(refusal.record)] };
  const authz = own.find((e) => e.event!.kind === "authz-denied");
  if (authz) return { credentials: "accepted", evidence: [describe(authz.record)] };
  if (request.outcome.kind === "response" && request.outcome.status !== 401) return { credentials: "accepted", evidence: [`${user} answered ${request.outcome.status}`] };
  const elsewhere = about([...side.requests.flatMap((r) => r.errorLog), ...side.trailingLog]);
  const refusedElsewhere = elsewhere.find((e) => e.event!.kind === "unknown-user" || e.event!.kind === "password-mismatch");
  if (refusedElsewhere) return { credentials: "refused", evidence: [`on this side: ${describe(refusedElsewhere.record)}`] };
  return { credentials: "unknown", evidence: ["401 with no line saying whether the user was known"] };
}

function objectWitness(object: SideWorldObject | null, world: ObservedWorld | null): Pick<SideWitness, "object"> & { evidence: string | null } {
  if (world === null) return { object: "none", evidence: null };
  if (object === null) return { object: "missing", evidence: "the world has no object for this path" };
  if (object.held === "tree") return { object: "tree", evidence: `the tree holds ${object.path}` };
  // Nothing was meant to be there (a ScriptAlias directory, DirectoryIndex disabled): the answer is the config's.
  if (object.held === "none") return { object: "none", evidence: object.reason ?? "nothing planted" };
  if (object.path !== null && world.missing.includes(object.path)) return { object: "missing", evidence: `${object.path} was planted but not found in the container` };
  return { object: "planted", evidence: `planted ${object.path} (${object.kind}, ${object.marker})` };
}

export function sideWitness(question: ProbeQuestion, request: RequestObservation | undefined, side: SideObservation): SideWitness {
  if (request === undefined) {
    return { outcome: "error", answer: "not sent", credentials: "unknown", object: "none", marker: "not-applicable", evidence: ["the request was not sent"], handlerRefusal: null };
  }
  const world = side.world;
  const object = sideObject(world, question);
  const objectSeen = objectWitness(object, world);
  const credentials = credentialWitness(question, request, side);
  const evidence = [...credentials.evidence, ...(objectSeen.evidence === null ? [] : [objectSeen.evidence])];
  const base = { credentials: credentials.credentials, object: objectSeen.object, evidence, handlerRefusal: null };
  const outcome = request.outcome;
  if (outcome.kind !== "response") {
    const answer = outcome.kind === "transport-error" ? outcome.code : outcome.kind === "not-run" ? `not run: ${outcome.reason}` : "exec";
    return { ...base, outcome: "error", answer, marker: "not-applicable" };
  }
  const status = outcome.status;
  const answer = String(status);
  if (status === 401) return { ...base, outcome: "auth-required", answer, marker: "not-applicable" };
  if (status === 403) {
    const families = request.errorLog.map((record) => eventFamily(record.event) ?? "");
    const handler = families.includes("client-denied") ? undefined : request.errorLog.find((_, i) => HANDLER_REFUSALS.has(families[i]!));
    if (handler === undefined) return { ...base, outcome: "denied", answer, marker: "not-applicable" };
    const handlerRefusal = describe(handler);
    return { ...base, evidence: [...evidence, handlerRefusal], outcome: "denied", answer, marker: "not-applicable", handlerRefusal };
  }
  if (status === 404 || status === 410) return { ...base, outcome: "not-found", answer, marker: "not-applicable" };
  if (status >= 300 && status < 400) return { ...base, outcome: "redirected", answer: `${status} ${header(outcome, "location") ?? ""}`.trim(), marker: "not-applicable" };
  if (status < 200 || status >= 300) return { ...base, outcome: "error", answer, marker: "not-applicable" };
  // No body to look at (HEAD, or one the client did not read): granted, but what it was cannot be told.
  if (question.method.toUpperCase() === "HEAD") return { ...base, outcome: "served", answer, marker: "not-applicable" };
  if (object === null || object.held === "none" || objectSeen.object === "missing" || objectSeen.object === "none") return { ...base, outcome: "served", answer, marker: "other" };
  if (object.held === "tree") {
    const asIs = object.sha256 !== null && outcome.bodySha256 === object.sha256;
    const script = object.kind === "cgi" || object.kind === "ssi";
    return { ...base, outcome: asIs ? (script ? "source-served" : "served") : script ? "executed" : "served", answer, marker: asIs ? "as-is" : "other" };
  }
  const seen = markerSeen(object.kind, object.marker ?? "", outcome.body);
  if (seen === "executed") return { ...base, outcome: "executed", answer, marker: "executed" };
  if (seen === "source") return { ...base, outcome: "source-served", answer, marker: "source" };
  return { ...base, outcome: "served", answer, marker: seen === "marker" ? "seen" : "other" };
}
