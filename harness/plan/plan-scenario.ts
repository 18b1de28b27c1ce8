// Pure: a scenario and the inspected images → what each side will run. Everything the observe stage needs and
// nothing it must find out, but the addresses the engine gives (late-bound slots).
import type { ConfigTree } from "../conf/load-tree.ts";
import { HarnessError } from "../errors.ts";
import { interpolate } from "../scenario/interpolate.ts";
import { loopbackOf } from "../scenario/reserved-clients.ts";
import { forFamily, type RequestSpec, type Scenario, type ServerVariant, type TreeRef } from "../scenario/scenario.ts";
import type { ImageInspection } from "../server/inspect-image.ts";
import { moduleBinding } from "../server/module-map.ts";
import { successorIds } from "../server/module-succession.ts";
import { officialModuleFiles } from "../server/official-defaults.ts";
import { renderConfig } from "../server/render-config.ts";
import { FAMILIES } from "../versions/httpd-version.ts";
import type { PlannedFile, PlannedRequest, PlannedVariant, ScenarioPlan, SidePlan } from "./scenario-plan.ts";
import type { Side } from "./side.ts";
import { planTreeSide } from "./tree/plan-tree-side.ts";
import { CERTS_DIR, scenarioVariables } from "./variables.ts";

export interface PlannedSideInput {
  side: Side;
  inspection: ImageInspection;
}

/** Loaded configuration trees by the absolute path a TreeRef names (read at the input boundary). */
export type LoadedTrees = ReadonlyMap<string, ConfigTree>;

export function planScenario(scenario: Scenario, sides: readonly PlannedSideInput[], trees: LoadedTrees = new Map()): ScenarioPlan {
  if (scenario.server.tree) return planTreeScenario(scenario, sides, trees);
  checkModuleNames(scenario, sides);
  return {
    scenario: { id: scenario.id, file: scenario.file, title: scenario.title },
    clients: scenario.clients.map((client) => client.name),
    backends: scenario.backends,
    serverCertificate: scenario.server.tls ? { kind: scenario.server.tls.certificate, subject: scenario.server.tls.subject } : null,
    timeLimitMs: scenario.timeLimitMs,
    sides: sides.map((input) => planSide(scenario, input)),
  };
}

/** A module name no httpd line knows is a typo in the scenario, not a module an image lacks: say so before
 * anything runs. (A module only some images have is recorded per side as missing.) */
function checkModuleNames(scenario: Scenario, sides: readonly PlannedSideInput[]): void {
  const { server } = scenario;
  const named = FAMILIES.flatMap((family) => [...(forFamily(server.modules, family) ?? []), ...(forFamily(server.omitModules, family) ?? [])]);
  const known = (name: string): boolean =>
    FAMILIES.some((family) => {
      const binding = moduleBinding(name, family);
      if (typeof binding === "string") return true;
      return officialModuleFiles(family).includes(binding.file) || sides.some((s) => s.inspection.modules.has(binding.file) || s.inspection.builtinModules.has(name));
    });
  const unknown = [...new Set(named)].filter((name) => !known(name));
  if (unknown.length === 0) return;
  const all = FAMILIES.flatMap((family) => officialModuleFiles(family).map((file) => file.replace(/^mod_|\.so$/g, "")));
  const near = (name: string): string[] => [...new Set(all)].filter((m) => editDistance(m, name) <= 2).slice(0, 5);
  throw new HarnessError("HARNESS_MODULE_UNKNOWN", `unknown module${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => JSON.stringify(n)).join(", ")}: no httpd 2.2 or 2.4 build has it`, {
    position: server.at,
    hint: `Modules are named as in LoadModule without "_module" (rewrite, authz_host, proxy_http).${unknown.flatMap(near).length ? ` Close names: ${[...new Set(unknown.flatMap(near))].join(", ")}.` : ""}`,
  });
}

/** A scenario whose server is an operator's tree: each side boots the tree its role names. */
function planTreeScenario(scenario: Scenario, sides: readonly PlannedSideInput[], trees: LoadedTrees): ScenarioPlan {
  const refs = scenario.server.tree!;
  const planned = sides.map(({ side, inspection }): SidePlan => {
    const ref = side.role === "baseline" ? refs.baseline : refs.candidate;
    const tree = trees.get(ref.path);
    if (tree === undefined) throw new HarnessError("HARNESS_INTERNAL", `the tree ${ref.path} was not loaded before planning`);
    const vars = scenarioVariables({ profile: inspection.profile, clients: scenario.clients, backends: scenario.backends });
    const extraModules = extraModulesOf(ref, sides);
    const planned = planTreeSide(scenario, { side, inspection, ref, tree, extraModules });
    const variants = side.role === "candidate" ? (scenario.server.variants ?? []).map((variant) => planVariant(scenario, { side, inspection, ref, tree, extraModules }, planned, variant, trees)) : [];
    // The scenario's own files go under the tree's ServerRoot, its prepare steps run after the harness's stubs.
    const root = planned.tree?.serverRoot ?? inspection.profile.serverRoot;
    const family = inspection.version.family;
    return {
      ...planned,
      files: [
        ...planned.files,
        ...scenario.server.files.map((file) => ({ path: `${root}/${file.path}`, content: { text: interpolate(file.content, vars, scenario.server.at) }, mode: file.mode })),
      ],
      prepare: (forFamily(scenario.server.prepare, family) ?? []).map((command) => interpolate(command, vars, scenario.server.at)),
      localClient: scenario.requests.some((request) => loopbackOf(request.client) !== null),
      requests: scenario.requests.map((request) => planRequest(request, vars)),
      variants,
    };
  });
  const certificate = planned.some((side) => side.tree?.stubs.some((stub) => stub.kind === "certificate"));
  return {
    scenario: { id: scenario.id, file: scenario.file, title: scenario.title },
    clients: scenario.clients.map((client) => client.name),
    backends: scenario.backends,
    serverCertificate: certificate ? { kind: "valid", subject: null } : null,
    timeLimitMs: scenario.timeLimitMs,
    sides: planned,
  };
}

/** `--target-modules` on a tree ref: the module ids it names; for `successors`, the successors on the candidate's
 * line of every module the baseline image's own stock config loads (read from the inspected image, never a list
 * kept here). Null without the option, or without a baseline whose stock config is known. */
function extraModulesOf(ref: TreeRef, sides: readonly PlannedSideInput[]): { name: string; ids: string[] } | null {
  const choice = ref.targetModules;
  if (choice === undefined) return null;
  if (choice.modules !== "successors") return { name: choice.name, ids: [...choice.modules] };
  const baseline = sides.find((s) => s.side.role === "baseline")?.inspection;
  const candidate = sides.find((s) => s.side.role === "candidate")?.inspection;
  if (!candidate) return null;
  if (!baseline?.stockConfig) {
    // No 2.2 image inspected (a candidate-only run, plan without an engine): the official 2.2.34 image's stock
    // config, which loads every module file it has (official-defaults.ts), and the option's reason says so.
    const ids = officialModuleFiles("2.2").flatMap((file) => successorIds(`${file.replace(/^mod_/, "").replace(/\.so$/, "")}_module`, "2.2", candidate.version.family));
    return { name: `${choice.name} (of the official 2.2.34 image's stock modules: no 2.2 image was inspected)`, ids: [...new Set(ids)] };
  }
  const from = baseline.version.family;
  const ids = [...baseline.stockConfig.matchAll(/^[ \t]*LoadModule[ \t]+(\S+)[ \t]/gm)].flatMap((match) => successorIds(match[1]!, from, candidate.version.family));
  return { name: choice.name, ids: [...new Set(ids)] };
}

/** A variant of the candidate's tree as what changes in the side's staging; one that starts httpd otherwise (other
 * arguments, environment or set-up) cannot be reloaded into the side's server. */
function planVariant(
  scenario: Scenario,
  input: Parameters<typeof planTreeSide>[1],
  side: Omit<SidePlan, "requests" | "variants">,
  variant: ServerVariant,
  trees: LoadedTrees,
): PlannedVariant {
  const tree = trees.get(variant.tree);
  if (tree === undefined) throw new HarnessError("HARNESS_INTERNAL", `the variant tree ${variant.tree} was not loaded before planning`);
  const planned = planTreeSide(scenario, { ...input, tree });
  const own = new Map(side.files.map((file) => [file.path, JSON.stringify(file)]));
  const theirs = new Set(planned.files.map((file) => file.path));
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const unreloadable = !same(planned.httpd, side.httpd) ? "it starts httpd with other arguments or environment"
    : !same(planned.setup, side.setup) ? "it needs other set-up before httpd starts"
      : !same(planned.ports, side.ports) || planned.listenTls !== side.listenTls ? "it listens on other ports"
        : null;
  return {
    id: variant.id,
    files: [...planned.files.filter((file) => own.get(file.path) !== JSON.stringify(file)), ...(planned.config.text === side.config.text ? [] : [{ path: planned.config.path, content: { text: planned.config.text } }])],
    removed: side.files.filter((file) => !theirs.has(file.path)).map((file) => file.path),
    requests: variant.requests,
    unreloadable,
  };
}

function planSide(scenario: Scenario, { side, inspection }: PlannedSideInput): SidePlan {
  const { profile, version } = inspection;
  const family = version.family;
  const server = scenario.server;
  const vars = scenarioVariables({ profile, clients: scenario.clients, backends: scenario.backends });
  const site = interpolate(forFamily(server.config, family) ?? "", vars, server.at);
  const rendered = renderConfig({
    base: server.base,
    family,
    profile,
    availableModules: inspection.modules,
    builtinModules: inspection.builtinModules,
    stockConfig: inspection.stockConfig,
    modules: forFamily(server.modules, family) ?? [],
    omitModules: forFamily(server.omitModules, family) ?? [],
    logLevel: server.logLevel,
    listenTls: server.tls !== null,
    site,
  });
  const files: PlannedFile[] = server.files.map((file) => ({
    path: `${profile.serverRoot}/${file.path}`,
    content: { text: interpolate(file.content, vars, server.at) },
    mode: file.mode,
  }));
  files.push(
    { path: `${CERTS_DIR}/ca.crt`, content: { generated: "ca-certificate" } },
    { path: `${CERTS_DIR}/ca.crl`, content: { generated: "ca-crl" } },
  );
  if (server.tls) {
    files.push(
      { path: `${CERTS_DIR}/server.crt`, content: { generated: "server-certificate" } },
      { path: `${CERTS_DIR}/server.key`, content: { generated: "server-key" }, mode: 0o600 },
    );
  }
  return {
    side,
    server: { image: inspection.image, version: version.text, family, profile: profile.id, facts: inspection.source },
    config: { path: profile.configFile, text: rendered.text },
    files,
    prepare: (forFamily(server.prepare, family) ?? []).map((command) => interpolate(command, vars, server.at)),
    missingModules: rendered.missingModules,
    listenTls: server.tls !== null,
    httpd: { args: [], environment: {} },
    setup: [],
    ports: server.tls !== null ? [80, 443] : [80],
    logs: null,
    tree: null,
    world: null,
    variants: [],
    localClient: scenario.requests.some((request) => loopbackOf(request.client) !== null),
    requests: scenario.requests.map((request) => planRequest(request, vars)),
  };
}

function planRequest(request: RequestSpec, vars: Record<string, string>): PlannedRequest {
  const text = (value: string): string => interpolate(value, vars, request.at);
  const { at: _at, expect: _expect, guide: _guide, host, ...sent } = request;
  return {
    ...sent,
    path: text(request.path),
    hostHeader: host === null ? null : text(host),
    headers: request.headers.map(([name, value]): [string, string] => [name, text(value)]),
    body: request.body === null ? null : text(request.body),
    raw: request.raw === null ? null : text(request.raw),
    exec: request.exec === null ? null : text(request.exec),
    loopback: loopbackOf(request.client),
  };
}

/** Levenshtein distance, for "did you mean". */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
