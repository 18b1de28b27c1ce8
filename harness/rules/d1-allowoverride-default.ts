// D1 (with T3): AllowOverride's default changed from All (2.2) to None (2.4). A tree that never sets it has
// its .htaccess files obeyed on 2.2; on 2.4 they are not ignored, as the guide says, but read with no override
// class allowed, so any directive in them fails the request.
// Real servers (each image's stock httpd.conf with every AllowOverride line removed; .htaccess files):
//   h1/.htaccess AuthType Basic ... Require valid-user:  2.2.34 401, 2.4.68 500 "[core:alert] .../h1/.htaccess:
//       AuthType not allowed here".
//   h2/.htaccess Order deny,allow / Deny from all:        2.2.34 403, 2.4.68 500 "order not allowed here".
//   The same fragment on the unchanged stock configs (both set AllowOverride None on <Directory />): 200 on
//   both, the .htaccess ignored by both. Fixtures case e (2.4.62) found the same.
// So no widening: the .htaccess protection turns into a 500, not into an open page.
import { walkConfig } from "../conf/queries/walk-config.ts";
import { writtenFor24 } from "./default-anchor.ts";
import { candidateLogs } from "./evidence.ts";
import { detection } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection, Rule } from "./rule.ts";

function detect(context: LintContext): Detection[] {
  // Around a fragment both stock configs set AllowOverride None on <Directory />: the default never shows.
  if (context.source.layout === "fragment") return [];
  if (writtenFor24(context)) return [];
  const walked = walkConfig(context.source);
  if ((walked.byKey.get("allowoverride") ?? []).length > 0) return [];
  const first = walked.sections.find((entry) => entry.section.key === "directory");
  if (first === undefined) return [];
  return [
    detection(
      first,
      "this tree never sets AllowOverride: 2.2 obeys .htaccess files (default All); 2.4 reads them with no override allowed (default None), so a directory with a .htaccess answers 500 (\"... not allowed here\")",
      "AllowOverride None  in <Directory />, and AllowOverride All (or the classes the .htaccess files need: AuthConfig, Limit, FileInfo, ...) where .htaccess files are used",
    ),
  ];
}

export const D1: Rule = {
  id: "D1",
  seed: ["D1", "T3"],
  title: "AllowOverride defaults to None on 2.4: .htaccess files obeyed on 2.2 fail with 500 on 2.4",
  severity: "behaviour",
  detect,
  recognise: (evidence) => {
    if (evidence.field !== "status" || evidence.status.candidate !== 500) return null;
    const refused = candidateLogs(evidence, /\.htaccess: .* not allowed here/);
    if (refused.length === 0) return null;
    return {
      summary: `2.4 answered 500 on ${evidence.request?.path ?? "a request"}: ${refused[0]!.message.trim()} (no AllowOverride set; 2.2's default was All)`,
      lines: evidence.findings.filter((finding) => finding.rule === "D1").map((finding) => ({ file: finding.file, line: finding.line })),
      severity: "behaviour",
    };
  },
  fix: "Set AllowOverride explicitly: None on <Directory />, and the override classes the .htaccess files need where they are used.",
  help: "Guide: AllowOverride now defaults to None. Real 2.4.62 and 2.4.68 still read .htaccess without AllowOverride and refuse every directive in it (500), they do not ignore it.",
  // Shows only on a base config that sets no AllowOverride (both stock configs set None on <Directory />).
  sample: {
    config: "<Directory /usr/local/apache2/htdocs/h>\n    Options None\n</Directory>",
    request: "/h/",
    on24: "starts",
    files: { "htdocs/h/index.html": "h\n", "htdocs/h/.htaccess": "Options -Indexes\n" },
  },
};
