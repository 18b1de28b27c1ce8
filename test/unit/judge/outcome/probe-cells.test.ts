// A run's probe requests as cells: equal when nothing told differs and both sides' witnesses hold, vacuous when
// the harness made them equal, accepted when the guide predicts every difference, else classed by outcome.
import { describe, expect, it } from "vitest";
import { runCellClass } from "../../../../harness/judge/outcome/probe-cells.ts";
import type { SideWitness } from "../../../../harness/judge/outcome/probe-outcome.ts";
import type { Difference } from "../../../../harness/judge/difference.ts";

const witness = (outcome: SideWitness["outcome"], extra: Partial<SideWitness> = {}): SideWitness => ({ outcome, answer: "200", credentials: "not-sent", object: "planted", marker: "seen", evidence: [], handlerRefusal: null, ...extra });
const none = { credentials: "none" as const, user: null };
const valid = { credentials: "valid" as const, user: "probe-user" };
const diff = (cls: Difference["class"]): Difference => ({ field: "status", baseline: "403", candidate: "200", class: cls, seed: [], reason: `because ${cls}` });

describe("runCellClass", () => {
  it("is equal with nothing told apart, vacuous when the harness made it so", () => {
    expect(runCellClass(none, witness("served"), witness("served"), [{ ...diff("noise") }])).toEqual({ class: "equal", reason: null });
    expect(runCellClass(valid, witness("auth-required", { credentials: "refused", evidence: ["AH01618 user probe-user not found"] }), witness("auth-required", { credentials: "accepted" }), []))
      .toEqual({ class: "vacuous", reason: "the probe user probe-user was refused on 2.2 (AH01618 user probe-user not found)" });
    expect(runCellClass(none, witness("not-found", { object: "missing", evidence: ["/srv/x was planted but not found in the container"] }), witness("not-found"), []).class).toBe("vacuous");
  });

  it("is accepted when the guide predicts every difference, else the outcome's class", () => {
    expect(runCellClass(none, witness("denied"), witness("served"), [diff("expected-change")])).toEqual({ class: "accepted", reason: "because expected-change" });
    expect(runCellClass(none, witness("denied"), witness("served"), [diff("regression")]).class).toBe("widened");
    expect(runCellClass(none, witness("executed"), witness("source-served"), [diff("regression")]).class).toBe("source-exposed");
    expect(runCellClass(none, witness("served"), witness("served"), [{ ...diff("regression"), field: "body" }]).class).toBe("changed");
  });

  it("is unprobed when a side never answered (its server did not start) or the proxied backend cannot be reached", () => {
    expect(runCellClass(none, witness("served"), witness("error", { answer: "not run: the server did not start" }), [diff("regression")])).toEqual({ class: "unprobed", reason: "2.4 did not answer (not run: the server did not start)" });
    expect(runCellClass(none, witness("error", { answer: "502" }), witness("error", { answer: "500" }), [diff("regression")], "origin.internal")).toEqual({ class: "unprobed", reason: "the proxied backend is not reachable from the harness (origin.internal)" });
    expect(runCellClass(none, witness("error", { answer: "502" }), witness("served"), [diff("regression")], "origin.internal").class).toBe("changed");
  });
});
