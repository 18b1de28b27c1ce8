// A directive the 2.4 target refuses where it is written: "X not allowed here" (AH00526), from the contexts real
// 2.4.62 lists (`httpd -L`, rules/context-knowledge.ts). 2.2 took some of these lines where 2.4 does not: <Limit>
// at server level (2.2: anywhere; 2.4: only inside per-directory sections), the DAV and LDAP directives that
// became per-directory. A line 2.2 refused at the same place too is not an upgrade finding (2.2's table knows
// its core directives only; a module's directive 2.2 never listed is taken as 2.2 allowed it).
// A row rule that explains a directive's refusal in its own words owns it (Rule.ownsContext: S4).
import { isAccessFileFragment } from "../conf/detect-layout.ts";
import type { EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { CONTEXTS, placeOf, whereText, type Place } from "./context-knowledge.ts";
import { everyLine, type OwnedDetection } from "./invalid-commands.ts";
import type { LintContext } from "./lint-context.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

// Read by the evaluator (conditional sections, Include, Define, Use): never refused for their place here.
const EVALUATOR_KEYS = new Set(["include", "includeoptional", "ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection", "macro", "use", "undefmacro", "define", "undefine"]);

const SECTION_SLOTS: Readonly<Record<Place, string>> = { server: "<server", directory: "<directory", proxy: "<proxy", htaccess: "<htaccess" };

interface Verdict {
  message: string;
  fix: string;
}

/** What 2.4 says of a directive at a place, or null when it takes it there (or 2.2 refused it too). */
function verdict(node: EffectiveDirective | EffectiveSection, place: Place): Verdict | null {
  if (EVALUATOR_KEYS.has(node.key) || !CONTEXTS["2.4"].refuses(node.key, place)) return null;
  if (CONTEXTS["2.2"].refuses(node.key, place)) return null;
  const where = CONTEXTS["2.4"].of(node.key)![0]!.where;
  const name = node.kind === "section" ? `<${node.name}` : node.name;
  return {
    message: `2.4 refuses to start: ${name} not allowed here (AH00526): 2.4 takes it ${whereText(where)}`,
    fix:
      where === "inside"
        ? `move ${node.kind === "section" ? `<${node.name}>` : node.name} into each <Directory> or <Location> section it is meant for`
        : `move ${node.kind === "section" ? `<${node.name}>` : node.name} out of the per-directory section, to the server or <VirtualHost> level`,
  };
}

/** Every line of the 2.4 target view that 2.4 refuses at its place, credited to the rule that owns the
 * directive's refusal (Rule.ownsContext), else to the generic rule. Lines of a module the target does not load
 * are the invalid-command pass's, not this one's. */
export function* contextRefusalLines(context: LintContext, rules: readonly Rule[]): Generator<OwnedDetection> {
  const walked = walkConfig(context.target);
  const owners = new Map<string, Rule>();
  for (const rule of rules) for (const name of rule.ownsContext ?? []) if (!owners.has(name.toLowerCase())) owners.set(name.toLowerCase(), rule);
  // By place, then name as written, sections apart: asked for every line of a large tree, no key string made per line.
  const verdicts = new Map<string, Map<string, Verdict | null>>();
  // The lines of one section share its array of enclosing sections: their place is found once.
  let lastSections: readonly EffectiveSection[] | undefined;
  let lastPlace: Place = "server";
  // An .htaccess given alone is read per request in its directory: its top-level lines are in .htaccess context, not
  // httpd.conf's (AuthUserFile or <Limit> there is no refusal at start, and the run never reads it at start).
  const top: Place = isAccessFileFragment(context.tree) ? "htaccess" : "server";
  const consider = (node: EffectiveDirective | EffectiveSection, sections: readonly EffectiveSection[]): OwnedDetection | null => {
    if (sections !== lastSections) {
      lastSections = sections;
      lastPlace = placeOf(sections);
      if (lastPlace === "server") lastPlace = top;
    }
    const place = lastPlace;
    const slot = node.kind === "section" ? SECTION_SLOTS[place] : place;
    let known = verdicts.get(slot);
    if (known === undefined) verdicts.set(slot, (known = new Map()));
    let found = known.get(node.name);
    if (found === undefined) known.set(node.name, (found = verdict(node, place)));
    if (found === null) return null;
    const homes = context.directives["2.4"].modulesOf(node.key);
    if (!homes.some((id) => context.loaded.target.has(id))) return null;
    const owner = owners.get(node.key);
    const own = owner?.ownedLine?.(node, context) ?? null;
    return {
      rule: owner !== undefined && own !== null ? owner.id : CONTEXT_REFUSED.id,
      detection: { node, sections, message: own?.message ?? found.message, fix: own?.fix !== undefined ? own.fix : found.fix },
    };
  };
  yield* everyLine(walked, consider);
}

export const CONTEXT_REFUSED: Rule = {
  id: "context-refused",
  seed: [],
  title: "a directive 2.4 does not allow where it is written (not allowed here)",
  severity: "blocking",
  recognise: (evidence) => refusalClaim(evidence, /^(<?[\w-]+) not allowed here/, (refusal) => `2.4 does not allow ${refusal.match[1]} where it is written`),
  fix: "Move the directive to a context 2.4 allows it in (httpd -L lists them): a per-directory directive into each <Directory> or <Location> that needs it, a server directive out of the per-directory section.",
  help: "Recorded from real 2.4.62 (`httpd -L`): <Limit> is allowed only inside per-directory sections on 2.4 (anywhere on 2.2); the DAV lock and several auth directives are per-directory only.",
  sample: { config: "<Limit GET>\n</Limit>", on24: "refuses" },
};
