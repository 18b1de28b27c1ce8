import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prettyLineGroups, renderJsonReport } from "../../../harness/report/json-report.ts";
import type { Report } from "../../../harness/report/report-model.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";

/** The same values with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reversedKeys(inner)]));
}

describe("renderJsonReport", () => {
  it("round-trips the report, pretty-printed with two spaces and a final newline", () => {
    const text = renderJsonReport(sampleReport);
    expect(JSON.parse(text)).toEqual(sampleReport);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.split("\n").slice(0, 3)).toEqual(['{', '  "schemaVersion": "2.4",', '  "tool": {']);
  });

  it("writes keys in contract order whatever order the objects were built in", () => {
    const text = renderJsonReport(reversedKeys(sampleReport) as Report);
    expect(text).toBe(renderJsonReport(sampleReport));
    const parsed = JSON.parse(text) as Report;
    expect(Object.keys(parsed)).toEqual(["schemaVersion", "tool", "startedAt", "sides", "baseline", "candidate", "candidates", "engines", "scenarios", "summary", "fleet"]);
    expect(Object.keys(parsed.sides[0] ?? {})).toEqual(["id", "role", "image", "version", "missing"]);
    const scenario = parsed.scenarios[0];
    expect(Object.keys(scenario ?? {})).toEqual([
      "id", "title", "file", "seed", "verdict", "coverage", "durationMs", "engine", "error", "findings", "ignored", "expectations", "guide",
      "configTest", "servers", "differences", "requests", "matrix", "probes",
    ]);
    const x3Finding = parsed.scenarios.find((s) => s.id === "x3-order-without-access-compat")?.findings[0];
    expect(Object.keys(x3Finding ?? {})).toEqual([
      "rule", "severity", "security", "title", "candidate", "config", "requests", "evidence", "confirmed", "predicted", "gating", "differences",
    ]);
    expect(Object.keys(x3Finding?.config[0] ?? {})).toEqual(["file", "line", "directive"]);
    expect(Object.keys(x3Finding?.differences[0] ?? {})).toEqual(["request", "field", "baseline", "candidate", "class", "seed", "reason"]);
    expect(Object.keys(parsed.summary.findings[0] ?? {})).toEqual(["rule", "severity", "security", "title", "scenarios", "requests", "config", "gating"]);
    expect(Object.keys(parsed.summary.byVerdict)).toEqual(["same", "expected-change", "regression", "noise", "error", "unverified", "broken-on-both"]);
    expect(Object.keys(scenario?.requests[0]?.differences[0] ?? {})).toEqual([
      "field", "baseline", "candidate", "class", "seed", "reason",
    ]);
    expect(Object.keys(scenario?.requests[0]?.candidate ?? {})).toEqual([
      "outcome", "status", "httpVersion", "headers", "body", "bodyBytes", "bodySha256", "transportError", "exec", "errorLog",
    ]);
    expect(Object.keys(scenario?.servers.candidate ?? {})).toEqual([
      "image", "version", "family", "started", "startFailure", "missingModules", "startupLog", "trailingLog", "renderedConfig", "tree",
    ]);
    const q6 = parsed.scenarios.find((s) => s.id === "q6-satisfy-any-ip-or-user");
    expect(Object.keys(q6?.expectations.candidate.failures[0] ?? {})).toEqual(["kind", "request", "field", "expected", "actual", "at", "message"]);
    const d5 = parsed.scenarios.find((s) => s.id === "d5-proxy-expired-cert");
    expect(Object.keys(d5?.guide.failures[0] ?? {})).toEqual(["kind", "request", "field", "expected", "actual", "at", "message", "side", "version"]);
    const x3 = parsed.scenarios.find((s) => s.id === "x3-order-without-access-compat");
    expect(Object.keys(x3?.configTest.candidate?.syntaxError ?? {})).toEqual(["file", "line", "reason"]);
  });

  it("keeps keys the contract does not name yet (additive changes), after the known ones", () => {
    const extended = { ...sampleReport, extra: { note: "added later" }, schemaVersion: "2.2" };
    const parsed = JSON.parse(renderJsonReport(extended as unknown as Report)) as Record<string, unknown>;
    expect(Object.keys(parsed).at(-1)).toBe("extra");
    expect(parsed.extra).toEqual({ note: "added later" });
  });

  it("leaves difference values (free-form) as they are", () => {
    const parsed = JSON.parse(renderJsonReport(sampleReport)) as Report;
    const d5 = parsed.scenarios.find((s) => s.id === "d5-proxy-expired-cert");
    expect(d5?.requests[0]?.differences.map((d) => [d.field, d.baseline, d.candidate]).slice(0, 2)).toEqual([
      ["status", 200, 500],
      ["errorLog", [], ["AH01084", "AH00898", "AH01097"]],
    ]);
  });
});

describe("prettyLineGroups (a fleet's scenarios written in pieces)", () => {
  // Values as a report holds them, and what JSON.stringify treats apart: undefined and functions (left out of an
  // object, null in an array), empty objects and arrays, keys that look like indexes, line and paragraph
  // separators in strings (no JSON escape, but a line start to the indenting RegExp).
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(fc.string({ unit: fc.constantFrom("a", "\n", "\u2028", '"', "é", "\\") }), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant(() => 1)),
    node: fc.oneof({ depthSize: "small" }, tie("leaf"), fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(fc.constantFrom("a", "b", "0", "10", "key"), tie("node"), { maxKeys: 4 })),
  })).node;

  it("joined with newlines, is JSON.stringify's text at every depth", () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 4 }), (v, depth) => {
        if (v === undefined || typeof v === "function") return;
        expect([...prettyLineGroups(v, depth)].join("\n")).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 500 },
    );
  });

  it("indented group by group, is the whole text indented", () => {
    fc.assert(
      fc.property(value, (v) => {
        if (v === undefined || typeof v === "function") return;
        const groups = [...prettyLineGroups(v, 2)].map((lines) => lines.replace(/^/gm, "    "));
        expect(groups.join("\n")).toBe(JSON.stringify(v, null, 2).replace(/^/gm, "    "));
      }),
      { numRuns: 500 },
    );
  });

  it("splits a scenario into its keys and their items", () => {
    const groups = [...prettyLineGroups({ id: "a", requests: [{ name: "r1" }, { name: "r2" }] }, 2)];
    expect(groups).toEqual(["{", '  "id": "a",', '  "requests": [', '    {\n      "name": "r1"\n    },', '    {\n      "name": "r2"\n    }', "  ]", "}"]);
  });
});
