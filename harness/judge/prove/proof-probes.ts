// Pure: the probes a proof (and a fleet's run of a tree) sends, generated from the original as 2.2 runs it and
// the port as the 2.4 target runs it: every virtual host x path region x a client at each address and name the
// configs name x credentials x methods (plan/probes/). The views come from the rules' lint context, which is why
// this sits beside the proof's judge rather than in plan/.
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import type { ConfigTree } from "../../conf/load-tree.ts";
import { generateProbes } from "../../plan/probes/generate-probes.ts";
import type { ProbeSet } from "../../plan/probes/probe.ts";
import { textAccessForms } from "../../plan/probes/probe-clients.ts";
import type { AccessFile } from "../../plan/probes/region-auth.ts";
import { OFFICIAL_PROFILE } from "../../server/httpd-profile.ts";
import { lintContext } from "../../rules/lint-context.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../rules/target-modules.ts";

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

/** The views prove reads: the original as 2.2 runs it, the port as the 2.4 target runs it. */
export function proofConfigs(original: ConfigTree, port: ConfigTree, defines: readonly string[]): { baseline: EffectiveConfig; candidate: EffectiveConfig } {
  const baseline = lintContext(original, { defines, target: TARGET_PROFILES[defaultTargetModules(original.layout)] }).source;
  const candidate = lintContext(port, { defines, target: TARGET_PROFILES[defaultTargetModules(port.layout)] }).target;
  return { baseline, candidate };
}

export function proofProbes(original: ConfigTree, port: ConfigTree, defines: readonly string[]): { set: ProbeSet; configs: ReturnType<typeof proofConfigs> } {
  const configs = proofConfigs(original, port, defines);
  const fragment = original.layout === "fragment" || port.layout === "fragment";
  const set = generateProbes([configs.baseline], [configs.candidate], {
    ipv6: true,
    scripts: [...new Set([...scripts(original), ...scripts(port)])],
    accessDirs: [...new Set([...accessFiles(original), ...accessFiles(port)].map((a) => a.dir))],
    accessFiles: [...accessFiles(original), ...accessFiles(port)],
    // A fragment is served from the image's document root (the official images' one).
    defaultRoot: fragment ? OFFICIAL_PROFILE.docRoot : null,
    extraForms: [original, port].flatMap((tree) => [...tree.source.files].filter(([path]) => path.endsWith(".htaccess")).flatMap(([, bytes]) => textAccessForms(bytes.toString("latin1")))),
    extraTargets: fragment ? [{ host: null, port: 80, tls: false, client: "host" }] : [],
  });
  return { set, configs };
}
