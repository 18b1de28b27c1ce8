import { describe, expect, it } from "vitest";
import { parseRequestLine } from "../../../harness/logs/request-line.ts";

describe("parseRequestLine", () => {
  it("splits METHOD TARGET PROTOCOL", () => {
    expect(parseRequestLine("GET /a?b=c HTTP/1.1")).toEqual({ ok: true, line: { method: "GET", target: "/a?b=c", protocol: "HTTP/1.1" } });
  });

  it("reads an HTTP/0.9 line as one without a protocol", () => {
    expect(parseRequestLine("GET /")).toEqual({ ok: true, line: { method: "GET", target: "/", protocol: null } });
  });

  it("refuses an empty line, extra spaces and a space inside the target", () => {
    expect(parseRequestLine("")).toMatchObject({ ok: false, reason: "empty request line" });
    expect(parseRequestLine("GET  / HTTP/1.1")).toMatchObject({ ok: false, reason: expect.stringContaining("extra spaces") });
    expect(parseRequestLine("GET /a b HTTP/1.1")).toMatchObject({ ok: false, reason: expect.stringContaining("4 words") });
    expect(parseRequestLine("\\x16\\x03\\x01")).toMatchObject({ ok: false, reason: expect.stringContaining("1 words") });
  });
});
