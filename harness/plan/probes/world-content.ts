// Pure: what the probe world plants behind a URL, and how an answer shows which of it came back. Each object
// carries a marker unique to its URL; what a script or a parsed page prints when it runs never appears in its
// source, so "executed" and "source served" are told apart by text alone:
// - a CGI script prints `executed-<marker>`; its source says `executed-%s` and holds the marker apart;
// - an SSI page prints `ssi-ran-<marker>` when parsed; unparsed, it shows its `<!--#echo var="ran" -->`.
import { createHash } from "node:crypto";
import type { ObjectKind } from "./probe.ts";

export const WORLD_NAME = "httpd-upgrade-harness";

/** The marker of the object behind a URL path: the same on both sides, whatever file each maps the URL to. */
export function markerOf(url: string): string {
  return `hpw-${createHash("sha256").update(url.split("?")[0]!).digest("hex").slice(0, 12)}`;
}

/** The bytes planted for an object, and the mode they get (scripts are executable). */
export function objectText(kind: ObjectKind, marker: string): { text: string; mode: number } {
  switch (kind) {
    case "cgi":
      return {
        text: [
          "#!/bin/sh",
          `# ${WORLD_NAME} probe script ${marker}: its output says it ran, its source never does`,
          `m=${marker}`,
          "printf 'Content-Type: text/plain\\r\\n\\r\\n'",
          "printf 'executed-%s\\n' \"$m\"",
          "",
        ].join("\n"),
        mode: 0o755,
      };
    case "ssi":
      return { text: `<html><body><!--#set var="ran" value="ssi-ran-" --><!--#echo var="ran" -->${marker}\n<!-- ${WORLD_NAME} probe page ${marker} --></body></html>\n`, mode: 0o644 };
    case "index":
      return { text: `<html><body><p>${WORLD_NAME} probe index ${marker}</p></body></html>\n`, mode: 0o644 };
    case "hidden":
      // A comment line: harmless where httpd reads the file (.htaccess, a password or group file skips it).
      return { text: `# ${WORLD_NAME} probe object ${marker}\n`, mode: 0o644 };
    case "static":
      return { text: `${WORLD_NAME} probe object ${marker}\n`, mode: 0o644 };
  }
}

/** What a 2xx body shows of a planted object: it ran (a script's or a parsed page's output), its source was
 * served, its marker came back as planted, or none of it (another handler answered: a listing, a status page). */
export type MarkerSeen = "executed" | "source" | "marker" | "none";

export function markerSeen(kind: ObjectKind, marker: string, body: string): MarkerSeen {
  if (kind === "cgi") {
    if (body.includes(`executed-${marker}`)) return "executed";
    if (body.includes(`${WORLD_NAME} probe script ${marker}`)) return "source";
  }
  if (kind === "ssi") {
    if (body.includes(`ssi-ran-${marker}`)) return "executed";
    if (body.includes(`<!--#echo var="ran" -->${marker}`)) return "source";
  }
  return body.includes(marker) ? "marker" : "none";
}
