import { describe, expect, it } from "vitest";
import { SSL_SESSION_CACHE_PROVIDER } from "../../../harness/rules/ssl-session-cache-provider.ts";
import { configTestEvidence, lintFiles, of } from "./lint-fixture.ts";

const SSL = "LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule ssl_module modules/mod_ssl.so\n";

describe("ssl-session-cache-provider: SSLSessionCache without its socache module on 2.4", () => {
  it("finds a shmcb cache where the tree loads mod_ssl but not mod_socache_shmcb, with the LoadModule as the fix", async () => {
    const found = of(await lintFiles({ "conf/httpd.conf": `${SSL}SSLSessionCache "shmcb:logs/ssl_scache(512000)"\n` }), "ssl-session-cache-provider");
    expect(found.map((f) => [f.line, f.severity, f.fix])).toEqual([[3, "blocking", "LoadModule socache_shmcb_module modules/mod_socache_shmcb.so"]]);
  });

  it("leaves alone a tree that loads the provider, a cache of none, and a tree without mod_ssl", async () => {
    const loaded = `${SSL}LoadModule socache_shmcb_module modules/mod_socache_shmcb.so\nSSLSessionCache shmcb:logs/ssl_scache(512000)\n`;
    expect(of(await lintFiles({ "conf/httpd.conf": loaded }), "ssl-session-cache-provider")).toEqual([]);
    expect(of(await lintFiles({ "conf/httpd.conf": `${SSL}SSLSessionCache none\n` }), "ssl-session-cache-provider")).toEqual([]);
    expect(of(await lintFiles({ "conf/httpd.conf": "LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nSSLSessionCache shmcb:x(1)\n" }), "ssl-session-cache-provider")).toEqual([]);
  });

  it("claims 2.4's refusal of the cache type", () => {
    const message = "SSLSessionCache: 'shmcb' session cache not supported (known names: ). Maybe you need to load the appropriate socache module (mod_socache_shmcb?).";
    expect(SSL_SESSION_CACHE_PROVIDER.recognise!(configTestEvidence(["AH00526: Syntax error on line 3 of /usr/local/apache2/conf/httpd.conf:", message]))).not.toBeNull();
  });
});
