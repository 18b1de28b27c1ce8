// The facts about an image when no engine is asked (`plan`): the last inspection's cache, or else the
// official layout's defaults for a version (given, or read from the image's tag). The facts say which.
import { HarnessError } from "../errors.ts";
import { type HttpdVersion, parseHttpdVersion } from "../versions/httpd-version.ts";
import { cachedInspection } from "./inspection-cache.ts";
import type { ImageInspection } from "./image-inspection.ts";
import { officialDefaults } from "./official-defaults.ts";

export function offlineFacts(image: string, version: HttpdVersion | null): ImageInspection {
  const cached = cachedInspection(image);
  if (cached && (version === null || cached.version.text === version.text)) return cached;
  const tag = image.includes(":") ? (image.split(":").pop() ?? "") : "";
  const assumed = version ?? (/^\d+\.\d+\.\d+/.test(tag) ? parseHttpdVersion(tag) : null);
  if (assumed === null) {
    throw new HarnessError("HARNESS_USAGE", `No inspection of ${image} is cached and its tag names no httpd 2.2 or 2.4 version (major.minor.patch).`, {
      hint: "Give the versions to plan for, e.g. --versions 2.2.34,2.4.68, or run once with an engine so the image is inspected.",
    });
  }
  return officialDefaults(image, assumed);
}
