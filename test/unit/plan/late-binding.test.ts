import { describe, expect, it } from "vitest";
import { bindAll, bindSlots, slot, slotsIn } from "../../../harness/plan/late-binding.ts";
import { BASELINE, CANDIDATE, runSides } from "../../../harness/plan/side.ts";

const VALUES = { "network.gateway": "172.18.0.1", "clients.allowed.ip": "172.18.0.3", "backends.backend.ip": "172.18.0.2" };

describe("slot and slotsIn", () => {
  it("writes a slot in brackets no config or shell uses", () => {
    expect(slot("network.gateway")).toBe("⟪network.gateway⟫");
  });

  it("finds each slot of a text once, in order of first use", () => {
    const text = `Require ip ${slot("clients.allowed.ip")} ${slot("network.gateway")}\nAllow from ${slot("clients.allowed.ip")}`;
    expect(slotsIn(text)).toEqual(["clients.allowed.ip", "network.gateway"]);
  });

  it("finds no slot in text with other brackets or variables", () => {
    expect(slotsIn("Define x ${APACHE_VAR} ⟪⟫ ⟪not closed ⟪with space⟫ {{mustache}}")).toEqual([]);
  });
});

describe("bindSlots", () => {
  it("replaces every slot with its value and leaves the rest of the text alone", () => {
    expect(bindSlots(`Require ip ${slot("clients.allowed.ip")} ${slot("network.gateway")} \${NOT_A_SLOT}`, VALUES)).toBe(
      "Require ip 172.18.0.3 172.18.0.1 ${NOT_A_SLOT}",
    );
  });

  it("throws naming a slot that has no value", () => {
    expect(() => bindSlots(`Allow from ${slot("clients.denied.ip")}`, VALUES)).toThrow("no value for ⟪clients.denied.ip⟫");
  });
});

describe("bindAll", () => {
  it("binds every string inside nested objects and arrays and keeps the other values", () => {
    const plan = {
      config: { path: "/usr/local/apache2/conf/httpd.conf", text: `Allow from ${slot("network.gateway")}\n` },
      files: [{ path: "/a", mode: 0o644, content: { text: `ip=${slot("backends.backend.ip")}` } }],
      headers: [["X-Forwarded-For", slot("clients.allowed.ip")]] as Array<[string, string]>,
      body: null,
      tls: false,
      keepAliveRequests: 2,
    };
    expect(bindAll(plan, VALUES)).toEqual({
      config: { path: "/usr/local/apache2/conf/httpd.conf", text: "Allow from 172.18.0.1\n" },
      files: [{ path: "/a", mode: 0o644, content: { text: "ip=172.18.0.2" } }],
      headers: [["X-Forwarded-For", "172.18.0.3"]],
      body: null,
      tls: false,
      keepAliveRequests: 2,
    });
    // The plan itself is left as it was.
    expect(plan.config.text).toBe(`Allow from ${slot("network.gateway")}\n`);
  });

  it("throws when any string inside holds a slot without a value", () => {
    expect(() => bindAll({ requests: [{ path: "/" }, { path: `/${slot("nope")}` }] }, VALUES)).toThrow("no value for ⟪nope⟫");
  });
});

describe("sides", () => {
  it("puts the baseline first, then the candidates", () => {
    expect(runSides()).toEqual([BASELINE, CANDIDATE]);
    expect(runSides(3)).toEqual([
      { id: "baseline", role: "baseline" },
      { id: "candidate", role: "candidate" },
      { id: "candidate-2", role: "candidate" },
      { id: "candidate-3", role: "candidate" },
    ]);
    expect(runSides(0)).toEqual([BASELINE]);
  });
});
