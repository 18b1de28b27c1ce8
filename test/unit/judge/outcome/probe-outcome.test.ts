// A side's outcome for a probe from its answer and the probe world: what ran, what was served as text, what was
// refused; and the witnesses: a valid user taken in or refused (from its own lines, else the side's), the object
// planted, held by the tree (known by digest) or missing.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { HttpResponseOutcome } from "../../../../harness/clients/outcome.ts";
import { differenceClass, witnessChange, witnessClass } from "../../../../harness/judge/outcome/cell-class.ts";
import { type ProbeQuestion, sideWitness } from "../../../../harness/judge/outcome/probe-outcome.ts";
import { parseErrorLogLine } from "../../../../harness/logs/parse-error-log.ts";
import type { ObservedWorld, RequestObservation, SideObservation } from "../../../../harness/observe/observation.ts";
import { markerOf, objectText } from "../../../../harness/plan/probes/world-content.ts";

const TARGET = { host: null, port: 80, tls: false };
const MARK = markerOf("/cgi-bin/probe.cgi");
const SCRIPT = objectText("cgi", MARK).text;
const TREE_PAGE = "<p>own</p>\n";

const world: ObservedWorld = {
  objects: [
    { target: TARGET, url: "/cgi-bin/probe.cgi", path: "/srv/cgi-bin/probe.cgi", held: "planted", kind: "cgi", marker: MARK, sha256: null, reason: null },
    { target: TARGET, url: "/own/", path: "/srv/www/own/index.html", held: "tree", kind: "index", marker: null, sha256: createHash("sha256").update(TREE_PAGE).digest("hex"), reason: null },
    { target: TARGET, url: "/lost", path: "/srv/www/lost", held: "planted", kind: "static", marker: markerOf("/lost"), sha256: null, reason: null },
  ],
  stores: [],
  users: ["probe-user"],
  missing: ["/srv/www/lost"],
  identityFailures: [],
};

function ask(url: string, extra: Partial<ProbeQuestion> = {}): ProbeQuestion {
  return { url, method: "GET", host: null, port: 80, credentials: "none", user: null, object: null, ...extra };
}

function answer(status: number, body = ""): HttpResponseOutcome {
  return { kind: "response", status, httpVersion: "1.1", headers: [], body, bodyBytes: body.length, bodySha256: createHash("sha256").update(body).digest("hex"), durationMs: 1 };
}

function request(outcome: RequestObservation["outcome"], lines: string[] = []): RequestObservation {
  return { name: "p", client: "c", outcome, repeat: null, errorLog: lines.map((l) => parseErrorLogLine(`[Mon Dec 07 10:57:17 2026] [error] [client 10.0.0.9] ${l}`, "2.2")), repeatErrorLog: null };
}

function side(requests: RequestObservation[] = []): SideObservation {
  return { requests, trailingLog: [], world } as unknown as SideObservation;
}

describe("sideWitness", () => {
  it("tells a script that ran from one served as its text, by what the output holds", () => {
    expect(sideWitness(ask("/cgi-bin/probe.cgi"), request(answer(200, `executed-${MARK}\n`)), side())).toMatchObject({ outcome: "executed", marker: "executed", object: "planted" });
    expect(sideWitness(ask("/cgi-bin/probe.cgi"), request(answer(200, SCRIPT)), side())).toMatchObject({ outcome: "source-served", marker: "source" });
  });

  it("knows the tree's own file by its digest, and a missing object as missing", () => {
    expect(sideWitness(ask("/own/"), request(answer(200, TREE_PAGE)), side())).toMatchObject({ outcome: "served", marker: "as-is", object: "tree" });
    expect(sideWitness(ask("/lost"), request(answer(404)), side())).toMatchObject({ outcome: "not-found", object: "missing" });
  });

  it("reads statuses as outcomes: 401, 403, 404, redirects, errors and no answer", () => {
    const outcome = (r: RequestObservation["outcome"]) => sideWitness(ask("/x"), request(r), side()).outcome;
    expect([401, 403, 404, 301, 500, 405].map((s) => outcome(answer(s)))).toEqual(["auth-required", "denied", "not-found", "redirected", "error", "error"]);
    expect(outcome({ kind: "transport-error", code: "ECONNRESET", message: "", durationMs: 1 })).toBe("error");
  });

  // Recorded on 2.2.34 (GET /icinga/cgi-bin/ under a ScriptAlias; GET /nox/probe.cgi under Options None): the 403
  // comes from mod_cgi after access control let the request in.
  it("names a 403 a handler gave after access control, and only that one", () => {
    const dir = sideWitness(ask("/x/"), request(answer(403), ["attempt to invoke directory as script: /usr/lib/icinga/cgi/"]), side());
    expect(dir).toMatchObject({ outcome: "denied", handlerRefusal: "AH02812 attempt to invoke directory as script: /usr/lib/icinga/cgi/" });
    expect(dir.evidence).toContain(dir.handlerRefusal);
    const execOff = sideWitness(ask("/x.cgi"), request(answer(403), ["Options ExecCGI is off in this directory: /srv/nox/probe.cgi"]), side());
    expect(execOff.handlerRefusal).toMatch(/^AH02809 /);
    expect(sideWitness(ask("/x"), request(answer(403), ["client denied by server configuration: /srv/x"]), side()).handlerRefusal).toBeNull();
    // An access denial in the same request's lines wins: no handler ran after it.
    expect(sideWitness(ask("/x/"), request(answer(403), ["client denied by server configuration: /srv/x/", "attempt to invoke directory as script: /srv/x/"]), side()).handlerRefusal).toBeNull();
    expect(sideWitness(ask("/x/"), request(answer(404), ["attempt to invoke directory as script: /srv/x/"]), side()).handlerRefusal).toBeNull();
  });

  it("takes a valid user as taken in when it got past authentication, refused when a line says the store lacks it", () => {
    const valid = ask("/team/", { credentials: "valid", user: "probe-user" });
    expect(sideWitness(valid, request(answer(200)), side()).credentials).toBe("accepted");
    expect(sideWitness(valid, request(answer(401), ["access to /team/ failed, reason: user 'probe-user' does not meet 'require'ments for user/valid-user to be allowed access"]), side()).credentials).toBe("accepted");
    expect(sideWitness(valid, request(answer(401), ["user probe-user not found: /team/"]), side()).credentials).toBe("refused");
    // A line attributed to a neighbour still says the store lacks the user.
    const neighbour = request(answer(401), ["user probe-user not found: /team/"]);
    expect(sideWitness(valid, request(answer(401)), side([neighbour])).credentials).toBe("refused");
    expect(sideWitness(valid, request(answer(401)), side()).credentials).toBe("unknown");
    expect(sideWitness(ask("/team/"), request(answer(401)), side()).credentials).toBe("not-sent");
  });
});

describe("differenceClass", () => {
  it("classes a change by outcome, most serious first", () => {
    expect(differenceClass("denied", "served")).toBe("widened");
    expect(differenceClass("auth-required", "not-found")).toBe("widened");
    expect(differenceClass("executed", "source-served")).toBe("source-exposed");
    expect(differenceClass("served", "auth-required")).toBe("narrowed");
    expect(differenceClass("denied", "auth-required")).toBe("changed");
    expect(differenceClass("served", "error")).toBe("changed");
  });
});

describe("witnessClass", () => {
  const w = (outcome: Parameters<typeof differenceClass>[0], handlerRefusal: string | null = null) => ({ outcome, handlerRefusal });
  const cgi = "AH02812 attempt to invoke directory as script: /srv/cgi/";

  it("classes witnesses as outcomes when no handler refused", () => {
    expect(witnessClass(w("denied"), w("not-found"))).toBe("widened");
    expect(witnessClass(w("executed"), w("source-served"))).toBe("source-exposed");
  });

  // Real 2.2.34 → 2.4.68 on a ScriptAlias directory when 2.4 loads no CGI module: 403 (mod_cgi) → 404.
  it("does not call a handler's 403 turned 404 a widening: access let both in", () => {
    expect(witnessClass(w("denied", cgi), w("not-found"))).toBe("changed");
    expect(witnessClass(w("denied", cgi), w("redirected"))).toBe("changed");
    expect(witnessClass(w("denied", cgi), w("denied"))).toBe("changed");
    expect(witnessChange(w("denied", cgi), w("not-found"))).toBe("denied (by the handler) → not found");
  });

  it("calls content a handler withheld and 2.4 gives a widening, its text an exposure", () => {
    expect(witnessClass(w("denied", cgi), w("served"))).toBe("widened");
    expect(witnessClass(w("denied", cgi), w("executed"))).toBe("widened");
    expect(witnessClass(w("denied", cgi), w("source-served"))).toBe("source-exposed");
  });

  it("calls an access refusal that became a handler's 403 a widening: access no longer stops the request", () => {
    expect(witnessClass(w("auth-required"), w("denied", cgi))).toBe("widened");
    expect(witnessClass(w("denied"), w("denied", cgi))).toBe("widened");
    expect(witnessClass(w("executed"), w("denied", cgi))).toBe("narrowed");
    expect(witnessClass(w("not-found"), w("denied", cgi))).toBe("changed");
  });
});
