import { describe, expect, it } from "vitest";
import { S10 } from "../../../harness/rules/s10-proxy-scgi-pathinfo.ts";
import { evidence, findingsOf, linesOf } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S10 proxy-scgi-pathinfo", () => {
  const scgi = `${load("proxy", "proxy_scgi", "setenvif", "env")}ProxyPass /scgi/ scgi://127.0.0.1:4000/\nProxyPass /web/ http://127.0.0.1:8080/\n`;

  it("finds ProxyPass to scgi:// unless SetEnvIf sets proxy-scgi-pathinfo in server context", () => {
    expect(linesOf(S10, scgi)).toEqual([{ line: 5, severity: "behaviour" }]);
    expect(linesOf(S10, `${scgi}SetEnvIf Request_URI . proxy-scgi-pathinfo\n`)).toEqual([]);
  });

  it("says SetEnv is too late on 2.4", () => {
    expect(findingsOf(S10, `${scgi}SetEnv proxy-scgi-pathinfo 1\n`)[0]!.message).toContain("too late");
  });

  it("claims an SCGI environment dump that lost PATH_INFO, not one that changed otherwise", () => {
    const dump = { field: "body", baseline: "PATH_INFO=/app\nQUERY_STRING=\nSCRIPT_NAME=/scgi\n", candidate: "QUERY_STRING=\nSCRIPT_NAME=/scgi/app\n" };
    expect(S10.recognise!(evidence(dump))).not.toBeNull();
    expect(S10.recognise!(evidence({ ...dump, candidate: "QUERY_STRING=x\nSCRIPT_NAME=/scgi/app\n" }))).toBeNull();
  });
});
