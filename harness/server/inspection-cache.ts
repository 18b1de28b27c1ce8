// The last inspection of each image, kept on disk so that `plan` can show what a run will do without an
// engine. A cache miss or an unreadable cache is never an error: the plan falls back to the official layout's
// defaults and says so.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { httpdVersion } from "../versions/httpd-version.ts";
import { PROFILES } from "./httpd-profile.ts";
import type { ImageInspection } from "./image-inspection.ts";

interface CachedInspection {
  image: string;
  profile: string;
  version: string;
  modules: string[];
  builtinModules: string[];
  stockConfig: string | null;
  inspectedAt: string;
}

/** HARNESS_CACHE_DIR, else $XDG_CACHE_HOME/httpd-upgrade-harness, else ~/.cache/httpd-upgrade-harness. */
export function cacheDir(): string {
  if (process.env.HARNESS_CACHE_DIR) return process.env.HARNESS_CACHE_DIR;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "httpd-upgrade-harness");
}

function cacheFile(): string {
  return join(cacheDir(), "inspections.json");
}

function readAll(): Record<string, CachedInspection> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(cacheFile(), "utf8"));
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, CachedInspection>) : {};
  } catch {
    return {};
  }
}

export function rememberInspection(inspection: ImageInspection): void {
  try {
    const all = readAll();
    all[inspection.image] = {
      image: inspection.image,
      profile: inspection.profile.id,
      version: inspection.version.text + (inspection.version.build ?? ""),
      modules: [...inspection.modules].sort(),
      builtinModules: [...inspection.builtinModules].sort(),
      stockConfig: inspection.stockConfig,
      inspectedAt: new Date().toISOString(),
    };
    mkdirSync(cacheDir(), { recursive: true });
    // Written aside and renamed, so a concurrent reader never sees half a file.
    const temporary = `${cacheFile()}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(all, null, 1)}\n`);
    renameSync(temporary, cacheFile());
  } catch {
    // A cache that cannot be written only costs a later plan its precision.
  }
}

export function cachedInspection(image: string): ImageInspection | null {
  const entry = readAll()[image];
  const profile = PROFILES.find((p) => p.id === entry?.profile);
  if (!entry || !profile) return null;
  try {
    return {
      image,
      profile,
      version: httpdVersion(entry.version),
      modules: new Set(entry.modules),
      builtinModules: new Set(entry.builtinModules),
      stockConfig: entry.stockConfig,
      source: "cache",
    };
  } catch {
    return null;
  }
}

/** Where the probe's output for an image id is kept: the id names the image's content, and the script's hash what
 * was asked of it, so a file found there is what probing the image again would print. */
function outputFile(imageId: string, script: string): string {
  const key = `${imageId.replace(/^sha256:/, "")}-${createHash("sha256").update(script).digest("hex").slice(0, 12)}`;
  return join(cacheDir(), "probe-output", `${key}.txt`);
}

/** The probe's output for this image content and script, from an earlier run; null when there is none. */
export function cachedProbeOutput(imageId: string, script: string): string | null {
  try {
    return readFileSync(outputFile(imageId, script), "utf8");
  } catch {
    return null;
  }
}

export function rememberProbeOutput(imageId: string, script: string, output: string): void {
  try {
    const file = outputFile(imageId, script);
    mkdirSync(join(cacheDir(), "probe-output"), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, output);
    renameSync(temporary, file);
  } catch {
    // Not kept: the next run probes the image again.
  }
}
