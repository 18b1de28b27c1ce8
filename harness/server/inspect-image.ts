import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { HarnessError } from "../errors.ts";
import { parseHttpdVersion } from "../versions/httpd-version.ts";
import type { ImageInspection } from "./image-inspection.ts";
import { PROFILES } from "./httpd-profile.ts";
import { imageId } from "../engine/copy-image.ts";
import { cachedProbeOutput, rememberInspection, rememberProbeOutput } from "./inspection-cache.ts";
import { parseCompiledInModules } from "./module-map.ts";

const MARK = "@@harness";

/** The probe script: one throwaway container answers every question at once. */
export function inspectionScript(): string {
  return PROFILES.map(
    (p) =>
      `if [ -x ${p.probe} ]; then echo "${MARK} profile ${p.id}"; ${p.environment ? `${p.environment};` : ""} ` +
      `${p.binary} -v; echo "${MARK} compiled"; ${p.binary} -l; echo "${MARK} modules"; ls ${p.modulesDir}; echo "${MARK} stock"; cat ${p.configFile}; exit 0; fi;`,
  ).join(" ") + ` echo "${MARK} none"; exit 0`;
}

/** Pure: reads the probe's output. */
export function parseInspection(image: string, output: string): ImageInspection {
  const profileId = /@@harness profile (\S+)/.exec(output)?.[1];
  const profile = PROFILES.find((p) => p.id === profileId);
  if (!profile) {
    throw new HarnessError("HARNESS_IMAGE_UNSUPPORTED", `The image ${image} has no httpd where the harness looks for one.`, {
      hint: `Supported layouts: ${PROFILES.map((p) => `${p.id} (${p.probe})`).join(", ")}.`,
    });
  }
  const banner = /Server version: (Apache\/\S+)/.exec(output)?.[1];
  const version = banner ? parseHttpdVersion(banner) : null;
  if (!version) {
    throw new HarnessError("HARNESS_IMAGE_UNSUPPORTED", `The image ${image} runs an httpd the harness cannot place (version ${banner ?? "unknown"}).`, {
      hint: "The harness compares httpd 2.2.x and 2.4.x.",
    });
  }
  const compiledPart = output.split(`${MARK} compiled\n`)[1]?.split(`${MARK} modules\n`)[0] ?? "";
  const modulesPart = output.split(`${MARK} modules\n`)[1]?.split(`${MARK} stock\n`)[0] ?? "";
  const stockConfig = output.split(`${MARK} stock\n`)[1] ?? "";
  return {
    image,
    profile,
    version,
    modules: new Set(modulesPart.split("\n").filter((name) => name.endsWith(".so"))),
    builtinModules: parseCompiledInModules(compiledPart),
    stockConfig,
    source: "inspected",
  };
}

const cache = new Map<string, Promise<ImageInspection>>();

/** Once per image and process. */
export function inspectImage(scope: RunScope, image: string): Promise<ImageInspection> {
  let pending = cache.get(image);
  if (!pending) {
    pending = probeImage(scope, image);
    cache.set(image, pending);
    pending.catch(() => cache.delete(image));
  }
  return pending;
}

/** The image's facts, from a probe container, or from the output an earlier probe of the same image id printed. */
export async function probeImage(scope: RunScope, image: string): Promise<ImageInspection> {
  const script = inspectionScript();
  // An image id is its content: an earlier probe of the same id printed what a new one would (half a second of
  // a container at every run's start).
  const id = await imageId(scope.engine, image);
  const known = id === null ? null : cachedProbeOutput(id, script);
  if (known !== null) return parseInspection(image, known);
  const probe = await HarnessContainer.create(scope, {
    image,
    role: "probe",
    entrypoint: ["/bin/sh", "-c"],
    command: [script],
  });
  try {
    await probe.start();
    await probe.waitForExit();
    await probe.stdout.waitForLine(() => false, { timeoutMs: 5_000 });
    const output = probe.stdout.lines.join("\n");
    const inspection = parseInspection(image, output);
    rememberInspection(inspection);
    if (id !== null) rememberProbeOutput(id, script, output);
    return inspection;
  } finally {
    await probe.remove();
  }
}

export type { ImageInspection };
