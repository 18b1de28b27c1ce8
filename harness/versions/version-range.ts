// Version ranges, as scenarios write them to tell patch levels apart: ">=2.4.63", "<2.4.63", "2.4.62",
// ">=2.4.60 <2.4.63" (space-separated parts must all hold). Parsed once into data.
import { compareVersions, type HttpdVersion } from "./httpd-version.ts";

export type Comparator = ">=" | ">" | "<=" | "<" | "=";

export interface VersionBound {
  op: Comparator;
  major: number;
  minor: number;
  patch: number;
}

export interface VersionRange {
  /** As written, for messages and reports. */
  text: string;
  bounds: VersionBound[];
}

const BOUND = /^(>=|<=|>|<|=)?(\d+)\.(\d+)\.(\d+)$/;

/** A range, or null when `text` is not one (the caller reports where). */
export function parseVersionRange(text: string): VersionRange | null {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  const bounds: VersionBound[] = [];
  for (const part of parts) {
    const match = BOUND.exec(part);
    if (!match) return null;
    bounds.push({ op: (match[1] ?? "=") as Comparator, major: Number(match[2]), minor: Number(match[3]), patch: Number(match[4]) });
  }
  return { text: parts.join(" "), bounds };
}

/** Whether text looks like a range at all (starts with a comparator or a version number). */
export function looksLikeVersionRange(text: string): boolean {
  return /^\s*(>=|<=|>|<|=)?\s*\d+\.\d+/.test(text);
}

export function inRange(version: HttpdVersion, range: VersionRange): boolean {
  return range.bounds.every((bound) => {
    const order = compareVersions(version, bound);
    switch (bound.op) {
      case ">=":
        return order >= 0;
      case ">":
        return order > 0;
      case "<=":
        return order <= 0;
      case "<":
        return order < 0;
      case "=":
        return order === 0;
    }
  });
}
