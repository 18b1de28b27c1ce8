import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEBIAN_PROFILE, OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import type { ImageInspection } from "../../../harness/server/inspect-image.ts";
import { cacheDir, cachedInspection, cachedProbeOutput, rememberInspection, rememberProbeOutput } from "../../../harness/server/inspection-cache.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";

function inspection(overrides: Partial<ImageInspection> = {}): ImageInspection {
  return {
    image: "httpd:2.4.62",
    profile: OFFICIAL_PROFILE,
    version: httpdVersion("2.4.62"),
    modules: new Set(["mod_status.so", "mod_access_compat.so", "mod_mpm_event.so"]),
    builtinModules: new Set(["so"]),
    stockConfig: "ServerRoot /usr/local/apache2\nListen 80\n",
    source: "inspected",
    ...overrides,
  };
}

describe("inspection cache", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "inspection-cache-"));
    vi.stubEnv("HARNESS_CACHE_DIR", dir);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("lives in HARNESS_CACHE_DIR when it is set, else under XDG_CACHE_HOME", () => {
    expect(cacheDir()).toBe(dir);
    vi.stubEnv("HARNESS_CACHE_DIR", "");
    vi.stubEnv("XDG_CACHE_HOME", "/xdg");
    expect(cacheDir()).toBe("/xdg/httpd-upgrade-harness");
  });

  it("keeps a probe's output under the image id and the script: another id or another script finds nothing", () => {
    const id = "sha256:0123456789abcdef";
    expect(cachedProbeOutput(id, "script one")).toBeNull();
    rememberProbeOutput(id, "script one", "@@harness profile official\nServer version: Apache/2.4.68 (Unix)\n");
    expect(cachedProbeOutput(id, "script one")).toBe("@@harness profile official\nServer version: Apache/2.4.68 (Unix)\n");
    expect(cachedProbeOutput(id, "script two")).toBeNull();
    expect(cachedProbeOutput("sha256:fedcba9876543210", "script one")).toBeNull();
  });

  it("gives back what it remembered, marked as coming from the cache", () => {
    rememberInspection(inspection());
    expect(cachedInspection("httpd:2.4.62")).toEqual(inspection({ source: "cache" }));
  });

  it("keeps the build of a version and the layout of the image", () => {
    const debian = inspection({ image: "debian-apache2", profile: DEBIAN_PROFILE, version: httpdVersion("2.4.62-1~deb11u1"), stockConfig: null });
    rememberInspection(debian);
    expect(cachedInspection("debian-apache2")).toEqual({ ...debian, source: "cache" });
  });

  it("keeps one entry per image, the last inspection winning, and leaves no temporary file", () => {
    rememberInspection(inspection());
    rememberInspection(inspection({ image: "httpd:2.2.34", version: httpdVersion("2.2.34"), builtinModules: new Set(["mpm_prefork", "so"]) }));
    rememberInspection(inspection({ modules: new Set(["mod_status.so"]) }));
    expect(cachedInspection("httpd:2.4.62")?.modules).toEqual(new Set(["mod_status.so"]));
    expect(cachedInspection("httpd:2.2.34")?.version.text).toBe("2.2.34");
    expect(readdirSync(dir)).toEqual(["inspections.json"]);
  });

  it("knows nothing of an image it never inspected", () => {
    rememberInspection(inspection());
    expect(cachedInspection("httpd:2.4.63")).toBeNull();
  });

  it("treats a missing, unreadable or damaged cache as empty", () => {
    expect(cachedInspection("httpd:2.4.62")).toBeNull();
    writeFileSync(join(dir, "inspections.json"), "{ not json");
    expect(cachedInspection("httpd:2.4.62")).toBeNull();
    writeFileSync(join(dir, "inspections.json"), "null");
    expect(cachedInspection("httpd:2.4.62")).toBeNull();
    // An entry with a version of no known family, or a layout the harness does not know.
    const entry = { image: "httpd:2.4.62", profile: "official", version: "2.4.62", modules: [], builtinModules: [], stockConfig: null, inspectedAt: "" };
    writeFileSync(join(dir, "inspections.json"), JSON.stringify({ "httpd:2.4.62": { ...entry, version: "2.0.65" }, other: { ...entry, profile: "gentoo" } }));
    expect([cachedInspection("httpd:2.4.62"), cachedInspection("other")]).toEqual([null, null]);
  });

  it("starts over when the cache file is damaged, instead of failing", () => {
    writeFileSync(join(dir, "inspections.json"), "{ not json");
    rememberInspection(inspection());
    expect(cachedInspection("httpd:2.4.62")?.source).toBe("cache");
  });

  it("never fails a run when the cache cannot be written", () => {
    const blocked = join(dir, "blocked");
    writeFileSync(blocked, "a file where the directory should be");
    vi.stubEnv("HARNESS_CACHE_DIR", join(blocked, "cache"));
    expect(() => rememberInspection(inspection())).not.toThrow();
    expect(cachedInspection("httpd:2.4.62")).toBeNull();
  });

  it("creates the cache directory when it does not exist", () => {
    const nested = join(dir, "a", "b");
    vi.stubEnv("HARNESS_CACHE_DIR", nested);
    rememberInspection(inspection());
    expect(JSON.parse(readFileSync(join(nested, "inspections.json"), "utf8"))).toMatchObject({
      "httpd:2.4.62": { image: "httpd:2.4.62", profile: "official", version: "2.4.62", modules: ["mod_access_compat.so", "mod_mpm_event.so", "mod_status.so"] },
    });
  });
});
