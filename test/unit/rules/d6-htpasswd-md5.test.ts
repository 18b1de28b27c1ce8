import { describe, expect, it } from "vitest";
import { D6 } from "../../../harness/rules/d6-htpasswd-md5.ts";
import { evidence } from "./rule-harness.ts";

describe("D6 htpasswd", () => {
  const apr1 = (salt: string) => `exit 0\nuser:$apr1$${salt}$abcdefghijklmnopqrstuv\n`;

  it("claims an $apr1$ hash on 2.4 against 2.2's crypt() or another $apr1$ salt", () => {
    expect(D6.recognise!(evidence({ field: "exec", baseline: "exit 0\nuser:ab01234567890\n", candidate: apr1("12345678") }))?.summary).toContain("crypt");
    expect(D6.recognise!(evidence({ field: "exec", baseline: apr1("aaaaaaaa"), candidate: apr1("bbbbbbbb") }))?.summary).toContain("salts");
  });

  it("claims nothing without an $apr1$ hash on 2.4, nor off exec, and finds nothing in a config", () => {
    expect(D6.recognise!(evidence({ field: "exec", baseline: "exit 0\n", candidate: "exit 2\nUsage" }))).toBeNull();
    expect(D6.recognise!(evidence({ field: "body", baseline: "x", candidate: apr1("12345678") }))).toBeNull();
    expect(D6.detect).toBeUndefined();
  });
});
