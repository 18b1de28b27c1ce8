import { describe, expect, it } from "vitest";
import { S3 } from "../../../harness/rules/s3-cache-enable-forward-proxy.ts";
import { evidence, linesOf } from "./rule-harness.ts";

const cache = "LoadModule cache_module modules/mod_cache.so\nLoadModule proxy_module modules/mod_proxy.so\n";
const request = (path: string) => ({ name: "r", method: "GET", path, host: null, client: "127.0.0.1", user: null });

describe("S3 CacheEnable on a forward proxy", () => {
  it("finds a path CacheEnable on a forward proxy that has no protocol CacheEnable", () => {
    expect(linesOf(S3, `${cache}ProxyRequests On\nCacheEnable disk /\n`)).toEqual([{ line: 4, severity: "behaviour" }]);
    expect(linesOf(S3, `${cache}ProxyRequests On\nCacheEnable disk /\nCacheEnable disk http://\n`)).toEqual([]);
    expect(linesOf(S3, `${cache}CacheEnable disk /\n`)).toEqual([]);
  });

  it("claims an Age header 2.2 sent and 2.4 did not on an absolute-URI request", () => {
    const age = { field: "header:age", baseline: "1", candidate: null };
    expect(S3.recognise!(evidence({ ...age, request: request("http://origin/x.txt") }))).not.toBeNull();
    expect(S3.recognise!(evidence({ ...age, request: request("/x.txt") }))).toBeNull();
    expect(S3.recognise!(evidence({ ...age, candidate: "1", request: request("http://origin/x.txt") }))).toBeNull();
  });
});
