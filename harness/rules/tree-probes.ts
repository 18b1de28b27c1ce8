// Pure: the probe set the plan makes for configuration trees (plan/probes/), with the options both lint and prove
// give it: the trees' script files (whose source must never be served), their .htaccess files and the address and
// name forms those hold, and for a fragment the image's document root and the stock config's port. prove generates
// it from the original's 2.2 view and the port's 2.4 view (judge/prove/proof-probes.ts); lint from one tree's two
// views, so that the outcomes lint claims are those of cells prove sends.
import type { ConfigTree } from "../conf/load-tree.ts";
import { generateProbes, type ProbeOptions } from "../plan/probes/generate-probes.ts";
import type { ProbeSet } from "../plan/probes/probe.ts";
import { textAccessForms } from "../plan/probes/probe-clients.ts";
import type { AccessFile } from "../plan/probes/region-auth.ts";
import { OFFICIAL_PROFILE } from "../server/httpd-profile.ts";
import type { LintContext } from "./lint-context.ts";

const SCRIPT = /\.(cgi|pl|php\d?|py|sh)$/i;

/** The script files of a tree, by their path inside the server. */
function scripts(tree: ConfigTree): string[] {
  const mount = tree.source.mount.replace(/\/+$/, "");
  return [...tree.source.files.keys()].filter((path) => SCRIPT.test(path)).map((path) => `${mount}/${path}`);
}

/** A tree's .htaccess files: the directory each is in (inside the server), its tree path and its text. */
function accessFiles(tree: ConfigTree): AccessFile[] {
  const mount = tree.source.mount.replace(/\/+$/, "");
  return [...tree.source.files]
    .filter(([path]) => path === ".htaccess" || path.endsWith("/.htaccess"))
    .map(([path, bytes]) => ({ dir: `${mount}/${path}`.replace(/\/\.htaccess$/, ""), file: path, text: bytes.toString("latin1") }));
}

/** Where a URL maps when the trees set no DocumentRoot: a fragment is served from the official image's. */
export function treeDefaultRoot(trees: readonly ConfigTree[]): string | null {
  return trees.some((tree) => tree.layout === "fragment") ? OFFICIAL_PROFILE.docRoot : null;
}

/** The probe options for a set of trees (the original and its port, or one tree). */
export function treeProbeOptions(trees: readonly ConfigTree[]): ProbeOptions {
  const fragment = trees.some((tree) => tree.layout === "fragment");
  const files = trees.flatMap(accessFiles);
  return {
    ipv6: true,
    scripts: [...new Set(trees.flatMap(scripts))],
    accessDirs: [...new Set(files.map((a) => a.dir))],
    accessFiles: files,
    defaultRoot: treeDefaultRoot(trees),
    extraForms: trees.flatMap((tree) => [...tree.source.files].filter(([path]) => path.endsWith(".htaccess")).flatMap(([, bytes]) => textAccessForms(bytes.toString("latin1")))),
    extraTargets: fragment ? [{ host: null, port: 80, tls: false, client: "host" }] : [],
  };
}

/** The probes of one linted tree: from its 2.2 view and its unchanged 2.4 view. */
export function lintProbes(context: LintContext): ProbeSet {
  return generateProbes([context.source], [context.target], treeProbeOptions([context.tree]));
}
