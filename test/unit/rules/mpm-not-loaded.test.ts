import { describe, expect, it } from "vitest";
import { MPM_NOT_LOADED } from "../../../harness/rules/mpm-not-loaded.ts";
import { configTestEvidence, lintFiles, of } from "./lint-fixture.ts";

describe("mpm-not-loaded: a tree loading no MPM on 2.4", () => {
  it("owns Listen and the MPM's directives instead of B4", async () => {
    const result = await lintFiles({ "conf/httpd.conf": "LoadModule unixd_module modules/mod_unixd.so\nListen 80\n<IfModule prefork.c>\nStartServers 5\n</IfModule>\nMaxSpareServers 10\n" });
    expect(result.findings.map((f) => [f.rule, f.line])).toEqual([
      ["mpm-not-loaded", 2],
      ["mpm-not-loaded", 6],
    ]);
    expect(result.findings[0]!.message).toContain("No MPM loaded (AH00534)");
  });

  it("marks the last LoadModule line when no MPM directive is written", async () => {
    const found = of(await lintFiles({ "conf/httpd.conf": "LoadModule unixd_module modules/mod_unixd.so\nLoadModule mime_module modules/mod_mime.so\nServerName x\n" }), "mpm-not-loaded");
    expect(found.map((f) => f.line)).toEqual([2]);
  });

  it("leaves a tree with an MPM alone, even when another MPM's directive is invalid there", async () => {
    const result = await lintFiles({ "conf/httpd.conf": "LoadModule mpm_event_module modules/mod_mpm_event.so\nListen 80\nMaxSpareServers 10\nLoadModule unixd_module modules/mod_unixd.so\n" });
    expect(of(result, "mpm-not-loaded")).toEqual([]);
    expect(result.findings.map((f) => [f.rule, f.line])).toEqual([["B4", 3]]);
  });

  it("says nothing about a fragment, which the target's stock config gives an MPM", async () => {
    const result = await lintFiles({ "site.conf": "<VirtualHost *:80>\nServerName a\n</VirtualHost>\n" });
    expect(result.context.tree.layout).toBe("fragment");
    expect(of(result, "mpm-not-loaded")).toEqual([]);
  });

  it("recognises AH00534", () => {
    expect(MPM_NOT_LOADED.recognise!(configTestEvidence(["AH00534: httpd: Configuration error: No MPM loaded."]))?.summary).toContain("no MPM");
    expect(MPM_NOT_LOADED.recognise!(configTestEvidence(["Syntax OK"]))).toBeNull();
  });
});
