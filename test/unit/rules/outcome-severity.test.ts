// The one place lint's computed claims take their severity from: a grant, a run script or a source sent on 2.4 that
// 2.2 did not give is security; a refusal or prompt 2.4 adds, or any other change, behaviour; the same, nothing.
import { describe, expect, it } from "vitest";
import { accessDiffers, outcomeSeverity, worse } from "../../../harness/rules/outcome-severity.ts";
import { PREDICTED_OUTCOMES } from "../../../harness/rules/predict-cells.ts";

describe("outcomeSeverity", () => {
  it("rates a grant 2.2 refused or asked credentials for as security", () => {
    for (const on22 of ["denied", "auth-required"] as const) {
      for (const on24 of ["served", "executed", "source-served", "redirected"] as const) expect(outcomeSeverity(on22, on24), `${on22} -> ${on24}`).toBe("security");
    }
  });

  it("rates a script run or its source sent that 2.2 did not as security (prove's source-exposed among them)", () => {
    expect(outcomeSeverity("executed", "source-served")).toBe("security");
    expect(outcomeSeverity("served", "executed")).toBe("security");
    expect(outcomeSeverity("served", "source-served")).toBe("security");
  });

  it("rates a refusal or an auth prompt 2.4 adds, and a grant where 2.2 answered 500, as behaviour", () => {
    expect(outcomeSeverity("served", "denied")).toBe("behaviour");
    expect(outcomeSeverity("executed", "auth-required")).toBe("behaviour");
    expect(outcomeSeverity("denied", "auth-required")).toBe("behaviour");
    expect(outcomeSeverity("auth-required", "error")).toBe("behaviour");
    expect(outcomeSeverity("error", "served")).toBe("behaviour");
    expect(outcomeSeverity("source-served", "served")).toBe("behaviour");
  });

  it("claims nothing for the same outcome on both", () => {
    for (const outcome of PREDICTED_OUTCOMES) expect(outcomeSeverity(outcome, outcome)).toBeNull();
  });

  it("tells a change of access from a change of what was sent, and takes the worse of two", () => {
    expect(accessDiffers("executed", "source-served")).toBe(false);
    expect(accessDiffers("served", "redirected")).toBe(false);
    expect(accessDiffers("denied", "auth-required")).toBe(true);
    expect(worse("behaviour", "security")).toBe("security");
    expect(worse(null, "behaviour")).toBe("behaviour");
    expect(worse(null, null)).toBeNull();
  });
});
