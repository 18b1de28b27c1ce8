import { describe, expect, it } from "vitest";
import { reportProbes } from "../../../harness/report/build-report.ts";
import { askerText, counterexamples, outcomePair, probeClassesText } from "../../../harness/report/probe-classes.ts";
import { PROBE_CELLS } from "./probe-report.ts";

const probes = reportProbes(PROBE_CELLS);
const cell = (request: string | null, method = "GET") => PROBE_CELLS.find((c) => c.request === request && c.method === method)!;

describe("probeClassesText", () => {
  it("counts the cells, then each class that occurs, equal first and the security ones said so", () => {
    expect(probeClassesText(probes)).toBe(
      "11 cells: 2 equal, 2 widened (security), 1 source-exposed (security), 1 narrowed, 1 changed, 1 vacuous, 2 unprobed, 1 accepted",
    );
  });

  it("leaves out the classes with no cell, and lets the caller paint each count", () => {
    const some = reportProbes(PROBE_CELLS.filter((c) => c.class === "equal" || c.class === "widened"));
    expect(probeClassesText(some, (cls, text) => (cls === "widened" ? `[${text}]` : text))).toBe("4 cells: 2 equal, [2 widened (security)]");
    expect(probeClassesText(reportProbes([]))).toBe("0 cells");
  });
});

describe("outcomePair", () => {
  it("says what each side did, '=' for an equal cell, the answers when the outcome is the same", () => {
    expect(outcomePair(cell("admin-outsider-get"))).toBe("denied → served");
    expect(outcomePair(cell("cgi-outsider-get"))).toBe("executed → source served");
    expect(outcomePair(cell("admin-admin-get"))).toBe("=");
    expect(outcomePair(cell("index-admin-get"))).toBe("error 500 → 503");
    expect(outcomePair(cell("hostile-outsider-get"))).toBe("error (vacuous)");
    expect(outcomePair(cell(null))).toBe("unprobed");
  });
});

describe("counterexamples", () => {
  it("lists the cells where the versions part, worst class first", () => {
    expect(counterexamples(probes).map((c) => [c.class, c.method, c.request])).toEqual([
      ["widened", "GET", "admin-outsider-get"],
      ["widened", "HEAD", "admin-outsider-head"],
      ["source-exposed", "GET", "cgi-outsider-get"],
      ["narrowed", "GET", "index-outsider-get"],
      ["changed", "GET", "index-admin-get"],
    ]);
  });
});

describe("askerText", () => {
  it("names the client and the credential state, with the user when there is one", () => {
    expect(askerText(cell("admin-outsider-get"))).toBe("outsider · none");
    expect(askerText(cell("admin-admin-get"))).toBe("10.0.0.0/8 · valid admin");
  });
});
