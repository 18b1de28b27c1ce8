import { describe, expect, it } from "vitest";
import { B3, balancerName } from "../../../harness/rules/b3-lbmethod-modules.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

const PROXY = ["LoadModule proxy_module modules/mod_proxy.so", "LoadModule proxy_http_module modules/mod_proxy_http.so", "LoadModule proxy_balancer_module modules/mod_proxy_balancer.so"];
const SHM = "LoadModule slotmem_shm_module modules/mod_slotmem_shm.so";

describe("B3: lbmethod modules and the balancer's slotmem", () => {
  it("finds ProxySet lbmethod=bybusyness without mod_lbmethod_bybusyness, with its LoadModule as fix", async () => {
    const result = await lintBody([...PROXY, SHM, "<Proxy balancer://pool>", "    BalancerMember http://a:8080", "    ProxySet lbmethod=bybusyness", "</Proxy>", "ProxyPass /app/ balancer://pool/"].join("\n"));
    const found = of(result, "B3");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: BODY_LINE + 6, fix: "LoadModule lbmethod_bybusyness_module modules/mod_lbmethod_bybusyness.so" });
    expect(found[0]!.message).toContain("ProxySet: unknown lbmethod lbmethod=bybusyness");
  });

  it("finds ProxyPass lbmethod=bytraffic with the ProxyPass wording", async () => {
    const found = of(await lintBody([...PROXY, SHM, "ProxyPass /app/ balancer://pool/ lbmethod=bytraffic", "<Proxy balancer://pool>", "BalancerMember http://a:8080", "</Proxy>"].join("\n")), "B3");
    expect(found.map((f) => [f.line, f.message.includes("ProxyPass unknown lbmethod")])).toEqual([[BODY_LINE + 4, true]]);
    const match = of(await lintBody([...PROXY, SHM, "ProxyPassMatch ^/app/(.*) balancer://pool/$1 lbmethod=bytraffic"].join("\n")), "B3");
    expect(match.map((f) => [f.line, f.message.includes("ProxyPass unknown lbmethod")])).toEqual([[BODY_LINE + 4, true]]);
  });

  it("a balancer without lbmethod needs mod_lbmethod_byrequests (start-up failure at its <Proxy>)", async () => {
    const found = of(await lintBody([...PROXY, SHM, "<Proxy balancer://pool>", "BalancerMember http://a:8080", "</Proxy>"].join("\n")), "B3");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: BODY_LINE + 4, directive: "<Proxy balancer://pool>" });
    expect(found[0]!.message).toContain("Cannot find LB Method: byrequests");
  });

  it("leaves mod_slotmem_shm to the start-up companion rule, and says nothing when every module is loaded", async () => {
    const noShm = await lintBody([...PROXY, "LoadModule lbmethod_byrequests_module modules/mod_lbmethod_byrequests.so", "<Proxy balancer://a>", "</Proxy>", "<Proxy balancer://b>", "</Proxy>"].join("\n"));
    expect(of(noShm, "B3")).toEqual([]);
    expect(of(noShm, "start-companion").map((f) => f.fix)).toEqual(["LoadModule slotmem_shm_module modules/mod_slotmem_shm.so"]);
    const ready = await lintBody([...PROXY, SHM, "LoadModule lbmethod_byrequests_module modules/mod_lbmethod_byrequests.so", "<Proxy balancer://a>", "</Proxy>"].join("\n"));
    expect(ready.findings).toEqual([]);
  });

  it("says nothing without mod_proxy_balancer, or inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("ProxyPass /x http://a/"), "B3")).toEqual([]);
    const legacy = await lintBody([...PROXY, SHM, "<Proxy balancer://pool>", "<IfVersion < 2.3>", "ProxySet lbmethod=bybusyness", "</IfVersion>", "</Proxy>"].join("\n"));
    expect(of(legacy, "B3").map((f) => f.message)).toEqual([expect.stringContaining("byrequests")]);
  });

  it("reads balancer names from URLs", () => {
    expect(balancerName("balancer://Pool/app")).toBe("pool");
    expect(balancerName("http://pool/")).toBeNull();
  });

  it("recognises the config-test and start-up lines of 2.4", () => {
    const set = configTestEvidence(["AH00526: Syntax error on line 18 of /usr/local/apache2/conf/httpd.conf:", "ProxySet: unknown lbmethod lbmethod=bybusyness; balancer://pool"]);
    expect(B3.recognise!(set)).toEqual({ summary: expect.stringContaining("mod_lbmethod_bybusyness"), lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 18 }] });
    const started = configTestEvidence(["[Mon Nov 23 20:17:25.527336 2026] [proxy:crit] [pid 1:tid 1] AH02432: Cannot find LB Method: byrequests"], "started");
    expect(B3.recognise!(started)?.summary).toContain("mod_lbmethod_byrequests");
    expect(B3.recognise!(configTestEvidence(["KeepAlive must be On or Off"]))).toBeNull();
  });
});
