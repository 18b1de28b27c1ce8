import { describe, expect, it } from "vitest";
import { B1 } from "../../../harness/rules/b1-config-nice.ts";
import { evidence } from "./rule-harness.ts";

describe("B1 config.nice", () => {
  it("claims only the exec output of the configure lines", () => {
    expect(B1.recognise!(evidence({ field: "exec", baseline: 'exit 0\n"./configure" \\\n"--enable-mods-shared=all"', candidate: 'exit 0\n"./configure" \\\n"--enable-mods-shared=reallyall"' }))).not.toBeNull();
    expect(B1.recognise!(evidence({ field: "exec", baseline: "exit 0\n1", candidate: "exit 1\n" }))).toBeNull();
    expect(B1.detect).toBeUndefined();
  });
});
