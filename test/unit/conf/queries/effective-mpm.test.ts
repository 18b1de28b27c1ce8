import { describe, expect, it } from "vitest";
import { effectiveMpm } from "../../../../harness/conf/queries/effective-mpm.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("effectiveMpm", () => {
  it("is the loaded mpm_* module on 2.4", () => {
    const config = effectiveConfig(`
LoadModule mpm_worker_module modules/mod_mpm_worker.so
LoadModule mpm_event_module modules/mod_mpm_event.so
`);
    const mpm = effectiveMpm(config, ["core.c", "mod_so.c", "http_core.c"]);
    expect(mpm?.name).toBe("worker");
    expect(mpm?.span).toMatchObject(at("conf/httpd.conf", 1));
    expect(mpm?.others.map((module) => module.id)).toEqual(["mpm_event_module"]);
  });

  it("is the compiled-in one on 2.2, with no line", () => {
    const mpm = effectiveMpm(effectiveConfig("Listen 80", { version: "2.2.34" }), ["core.c", "prefork.c", "http_core.c", "mod_so.c"]);
    expect(mpm).toMatchObject({ name: "prefork", span: null, others: [] });
    expect(mpm?.module.origin).toBe("static");
  });

  it("is null when no MPM is loaded", () => {
    expect(effectiveMpm(effectiveConfig("Listen 80"), ["core.c"])).toBeNull();
  });
});
