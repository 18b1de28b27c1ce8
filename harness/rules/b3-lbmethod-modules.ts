// B3: 2.4's load-balancing methods are modules of their own (mod_lbmethod_byrequests, _bytraffic,
// _bybusyness, _heartbeat), and its balancer needs mod_slotmem_shm; 2.2 had all of it inside
// mod_proxy_balancer. Recorded on 2.4: a balancer naming lbmethod=X without its module fails the config test
// ("ProxySet: unknown lbmethod lbmethod=bybusyness; balancer://pool", "ProxyPass unknown lbmethod"); a balancer
// with no lbmethod uses byrequests, and without that module 2.4 fails at start-up ("AH02432: Cannot find LB
// Method: byrequests"). Without mod_slotmem_shm it fails at start-up too (AH01177), configured or not: that is
// the start-up companion rule's (rules/start-companion.ts), from the recorded pairs. ProxyPassMatch words its
// refusal as ProxyPass does. BalancerMember takes no lbmethod on either version ("unknown Worker parameter").
import type { EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig, type WalkedDirective, type WalkedSection } from "../conf/queries/walk-config.ts";
import { detection, named } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

const METHODS = new Set(["byrequests", "bytraffic", "bybusyness", "heartbeat"]);
const DEFAULT_METHOD = "byrequests";

function load(id: string): string {
  return `LoadModule ${id} modules/mod_${id.replace(/_module$/, "")}.so`;
}

function methodModule(method: string): string {
  return `lbmethod_${method}_module`;
}

/** "balancer://Pool/x" → "pool"; null for any other URL. */
export function balancerName(url: string): string | null {
  const match = /^balancer:\/\/([^/]+)/i.exec(url);
  return match ? match[1]!.toLowerCase() : null;
}

function lbmethodOf(words: readonly string[]): string | null {
  const word = words.find((w) => /^lbmethod=/i.test(w));
  return word === undefined ? null : word.slice(word.indexOf("=") + 1).toLowerCase();
}

/** The balancer a <Proxy balancer://...> section among `sections` configures, innermost first. */
function enclosingBalancer(sections: readonly EffectiveSection[]): string | null {
  for (let index = sections.length - 1; index >= 0; index--) {
    const section = sections[index]!;
    if (section.key === "proxy" || section.key === "proxymatch") return balancerName(section.args[0] ?? "");
  }
  return null;
}

interface Balancer {
  /** Where it is first configured: its <Proxy> section, else the first ProxyPass or ProxySet naming it. */
  anchor: WalkedDirective | WalkedSection;
  explicit: boolean;
}

function balancers(context: LintContext): Map<string, Balancer> {
  const found = new Map<string, Balancer>();
  const note = (name: string | null, anchor: WalkedDirective | WalkedSection, explicit: boolean): void => {
    if (name === null) return;
    const known = found.get(name);
    if (known === undefined) found.set(name, { anchor, explicit });
    else if (explicit) known.explicit = true;
  };
  for (const entry of walkConfig(context.target).sections) {
    if (entry.section.key === "proxy") note(balancerName(entry.section.args[0] ?? ""), entry, false);
  }
  for (const entry of named(context.target, "ProxyPass", "ProxyPassMatch", "ProxySet", "BalancerMember")) {
    const url = entry.directive.args.find((word) => balancerName(word) !== null);
    const name = url !== undefined ? balancerName(url) : enclosingBalancer(entry.sections);
    const method = entry.directive.key === "balancermember" ? null : lbmethodOf(entry.directive.args);
    note(name, entry, method !== null);
  }
  return found;
}

export const B3: Rule = {
  id: "B3",
  seed: ["B3"],
  title: "load-balancer methods are separate modules on 2.4 (mod_lbmethod_*), and the balancer needs mod_slotmem_shm",
  severity: "blocking",
  detect: (context) => {
    const loaded = context.loaded.target;
    if (!loaded.has("proxy_balancer_module")) return [];
    const found: Detection[] = [];
    // An lbmethod named on a line whose module the target does not load: the config test fails there.
    for (const entry of named(context.target, "ProxyPass", "ProxyPassMatch", "ProxySet")) {
      const method = lbmethodOf(entry.directive.args);
      if (method === null || !METHODS.has(method) || loaded.has(methodModule(method))) continue;
      const reason = entry.directive.key === "proxyset" ? `ProxySet: unknown lbmethod lbmethod=${method}` : "ProxyPass unknown lbmethod";
      found.push(detection(entry, `2.4 refuses to start: ${reason} (AH00526): lbmethod ${method} is mod_lbmethod_${method} on 2.4, which this tree does not load`, load(methodModule(method))));
    }
    const all = balancers(context);
    for (const [name, balancer] of all) {
      if (balancer.explicit || loaded.has(methodModule(DEFAULT_METHOD))) continue;
      found.push(
        detection(
          balancer.anchor,
          `2.4 fails at start-up: Cannot find LB Method: ${DEFAULT_METHOD} (AH02432): balancer://${name} names no lbmethod, so it uses ${DEFAULT_METHOD}, which is mod_lbmethod_${DEFAULT_METHOD} on 2.4`,
          load(methodModule(DEFAULT_METHOD)),
        ),
      );
    }
    return found;
  },
  recognise: (evidence) =>
    refusalClaim(evidence, /unknown lbmethod(?: lbmethod=(\S+?);?(?:\s|$))?/, (refusal) => `2.4 has no lbmethod ${refusal.match[1] ?? ""} loaded: load mod_lbmethod_${refusal.match[1] ?? "<method>"}`.replace(/  +/, " ")) ??
    refusalClaim(evidence, /Cannot find LB Method: (\S+)/, (refusal) => `2.4 cannot find lbmethod ${refusal.match[1]}: load mod_lbmethod_${refusal.match[1]}`),
  fix: "Load the method module of every balancer (LoadModule lbmethod_byrequests_module modules/mod_lbmethod_byrequests.so for the default byrequests; _bytraffic, _bybusyness, _heartbeat for lbmethod=...) and LoadModule slotmem_shm_module modules/mod_slotmem_shm.so.",
  help: "Guide, build changes: load-balancer methods are separate modules, for example mod_lbmethod_bybusyness; every such module a configuration uses must be built and loaded.",
  sample: {
    config: "<Proxy balancer://pool>\n    BalancerMember http://127.0.0.1:8080\n    ProxySet lbmethod=bybusyness\n</Proxy>\nProxyPass /app/ balancer://pool/",
    modules: ["proxy", "proxy_http", "proxy_balancer"],
    on24: "refuses",
  },
};
