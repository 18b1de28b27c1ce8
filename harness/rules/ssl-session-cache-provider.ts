// ssl-session-cache-provider (a harness fact, no guide row; the blocking list names socache_shmcb): on 2.4
// mod_ssl keeps its session cache through a socache provider module, and a 2.2 tree loads mod_ssl alone. Real
// 2.4.68, mod_ssl loaded without mod_socache_shmcb:
//   SSLSessionCache "shmcb:/usr/local/apache2/logs/ssl_scache(512000)" → AH00526 "SSLSessionCache: 'shmcb'
//   session cache not supported (known names: ). Maybe you need to load the appropriate socache module
//   (mod_socache_shmcb?)." and the config test fails; `SSLSessionCache none` passes.
import { named, detection } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

/** The cache types of 2.2's SSLSessionCache and the 2.4 module that provides each. */
const PROVIDERS: Readonly<Record<string, string>> = {
  shmcb: "socache_shmcb_module",
  dbm: "socache_dbm_module",
  dc: "socache_dc_module",
  memcache: "socache_memcache_module",
};

function fileOf(id: string): string {
  return `mod_${id.replace(/_module$/, "")}.so`;
}

function detect(context: LintContext): Detection[] {
  // Without mod_ssl the line is an invalid command: the invalid-command pass says so.
  if (!context.loaded.target.has("ssl_module")) return [];
  const found: Detection[] = [];
  for (const entry of named(context.target, "SSLSessionCache")) {
    const type = (entry.directive.args[0] ?? "").split(":")[0]!.toLowerCase();
    const provider = PROVIDERS[type];
    if (provider === undefined || context.loaded.target.has(provider)) continue;
    found.push(
      detection(
        entry,
        `2.4 refuses to start: SSLSessionCache: '${type}' session cache not supported (AH00526): 2.4's mod_ssl caches sessions through ${fileOf(provider)}, which this tree does not load`,
        `LoadModule ${provider} modules/${fileOf(provider)}`,
      ),
    );
  }
  return found;
}

export const SSL_SESSION_CACHE_PROVIDER: Rule = {
  id: "ssl-session-cache-provider",
  seed: [],
  title: "SSLSessionCache names a cache type whose socache module the tree does not load on 2.4",
  severity: "blocking",
  detect,
  recognise: (evidence) =>
    refusalClaim(evidence, /session cache not supported|load the appropriate socache module/, () => "2.4's mod_ssl needs the socache module of its SSLSessionCache type (mod_socache_shmcb for shmcb)"),
  fix: "Load the socache module of the cache type on 2.4 (LoadModule socache_shmcb_module modules/mod_socache_shmcb.so for shmcb), or set SSLSessionCache none.",
  help: "Recorded on 2.4.68: mod_ssl without mod_socache_shmcb refuses SSLSessionCache shmcb:... at the config test; 2.2's mod_ssl had the caches built in.",
};
