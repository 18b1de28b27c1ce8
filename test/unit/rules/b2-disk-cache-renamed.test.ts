import { describe, expect, it } from "vitest";
import { B2 } from "../../../harness/rules/b2-disk-cache-renamed.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("B2: mod_disk_cache is mod_cache_disk, mod_mem_cache is gone", () => {
  it("a ready 2.2 head has no finding of any rule", async () => {
    expect((await lintBody("")).findings).toEqual([]);
  });

  it("claims the LoadModule lines of both gone files and the cache directives, with the 2.4 module as fix", async () => {
    const result = await lintBody(
      [
        "LoadModule cache_module modules/mod_cache.so",
        "LoadModule disk_cache_module modules/mod_disk_cache.so",
        "LoadModule mem_cache_module modules/mod_mem_cache.so",
        "CacheRoot /var/cache/httpd",
        "MCacheSize 4096",
      ].join("\n"),
    );
    const found = of(result, "B2");
    expect(found.map((f) => f.line)).toEqual([BODY_LINE + 1, BODY_LINE + 2, BODY_LINE + 3, BODY_LINE + 4]);
    expect(found[0]!.fix).toBe("LoadModule cache_disk_module modules/mod_cache_disk.so");
    expect(found[1]!.fix).toContain("mod_cache_socache");
    expect(found[2]!.fix).toBe("LoadModule cache_disk_module modules/mod_cache_disk.so");
    expect(found[3]!.message).toContain("mod_mem_cache is gone");
    expect(result.findings.filter((f) => f.rule !== "B2")).toEqual([]);
  });

  it("leaves CacheRoot alone once mod_cache_disk is loaded", async () => {
    const result = await lintBody("LoadModule cache_module modules/mod_cache.so\nLoadModule cache_disk_module modules/mod_cache_disk.so\nCacheRoot /var/cache/httpd");
    expect(result.findings).toEqual([]);
  });

  it("gives no finding for a 2.2 branch: <IfModule !mod_authz_core.c> and <IfVersion < 2.3>", async () => {
    const result = await lintBody(
      "<IfModule !mod_authz_core.c>\n  LoadModule disk_cache_module modules/mod_disk_cache.so\n</IfModule>\n<IfVersion < 2.3>\n  MCacheSize 4096\n</IfVersion>",
    );
    expect(result.findings).toEqual([]);
  });

  it("recognises 2.4's Cannot load line and names the config line", () => {
    const claim = B2.recognise!(
      configTestEvidence([
        "httpd: Syntax error on line 24 of /usr/local/apache2/conf/httpd.conf: Cannot load modules/mod_disk_cache.so into server: /usr/local/apache2/modules/mod_disk_cache.so: cannot open shared object file: No such file or directory",
      ]),
    );
    expect(claim?.summary).toContain("mod_disk_cache.so");
    expect(claim?.lines).toEqual([{ file: "/usr/local/apache2/conf/httpd.conf", line: 24 }]);
  });

  it("recognises an invalid MCache directive, and nothing else", () => {
    const mcache = configTestEvidence(["AH00526: Syntax error on line 14 of /tmp/t.conf:", "Invalid command 'MCacheSize', perhaps misspelled or defined by a module not included in the server configuration"]);
    expect(B2.recognise!(mcache)?.lines).toEqual([{ file: "/tmp/t.conf", line: 14 }]);
    const other = configTestEvidence(["AH00526: Syntax error on line 14 of /tmp/t.conf:", "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration"]);
    expect(B2.recognise!(other)).toBeNull();
  });
});
