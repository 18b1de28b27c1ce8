import { describe, expect, it } from "vitest";
import { S2 } from "../../../harness/rules/s2-cache-session-identifiers.ts";
import { evidence, findingsOf, linesOf } from "./rule-harness.ts";

const cache = "LoadModule cache_module modules/mod_cache.so\nLoadModule proxy_module modules/mod_proxy.so\n";
const request = (path: string) => ({ name: "r", method: "GET", path, host: null, client: "127.0.0.1", user: null });

describe("S2 CacheIgnoreURLSessionIdentifiers", () => {
  it("finds the directive unless it is none", () => {
    expect(linesOf(S2, `${cache}CacheIgnoreURLSessionIdentifiers sessionid\nCacheIgnoreURLSessionIdentifiers None\n`)).toEqual([{ line: 3, severity: "behaviour" }]);
  });

  it("claims a cache difference on a request whose parameter name ends with a configured identifier", () => {
    const findings = findingsOf(S2, `${cache}CacheIgnoreURLSessionIdentifiers sessionid\n`);
    const body = { field: "body", baseline: "query=jsessionid=1\n", candidate: "query=jsessionid=2\n", findings };
    expect(S2.recognise!(evidence({ ...body, request: request("/page.shtml?jsessionid=2") }))?.summary).toContain("jsessionid");
    expect(S2.recognise!(evidence({ ...body, request: request("/page.shtml?sessionid=2") }))).toBeNull();
    expect(S2.recognise!(evidence({ ...body, request: request("/page.shtml?xsid=2") }))).toBeNull();
  });
});
