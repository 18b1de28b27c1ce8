// The per-cell prediction on small fragments whose real answers the differential fuzzer recorded (real 2.2.34 and
// 2.4.68 on each image's stock config): the stock sections around a fragment, a <Location> on a segment boundary,
// an AuthType whose module the target does not load, a handler whose module is missing, and "unpredicted" (never a
// guess) for the harness's own client where the answer depends on its address.
import { describe, expect, it } from "vitest";
import { proofProbes } from "../../../harness/judge/prove/proof-probes.ts";
import { lintContext } from "../../../harness/rules/lint-context.ts";
import { type CellPrediction, predictCells } from "../../../harness/rules/predict-cells.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { memoryTree } from "../conf/memory-tree.ts";

function predict(text: string): CellPrediction[] {
  const tree = memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
  const { set } = proofProbes(tree, tree, []);
  return predictCells(lintContext(tree, { defines: [], target: TARGET_PROFILES.official }), set, { defaultRoot: "/usr/local/apache2/htdocs" });
}

function at(predictions: CellPrediction[], path: string, client: string, credentials = "none"): CellPrediction {
  const found = predictions.find((p) => p.cell.split("|")[1] === path && p.cell.split("|")[2] === client && p.cell.split("|")[3] === credentials);
  if (found === undefined) throw new Error(`no cell ${path} ${client} ${credentials} in ${predictions.map((p) => p.cell).join(", ")}`);
  return found;
}

describe("predicted outcomes per cell", () => {
  it("a 2.2 host rule: denied on both versions (mod_access_compat ANDed with the stock Require all granted)", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    Order Deny,Allow\n    Deny from all\n    Allow from 10.9.0.0/16\n</Directory>\n");
    expect(at(p, "/fz0/", "10.9.0.0/16")["2.2"].outcome).toBe("served");
    expect(at(p, "/fz0/", "10.9.0.0/16")["2.4"].outcome).toBe("served");
    expect(at(p, "/fz0/", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/fz0/", "outsider")["2.4"].outcome).toBe("denied");
  });

  it("a <Location /fz0> takes /fz0/probe, not /fz0-outside", () => {
    const p = predict("<Location /fz0>\n    Order Allow,Deny\n    Allow from 127.0.0.1\n</Location>\n");
    expect(at(p, "/fz0/probe", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/fz0-outside", "outsider")["2.2"].outcome).toBe("served");
  });

  it("a 2.2-only branch with no 2.4 branch: 2.2 denies, 2.4 serves", () => {
    const p = predict("<Location /fz0>\n    <IfModule !mod_authz_core.c>\n        Order Deny,Allow\n        Deny from all\n    </IfModule>\n</Location>\n");
    expect(at(p, "/fz0/probe", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/fz0/probe", "outsider")["2.4"].outcome).toBe("served");
  });

  it("AuthType Digest where 2.4 does not load mod_auth_digest: 401 on 2.2, 500 on 2.4", () => {
    const p = predict('<Directory /usr/local/apache2/htdocs/fz0>\n    AuthType Digest\n    AuthName "fz0 realm"\n    AuthUserFile /usr/local/apache2/conf/fuzz.digest\n    Require valid-user\n</Directory>\n');
    expect(at(p, "/fz0/", "outsider")["2.2"].outcome).toBe("auth-required");
    expect(at(p, "/fz0/", "outsider")["2.4"].outcome).toBe("error");
  });

  it("a CGI script: run on 2.2, its source sent on 2.4, whose stock config loads no CGI module", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    Options +ExecCGI\n    AddHandler cgi-script .cgi\n</Directory>\n");
    const script = p.find((c) => /\|\/fz0\/[^|]*\.cgi\|/.test(c.cell));
    expect(script?.["2.2"].outcome).toBe("executed");
    expect(script?.["2.4"].outcome).toBe("source-served");
  });

  it("a CGI script with ExecCGI off: 403 where the handler runs", () => {
    const p = predict("<IfModule !mod_cgi.c>\n    LoadModule cgid_module modules/mod_cgid.so\n</IfModule>\n<Directory /usr/local/apache2/htdocs/fz0>\n    Options -ExecCGI\n    SetHandler cgi-script\n</Directory>\n");
    const script = p.find((c) => /\|\/fz0\/[^|]*\.cgi\|/.test(c.cell));
    expect(script?.["2.2"].outcome).toBe("denied");
    expect(script?.["2.4"].outcome).toBe("denied");
  });

  it("says unpredicted, with the reason, where access depends on the method (<Limit>)", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    <Limit POST>\n        Order Deny,Allow\n        Deny from all\n    </Limit>\n</Directory>\n");
    const inside = p.filter((c) => c.cell.split("|")[1] === "/fz0/");
    expect(inside.length).toBeGreaterThan(0);
    for (const cell of inside) {
      expect(cell["2.2"].outcome).toBe("unpredicted");
      expect(cell["2.2"].why).toMatch(/Limit/);
    }
  });
});
