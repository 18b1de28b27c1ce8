// S1: 2.4 takes only On or Off for KeepAlive ("KeepAlive must be On or Off", recorded for yes and "yes");
// 2.2 read any value but Off and 0 as On. Read in the 2.2 view: what the operator runs today decides what the
// replacement keeps.
import { detection, named } from "./detection.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

/** What 2.2 made of a KeepAlive value (core.c set_keep_alive: "off" and "0" are Off, the rest On). */
export function keepAlive22(value: string): "On" | "Off" {
  return value.toLowerCase() === "off" || value === "0" ? "Off" : "On";
}

export const S1: Rule = {
  id: "S1",
  seed: ["S1"],
  title: "KeepAlive accepts only On or Off",
  severity: "blocking",
  detect: (context) => {
    const found: Detection[] = [];
    for (const entry of named(context.source, "KeepAlive")) {
      const value = entry.directive.args[0] ?? "";
      if (/^(on|off)$/i.test(value)) continue;
      const meant = keepAlive22(value);
      found.push(detection(entry, `2.4 refuses to start: KeepAlive must be On or Off (AH00526); 2.2 read '${value}' as ${meant}`, `KeepAlive ${meant}`));
    }
    return found;
  },
  recognise: (evidence) => refusalClaim(evidence, /KeepAlive must be On or Off/, () => "2.4 refuses a KeepAlive value other than On or Off"),
  fix: "Write KeepAlive On or KeepAlive Off (2.2 read 0 as Off and any other value as On).",
  help: "Guide: KeepAlive accepts only On or Off; in 2.2 any value other than Off or 0 meant On.",
  sample: { config: "KeepAlive yes", on24: "refuses" },
};
