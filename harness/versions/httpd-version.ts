// One httpd version, parsed once from whatever names it ("2.4.62", "Apache/2.2.34 (Unix)", Debian's
// "2.4.62-1~deb11u1"), and the release line (family) derived from it in this one place. Everything that
// differs between versions asks for a version or a family; nothing compares version strings by hand.

/** The release lines the harness compares. Data, so a line can be added without touching the stages. */
export const FAMILIES = ["2.2", "2.4"] as const;
export type Family = (typeof FAMILIES)[number];

export interface HttpdVersion {
  /** "2.4.62": major.minor.patch only. */
  text: string;
  major: number;
  minor: number;
  patch: number;
  family: Family;
  /** What followed the number where it was read: Debian's revision ("-1~deb11u1"), or null. */
  build: string | null;
}

const VERSION = /(?:Apache\/)?(\d+)\.(\d+)\.(\d+)([-+~][0-9A-Za-z.~+-]*)?/;

/** Reads a version from text, or null when there is none or it belongs to no known family. */
export function parseHttpdVersion(text: string): HttpdVersion | null {
  const match = VERSION.exec(text);
  if (!match) return null;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const family = familyOf(major, minor);
  if (family === null) return null;
  return { text: `${major}.${minor}.${patch}`, major, minor, patch, family, build: match[4] ?? null };
}

/** Like parseHttpdVersion, for text that must hold a version (tests, data files). */
export function httpdVersion(text: string): HttpdVersion {
  const version = parseHttpdVersion(text);
  if (version === null) throw new Error(`not an httpd ${FAMILIES.join(" or ")} version: ${JSON.stringify(text)}`);
  return version;
}

export function familyOf(major: number, minor: number): Family | null {
  const name = `${major}.${minor}`;
  return (FAMILIES as readonly string[]).includes(name) ? (name as Family) : null;
}

export function isFamily(text: string): text is Family {
  return (FAMILIES as readonly string[]).includes(text);
}

/** Negative when a is older than b, zero when equal, positive when newer (the build part is ignored). */
export function compareVersions(a: Pick<HttpdVersion, "major" | "minor" | "patch">, b: Pick<HttpdVersion, "major" | "minor" | "patch">): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}
