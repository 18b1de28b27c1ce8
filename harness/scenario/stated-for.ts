// Pure: what a scenario states for one concrete version: its family's statement, narrowed by version range.
import type { HttpdVersion } from "../versions/httpd-version.ts";
import { inRange } from "../versions/version-range.ts";
import type { ByFamily, Versioned } from "./scenario.ts";

export function statedFor<T>(byFamily: ByFamily<T>, version: HttpdVersion): T | undefined {
  const versioned: Versioned<T> | undefined = byFamily[version.family];
  if (!versioned) return undefined;
  return versioned.ranges.find((entry) => inRange(version, entry.range))?.value ?? versioned.otherwise;
}

/** A single statement for a family (no ranges): the common case, and what tests build. */
export function single<T>(value: T): Versioned<T> {
  return { ranges: [], otherwise: value };
}
