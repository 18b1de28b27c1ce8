import { describe, expect, it } from "vitest";
import type { LintContext } from "../../../harness/rules/lint-context.ts";
import { ownedLineOnce } from "../../../harness/rules/owned-line-once.ts";

describe("ownedLineOnce", () => {
  it("makes one answer per rule, name and arguments' text, whichever array holds the arguments", () => {
    const context = {} as LintContext;
    let made = 0;
    const make = () => ({ message: `line ${++made}`, fix: null });
    const first = ownedLineOnce(context, "M2", "Order", ["deny,allow"], make);
    expect(ownedLineOnce(context, "M2", "Order", ["deny,allow"], make)).toBe(first);
    expect(ownedLineOnce(context, "M2", "Order", ["allow,deny"], make)).toEqual({ message: "line 2", fix: null });
    // The text joins the arguments with NUL: ["a b"] and ["a", "b"] are not the same arguments.
    expect(ownedLineOnce(context, "M2", "Allow", ["from a", "b"], make)).toEqual({ message: "line 3", fix: null });
    expect(ownedLineOnce(context, "M2", "Allow", ["from", "a b"], make)).toEqual({ message: "line 4", fix: null });
    expect(ownedLineOnce(context, "M2", "order", ["deny,allow"], make)).toEqual({ message: "line 5", fix: null });
    expect(ownedLineOnce(context, "X2", "Order", ["deny,allow"], make)).toEqual({ message: "line 6", fix: null });
  });

  it("keys a line by its name alone when the answer does not depend on its arguments, and keeps null answers", () => {
    const context = {} as LintContext;
    let made = 0;
    const first = ownedLineOnce(context, "X2", "Require", null, () => ({ message: `line ${++made}`, fix: null }));
    expect(ownedLineOnce(context, "X2", "Require", null, () => ({ message: `line ${++made}`, fix: null }))).toBe(first);
    expect(ownedLineOnce(context, "M4", "AuthType", ["x"], () => null)).toBeNull();
    expect(ownedLineOnce(context, "M4", "AuthType", ["x"], () => ({ message: "never", fix: null }))).toBeNull();
    expect(made).toBe(1);
    // Another lint makes its own.
    expect(ownedLineOnce({} as LintContext, "X2", "Require", null, () => ({ message: "again", fix: null }))).toEqual({ message: "again", fix: null });
  });
});
