// S13: 2.4's mod_deflate leaves a body alone when gzip would not make it smaller: a response whose whole body is
// at most 68 bytes (10 header + 8 trailer + 50) goes out as is, without Content-Encoding and without Vary; 2.2
// gzipped a 20-byte file to 40 bytes (fixtures case g2, deflate-skips-tiny-body). Benign for clients.
import { detection, named } from "./detection.ts";
import type { Evidence } from "./evidence.ts";
import type { Rule } from "./rule.ts";

/** mod_deflate's threshold in 2.4.62: sizeof(gzip_header) + VALIDATION_SIZE + 50. */
export const DEFLATE_SMALLEST = 68;

function deflateLines(args: readonly string[], key: string): boolean {
  if (key === "filterprovider") return args.some((arg) => arg.toLowerCase() === "deflate");
  return (args[0] ?? "").split(";").some((name) => name.toUpperCase() === "DEFLATE");
}

function claimed(evidence: Evidence): boolean {
  const { baseline, candidate } = evidence;
  switch (evidence.field) {
    case "header:content-encoding":
      return baseline?.toLowerCase() === "gzip" && candidate === null;
    case "header:vary":
      return /accept-encoding/i.test(baseline ?? "") && !/accept-encoding/i.test(candidate ?? "");
    case "header:content-length":
      return candidate !== null && Number(candidate) <= DEFLATE_SMALLEST && Number(baseline) !== Number(candidate);
    case "body":
      // The shown gzip body starts with its magic bytes (1f 8b, the second shown as a replacement character).
      return /^\x1f(\x8b|\uFFFD)/.test(baseline ?? "") && candidate !== null && Buffer.byteLength(candidate) <= DEFLATE_SMALLEST;
    default:
      return false;
  }
}

export const S13: Rule = {
  id: "S13",
  seed: ["S13"],
  title: "mod_deflate does not compress bodies that gzip would not make smaller (68 bytes or less) on 2.4",
  severity: "expected",
  detect: (context) =>
    named(context.target, "AddOutputFilterByType", "AddOutputFilter", "SetOutputFilter", "FilterProvider")
      .filter((entry) => deflateLines(entry.directive.args, entry.directive.key))
      .map((entry) => detection(entry, `2.4 sends bodies of ${DEFLATE_SMALLEST} bytes or less uncompressed here (no Content-Encoding, no Vary); 2.2 gzipped them`, null)),
  recognise: (evidence) => {
    if (evidence.status.baseline !== 200 || evidence.status.candidate !== 200 || !claimed(evidence)) return null;
    return { summary: `2.4 left a small body uncompressed (mod_deflate skips bodies of ${DEFLATE_SMALLEST} bytes or less); 2.2 gzipped it` };
  },
  fix: "Nothing to do: clients get the same content; the tiny answers are no longer larger than they need be.",
  help: "Guide, changed semantics: mod_deflate skips compression when the overhead is larger than the data.",
  sample: { config: "AddOutputFilterByType DEFLATE text/plain", modules: ["filter", "deflate"], on24: "starts", files: { "htdocs/tiny.txt": "twenty bytes of tx.\n" }, request: "/tiny.txt" },
};
