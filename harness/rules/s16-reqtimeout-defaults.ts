// S16: loaded on 2.4, mod_reqtimeout applies default read timeouts (header=20-40,MinRate=500 body=20,MinRate=500);
// 2.2's has none until RequestReadTimeout is set. A client that sends its request slowly got its answer from
// 2.2 and 408 Request Timeout from 2.4 (AH01382, info) (reqtimeout-default-slow-headers).
import { defaultAnchor, setsAnywhere } from "./default-anchor.ts";
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

export const S16: Rule = {
  id: "S16",
  seed: ["S16"],
  title: "mod_reqtimeout sets default timeouts on 2.4 when it is loaded",
  severity: "behaviour",
  detect: (context) => {
    if (!context.loaded.target.has("reqtimeout_module") || setsAnywhere(context, "requestreadtimeout")) return [];
    const line = named(context.target, "LoadModule").find((entry) => entry.directive.args[0] === "reqtimeout_module") ?? defaultAnchor(context);
    return line
      ? [
          detection(
            line,
            "mod_reqtimeout is loaded on 2.4 with no RequestReadTimeout: 2.4 answers 408 to a client slower than 20-40 s for the request headers or 20 s for the body (at 500 bytes/s); 2.2 waited up to Timeout",
            "RequestReadTimeout header=20-40,MinRate=500 body=20,MinRate=500  (2.4's defaults, stated; raise them for slow clients)",
          ),
        ]
      : [];
  },
  recognise: (evidence) => {
    const timedOut = evidence.log.candidate.some((record) => ["AH01382", "AH01381", "AH01383"].includes(record.code ?? "") || /Request (header|body) read timeout/.test(record.message));
    const status408 = evidence.status.candidate === 408 && evidence.status.baseline !== 408;
    return (status408 && ["status", "outcome", "body", "errorLog"].includes(evidence.field)) || (timedOut && evidence.field === "errorLog" && evidence.status.baseline !== 408)
      ? { summary: "2.4's mod_reqtimeout defaults timed the slow request out (408); 2.2 has no default read timeout" }
      : null;
  },
  fix: "Set RequestReadTimeout explicitly (the same values on both versions: 2.2.15+ has the module too).",
  help: "Guide, changed semantics: mod_reqtimeout sets default timeouts when loaded (values not shown in the guide; 2.4.62: header=20-40,MinRate=500 body=20,MinRate=500).",
  sample: { config: "# mod_reqtimeout loaded, no RequestReadTimeout", modules: ["reqtimeout"], on24: "starts" },
};
