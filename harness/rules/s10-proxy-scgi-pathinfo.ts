// S10: mod_proxy_scgi's PATH_INFO changed: 2.2 sent the path after the ProxyPass prefix as PATH_INFO and the
// prefix as SCRIPT_NAME; 2.4 sends no PATH_INFO and the whole path as SCRIPT_NAME (proxy-scgi-path-info-default).
// The variable proxy-scgi-pathinfo restores 2.2's split, but only when set before the proxy canonicalises the
// URL: SetEnvIf in server context works, SetEnv (fixups) is too late (proxy-scgi-path-info-setenv/-setenvif).
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

const SCGI = /^scgi:\/\//i;

function setsPathInfo(args: readonly string[]): boolean {
  return args.some((arg) => /^!?proxy-scgi-pathinfo(=|$)/i.test(arg));
}

export const S10: Rule = {
  id: "S10",
  seed: ["S10"],
  title: "mod_proxy_scgi sends no PATH_INFO by default on 2.4; proxy-scgi-pathinfo (set early) restores 2.2's",
  severity: "behaviour",
  detect: (context) => {
    const config = context.target;
    const early = named(config, "SetEnvIf", "SetEnvIfNoCase", "SetEnvIfExpr", "BrowserMatch", "BrowserMatchNoCase").some(
      (entry) => entry.sections.every((section) => section.key === "virtualhost" || section.key.startsWith("if")) && setsPathInfo(entry.directive.args.slice(1)),
    );
    if (early) return [];
    const late = named(config, "SetEnv").some((entry) => /^proxy-scgi-pathinfo$/i.test(entry.directive.args[0] ?? ""));
    const passes = named(config, "ProxyPass", "ProxyPassMatch").filter((entry) => entry.directive.args.some((arg) => SCGI.test(arg)));
    const rewrites = named(config, "RewriteRule").filter((entry) => SCGI.test(entry.directive.args[1] ?? ""));
    return [...passes, ...rewrites]
      .sort((a, b) => a.index - b.index)
      .map((entry) =>
        detection(
          entry,
          `an SCGI application behind this line gets no PATH_INFO on 2.4, and the whole path as SCRIPT_NAME (2.2: the prefix)${late ? "; SetEnv proxy-scgi-pathinfo is applied too late on 2.4 to change that" : ""}`,
          'SetEnvIf Request_URI . proxy-scgi-pathinfo  (server context, so it is set before the proxy maps the URL)',
        ),
      );
  },
  recognise: (evidence) => {
    if (evidence.field !== "body" || evidence.baseline === null || evidence.candidate === null) return null;
    const without = (text: string): string => text.replace(/^(PATH_INFO|SCRIPT_NAME)=.*\n?/gm, "");
    return /^PATH_INFO=/m.test(evidence.baseline) && !/^PATH_INFO=/m.test(evidence.candidate) && without(evidence.baseline) === without(evidence.candidate)
      ? { summary: "the SCGI application got no PATH_INFO from 2.4 and the whole path as SCRIPT_NAME" }
      : null;
  },
  fix: "Set proxy-scgi-pathinfo early (SetEnvIf Request_URI . proxy-scgi-pathinfo in server context), or let the application read the path from SCRIPT_NAME/REQUEST_URI.",
  help: "Guide, changed semantics: the PATH_INFO default of mod_proxy_scgi changed; setting proxy-scgi-pathinfo restores the previous behaviour.",
  sample: { config: "ProxyPass /scgi/ scgi://127.0.0.1:4000/", modules: ["proxy", "proxy_scgi"], on24: "starts" },
};
