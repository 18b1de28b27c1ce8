// S12: with IndexOptions ScanHTMLTitles, 2.4's mod_autoindex shows the <title> of .xhtml files in a listing's
// description column too; 2.2 left it blank (autoindex-xhtml-titles). More information, nothing lost.
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

const XHTML_ENTRY = /href="[^"?]+\.xhtml"/i;

export const S12: Rule = {
  id: "S12",
  seed: ["S12"],
  title: "mod_autoindex shows the titles of .xhtml files on 2.4 (ScanHTMLTitles)",
  severity: "expected",
  detect: (context) =>
    named(context.target, "IndexOptions")
      .filter((entry) => entry.directive.args.some((arg) => arg.replace(/^\+/, "").toLowerCase() === "scanhtmltitles"))
      .map((entry) => detection(entry, "directory listings here show the titles of .xhtml files on 2.4 (2.2 left their description blank)", null)),
  recognise: (evidence) => {
    if (evidence.field !== "body" || evidence.status.baseline !== 200 || evidence.status.candidate !== 200) return null;
    const listing = (text: string | null): boolean => /Index of /.test(text ?? "");
    return listing(evidence.baseline) && listing(evidence.candidate) && XHTML_ENTRY.test(evidence.candidate ?? "") && (evidence.findings.length === 0 || evidence.findings.some((finding) => finding.rule === "S12"))
      ? { summary: "the 2.4 listing shows the titles of .xhtml files (ScanHTMLTitles)" }
      : null;
  },
  fix: "Nothing to do; descriptions set with AddDescription take precedence on both versions.",
  help: "Guide, changed semantics: mod_autoindex extracts titles and shows descriptions for .xhtml files, which were previously ignored.",
  sample: { config: "IndexOptions FancyIndexing ScanHTMLTitles", modules: ["autoindex"], on24: "starts" },
};
