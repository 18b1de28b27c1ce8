// The access lines of one per-directory section as 2.2 reads them (Order, Allow, Deny, Satisfy, Require, and
// AuthType for the 500-or-401 question), as the model's Section22, with the syntax nodes they came from.
import type { EffectiveDirective, EffectiveNode, EffectiveSection } from "../conf/effective-config.ts";
import type { Order, Section22 } from "./model-22.ts";

export const ACCESS_SECTION_KEYS = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch", "proxy", "proxymatch"]);
const ACCESS_KEYS = new Set(["order", "allow", "deny", "satisfy", "require"]);
const LIMIT_KEYS = new Set(["limit", "limitexcept"]);
const REQUIRE_CONTAINERS = new Set(["requireall", "requireany", "requirenone"]);

export interface SectionAccess {
  own: Section22;
  /** The Order/Allow/Deny/Satisfy/Require lines the section holds itself (not in a nested access section). */
  directives: EffectiveDirective[];
  /** Why the section cannot be translated line by line (access lines inside <Limit>, 2.4 containers, an Order
   * value 2.2 would refuse); null when it can. */
  obstacle: string | null;
  /** The same for 2.4, which reads its own <RequireAll|Any|None> containers: only the other obstacles. */
  obstacle24: string | null;
}

function order(value: string | undefined): Order | null {
  const v = (value ?? "").toLowerCase().replace(/\s+/g, "");
  return v === "deny,allow" || v === "allow,deny" || v === "mutual-failure" ? v : null;
}

export function sectionAccess(section: EffectiveSection): SectionAccess {
  const directives: EffectiveDirective[] = [];
  let obstacle: string | null = null;
  let obstacle24: string | null = null;
  let authType: boolean | undefined;
  const visit = (nodes: readonly EffectiveNode[], limited: string | null): void => {
    for (const node of nodes) {
      if (node.kind === "section") {
        if (ACCESS_SECTION_KEYS.has(node.key)) continue;
        if (REQUIRE_CONTAINERS.has(node.key)) obstacle ??= `it already holds <${node.name}> (2.4 syntax)`;
        visit(node.children, LIMIT_KEYS.has(node.key) ? `<${node.name} ${node.args.join(" ")}>` : limited);
        continue;
      }
      if (node.key === "authtype") authType = true;
      if (!ACCESS_KEYS.has(node.key)) continue;
      if (limited !== null) {
        const why = `its ${node.name} line is inside ${limited}: access by method is kept as 2.2 wrote it`;
        obstacle ??= why;
        obstacle24 ??= why;
      }
      directives.push(node);
    }
  };
  visit(section.children, null);
  const own: Section22 = {};
  if (authType) own.authType = true;
  const hostLines = directives.filter((d) => d.key === "order" || d.key === "allow" || d.key === "deny");
  if (hostLines.length > 0) {
    const host = { order: "deny,allow" as Order, allow: [] as string[], deny: [] as string[] };
    for (const d of hostLines) {
      if (d.key === "order") {
        const value = order(d.args.join(""));
        if (value === null) {
          obstacle ??= `Order ${d.args.join(" ")} is no order 2.2 knows`;
          obstacle24 ??= `Order ${d.args.join(" ")} is no order 2.2 knows`;
        }
        else host.order = value;
      } else {
        const [from, ...entries] = d.args;
        if (from?.toLowerCase() !== "from") {
          obstacle ??= `${d.name} ${d.args.join(" ")} lacks "from"`;
          obstacle24 ??= `${d.name} ${d.args.join(" ")} lacks "from"`;
        }
        (d.key === "allow" ? host.allow : host.deny).push(...entries);
      }
    }
    own.host = host;
  }
  const satisfy = directives.filter((d) => d.key === "satisfy").at(-1);
  if (satisfy) own.satisfy = satisfy.args[0]?.toLowerCase() === "any" ? "any" : "all";
  const requires = directives.filter((d) => d.key === "require");
  if (requires.length > 0) own.require = requires.map((d) => d.args);
  return { own, directives, obstacle, obstacle24 };
}
