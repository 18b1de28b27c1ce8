// B2: 2.2's mod_disk_cache is mod_cache_disk in 2.4 (same directives, new module and file); mod_mem_cache is
// gone (2.4 caches in memory through mod_cache_socache). A 2.2 config's LoadModule of either file fails the
// config test ("Cannot load modules/mod_disk_cache.so into server: ... No such file or directory"), and
// without mod_cache_disk loaded its Cache* directives are invalid commands.
import { cannotLoadPattern, invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

const MEM_CACHE_DIRECTIVES = ["MCacheMaxObjectCount", "MCacheMaxObjectSize", "MCacheMaxStreamingBuffer", "MCacheMinObjectSize", "MCacheRemovalAlgorithm", "MCacheSize"];
const DISK_CACHE_DIRECTIVES = ["CacheRoot", "CacheDirLevels", "CacheDirLength", "CacheMinFileSize", "CacheMaxFileSize"];
const GONE_FILES = ["mod_disk_cache.so", "mod_mem_cache.so"];

export const B2: Rule = {
  id: "B2",
  seed: ["B2"],
  title: "the disk cache module is mod_cache_disk in 2.4; mod_mem_cache is gone",
  severity: "blocking",
  owns: { moduleFiles: GONE_FILES, modules: ["cache_disk_module"], directives: MEM_CACHE_DIRECTIVES },
  ownedLine: (node) => {
    if (node.key === "loadmodule") {
      return /mod_mem_cache\.so$/.test(node.args[1] ?? "")
        ? { message: "2.4 refuses to start: 2.4 has no mod_mem_cache.so (Cannot load ... into server); memory caching is mod_cache_socache", fix: "LoadModule cache_socache_module modules/mod_cache_socache.so\nLoadModule socache_shmcb_module modules/mod_socache_shmcb.so\nCacheEnable socache /" }
        : { message: "2.4 refuses to start: 2.4 has no mod_disk_cache.so (Cannot load ... into server); the module is mod_cache_disk", fix: "LoadModule cache_disk_module modules/mod_cache_disk.so" };
    }
    if (node.key.startsWith("mcache")) {
      return { message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): mod_mem_cache is gone`, fix: "remove it; size a mod_cache_socache cache with CacheSocache shmcb:PATH(BYTES)" };
    }
    return { message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): its module is mod_cache_disk on 2.4, which this tree does not load`, fix: "LoadModule cache_disk_module modules/mod_cache_disk.so" };
  },
  recognise: (evidence) =>
    refusalClaim(evidence, cannotLoadPattern(GONE_FILES), (refusal) => `2.4 has no ${refusal.match[2]}: the disk cache is mod_cache_disk, mod_mem_cache is gone`) ??
    refusalClaim(evidence, invalidCommandPattern([...MEM_CACHE_DIRECTIVES, ...DISK_CACHE_DIRECTIVES]), (refusal) => `2.4 refuses '${refusal.match[1]}': a cache directive of mod_disk_cache/mod_mem_cache without mod_cache_disk`),
  fix: "LoadModule disk_cache_module modules/mod_disk_cache.so → LoadModule cache_disk_module modules/mod_cache_disk.so; drop mod_mem_cache and its MCache* lines (mod_cache_socache caches in memory).",
  help: "Guide, build changes: the disk cache module is mod_cache_disk in 2.4 (recorded: 2.4 fails with Cannot load modules/mod_disk_cache.so into server).",
  sample: { config: "LoadModule cache_module modules/mod_cache.so\nLoadModule disk_cache_module modules/mod_disk_cache.so\nCacheRoot cache\nCacheEnable disk /", on24: "refuses" },
};
