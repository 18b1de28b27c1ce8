// S2: CacheIgnoreURLSessionIdentifiers matches the whole identifier on 2.4; 2.2 cut a configured name out of a
// longer one ("sessionid" out of "jsessionid=1", cache key ".../page.shtml?j"), so requests that differ only in
// jsessionid shared one cache entry on 2.2 and each get their own on 2.4 (cache-session-id-substring).
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

function queryNames(path: string): string[] {
  const query = path.split("?")[1] ?? "";
  return query.split(/[&;]/).map((pair) => pair.split("=")[0]!.toLowerCase()).filter(Boolean);
}

export const S2: Rule = {
  id: "S2",
  seed: ["S2"],
  title: "CacheIgnoreURLSessionIdentifiers matches the whole identifier on 2.4, not a substring",
  severity: "behaviour",
  detect: (context) =>
    named(context.target, "CacheIgnoreURLSessionIdentifiers")
      .filter((entry) => !entry.directive.args.every((arg) => arg.toLowerCase() === "none"))
      .map((entry) =>
        detection(
          entry,
          `2.4 strips only parameters named exactly ${entry.directive.args.join(", ")}; 2.2 also cut them out of longer names (sessionid out of jsessionid), so such requests were one cache entry on 2.2 and are separate entries on 2.4`,
          `${entry.directive.name} ${entry.directive.args.join(" ")} <every full parameter name the application uses, e.g. jsessionid>`,
        ),
      ),
  recognise: (evidence) => {
    if (!["body", "header:age", "header:x-cache", "errorLog"].includes(evidence.field) || evidence.request === null) return null;
    const configured = evidence.findings
      .filter((finding) => finding.rule === "S2")
      .flatMap((finding) => finding.directive.split(/\s+/).slice(1).map((word) => word.replace(/^"|"$/g, "").toLowerCase()));
    const identifiers = configured.length > 0 ? configured : ["sessionid"];
    const longer = queryNames(evidence.request.path).find((name) => identifiers.some((id) => name !== id && name.endsWith(id)));
    if (longer === undefined) return null;
    return { summary: `2.2 cached "${longer}" requests under one key (substring match of the session identifier); 2.4 keeps ${longer} in the cache key` };
  },
  fix: "List every full session parameter name (jsessionid as well as sessionid) in CacheIgnoreURLSessionIdentifiers.",
  help: "Guide, changed semantics: CacheIgnoreURLSessionIdentifiers matches the whole identifier; sessionid no longer matches jsessionid.",
  sample: { config: "CacheIgnoreURLSessionIdentifiers sessionid", modules: ["cache"], on24: "starts" },
};
