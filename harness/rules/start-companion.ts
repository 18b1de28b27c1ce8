// A 2.4 module that passes the config test and then exits at start-up unless a companion module is loaded,
// whether or not anything configures it (recorded on 2.4.62, every module loaded alone on the stock config:
// versions/module-start-companions.ts). mod_proxy_balancer without mod_slotmem_shm (AH01177), mod_proxy_hcheck and
// mod_heartmonitor without mod_watchdog, mod_auth_form without mod_session, mod_authnz_ldap without mod_ldap. On
// 2.2 the companions were built in (slotmem, watchdog) or did not exist, so a 2.2 tree loading the module (a stock
// one loads mod_proxy_balancer and configures no balancer) never named them.
import { walkConfig } from "../conf/queries/walk-config.ts";
import { moduleBinding } from "../server/module-map.ts";
import { START_COMPANIONS_2_4_62, type StartCompanion } from "../versions/module-start-companions.ts";
import { detection } from "./detection.ts";
import { aboutStartup, findRefusal } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

/** The recorded pairs of the 2.4 target. */
export const START_COMPANIONS: readonly StartCompanion[] = START_COMPANIONS_2_4_62;

function loadLine(name: string): string {
  const binding = moduleBinding(name, "2.4");
  return typeof binding === "string" ? `LoadModule ${name}_module modules/mod_${name}.so` : `LoadModule ${binding.id} modules/${binding.file}`;
}

/** The companions a set of loaded module ids lacks on 2.4, by the module that needs them. */
export function missingCompanions(loaded: ReadonlySet<string>): StartCompanion[] {
  return START_COMPANIONS.filter((pair) => loaded.has(`${pair.module}_module`) && !loaded.has(`${pair.companion}_module`));
}

export const START_COMPANION: Rule = {
  id: "start-companion",
  seed: ["B3"],
  title: "a 2.4 module that exits at start-up unless its companion module is loaded",
  severity: "blocking",
  detect: (context) => {
    const missing = missingCompanions(context.loaded.target);
    if (missing.length === 0) return [];
    const lines = walkConfig(context.target).byKey.get("loadmodule") ?? [];
    const found: Detection[] = [];
    for (const pair of missing) {
      const line = lines.find((entry) => entry.directive.args[0] === `${pair.module}_module`);
      // Loaded by the target's stock config around a fragment: no line of the tree to name.
      if (line === undefined) continue;
      found.push(
        detection(
          line,
          `2.4 passes its config test and then exits at start-up: ${pair.message} (${pair.code}): mod_${pair.module} needs mod_${pair.companion} loaded on 2.4, configured or not`,
          loadLine(pair.companion),
        ),
      );
    }
    return found;
  },
  recognise: (evidence) => {
    if (!aboutStartup(evidence)) return null;
    for (const pair of START_COMPANIONS) {
      const refusal = findRefusal(evidence.log.candidate, new RegExp(`${pair.code}\\b|${pair.message.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      if (refusal !== null) return { summary: `2.4 exits at start-up: mod_${pair.module} needs mod_${pair.companion} (${pair.code})`, lines: refusal.place === null ? [] : [refusal.place] };
    }
    return null;
  },
  fix: "Load the companion module beside the module that needs it: mod_slotmem_shm for mod_proxy_balancer, mod_watchdog for mod_proxy_hcheck and mod_heartmonitor, mod_session for mod_auth_form, mod_ldap for mod_authnz_ldap; or stop loading a module nothing uses.",
  help: "Recorded on real 2.4.62: each module loaded alone on the stock config (fixtures/real-httpd/module-alone-2.4.62.tsv). The guide's build changes name the balancer's mod_slotmem_shm; the others are the same kind of failure.",
  sample: { config: "# the balancer module loaded, no balancer configured", modules: ["proxy", "proxy_balancer"], on24: "exits-at-start" },
};
