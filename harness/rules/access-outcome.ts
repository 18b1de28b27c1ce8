// Pure: what lint claims a client gets on 2.2 and on the 2.4 target where a finding's lines apply, computed by the
// model prove checks: the probe set the plan makes for the tree (rules/tree-probes.ts), each cell predicted by
// predictCells (rules/predict-cells.ts: model-22 and model-24, the stock config's sections around a fragment, the
// handler's and the AuthType's modules). A finding's claim is the outcomes of the cells its lines govern, per
// client kind ("2.2 denied (403), 2.4 served (200) for an outsider without credentials"), and its severity is
// the outcomes' (rules/outcome-severity.ts). Where the model cannot say (no probe reaches the lines, a cell it
// marks unpredicted, a line it does not read), the claim is "unpredicted" with the reason, never a guess: the rule
// keeps its own words and its own severity.
import type { EffectiveConfig, EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import { requestSections } from "../conf/queries/request-sections.ts";
import { virtualHosts } from "../conf/queries/virtual-hosts.ts";
import type { Span } from "../conf/syntax-tree.ts";
import type { Detection } from "./rule.ts";
import type { Severity } from "./severity.ts";
import type { ObjectKind, Probe, ProbeClient, ProbeSet } from "../plan/probes/probe.ts";
import type { CellOutcome, OutcomeClaim } from "./outcome-claim.ts";
import type { LintContext } from "./lint-context.ts";
import { accessDiffers, outcomeSeverity, type OutcomeSeverity, worse } from "./outcome-severity.ts";
import { type CellPrediction, type PredictedOutcome, predictCells } from "./predict-cells.ts";
import { lintProbes, treeDefaultRoot } from "./tree-probes.ts";

/** Which cells a finding's lines govern. */
export interface ClaimScope {
  /** The per-directory section the lines sit in (matched by place, in `view`'s sections of each request); null:
   * server context, every request (of `urlPrefix` when given). */
  section: EffectiveSection | null;
  /** The view whose sections the request must meet: the one the finding's lines are read from. */
  view: "2.2" | "2.4";
  /** Only requests under this URL (a ScriptAlias's). */
  urlPrefix?: string;
  /** access: a change of who is let in (granted, denied, asked for credentials, 500); handler: a change of what
   * a script or a parsed page does (run, its source sent), on the cells whose object is one. */
  aspect: "access" | "handler";
  /** For the handler aspect: the objects the handler takes ("cgi" for a CGI mapping, "ssi" for server-side
   * includes); all scripts and pages when absent. */
  objects?: readonly ObjectKind[];
  /** Why the model cannot read the lines the finding is about (a RewriteRule, an SSL requirement); null: it can. */
  obstacle?: string | null;
}

interface Predicted {
  set: ProbeSet;
  /** The predictions made so far, by probe id: a cell is predicted when a finding's lines govern it. */
  byProbe: Map<string, CellPrediction>;
  /** One probe per distinct path of the set: what predictCells reads of the other probes (whether a path has
   * probes below it, to tell a directory's redirect) is the same with these as with the whole set. */
  paths: Probe[];
  clients: Map<string, ProbeClient>;
  defaultRoot: string | null;
  /** Per probe and view, the places of the sections the request meets. */
  sections: Map<string, Set<string>>;
  /** Why this lint predicts no more cells (the tree is too large, the budget is spent); null while it does. */
  over: string | null;
}

/** lint predicts cells for trees of up to this many virtual hosts: the probe set grows with the hosts times the
 * client addresses they name, and prove is the place for a larger one (where the claims stay unpredicted). */
export const PREDICTED_VHOSTS = 32;
/** At most this many cells predicted per lint (each reads the sections, aliases and handlers its request meets). */
export const PREDICTION_BUDGET = 6_000;

// Per lint: the probe set, made the first time a rule asks (most trees have no finding that needs it), and the
// predictions of the cells findings govern. Keyed by the 2.4 view, which each lint context has of its own. The
// whole set is never predicted at once: a tree of 40 virtual hosts has 26,000 probes, and predicting each reads
// the others.
const predicted = new WeakMap<EffectiveConfig, Predicted>();

function predictionsOf(context: LintContext): Predicted {
  let known = predicted.get(context.target);
  if (known !== undefined) return known;
  const hosts = virtualHosts(context.target).length;
  if (hosts > PREDICTED_VHOSTS) {
    const over = `lint predicts outcomes for trees of up to ${PREDICTED_VHOSTS} virtual hosts, this one has ${hosts} (prove predicts and checks every cell)`;
    known = { set: { probes: [], cells: [], clients: [], world: { users: [], objects: [], digestRealms: [] } }, byProbe: new Map(), paths: [], clients: new Map(), defaultRoot: null, sections: new Map(), over };
    predicted.set(context.target, known);
    return known;
  }
  const set = lintProbes(context);
  const byPath = new Map<string, Probe>();
  for (const probe of set.probes) if (!byPath.has(probe.path)) byPath.set(probe.path, probe);
  known = { set, byProbe: new Map(), paths: [...byPath.values()], clients: new Map(set.clients.map((c) => [c.id, c])), defaultRoot: treeDefaultRoot([context.tree]), sections: new Map(), over: null };
  predicted.set(context.target, known);
  return known;
}

/** The predictions of `probes` (each made once per lint). */
function predict(context: LintContext, known: Predicted, probes: readonly Probe[]): void {
  const missing = probes.filter((probe) => !known.byProbe.has(probe.id));
  if (missing.length === 0) return;
  if (known.byProbe.size + missing.length > PREDICTION_BUDGET) {
    known.over ??= `lint predicts at most ${PREDICTION_BUDGET} requests per tree, and this tree's findings govern more (prove predicts and checks every cell)`;
    return;
  }
  const asked = new Set(missing.map((probe) => probe.id));
  const subset: ProbeSet = { ...known.set, probes: [...missing, ...known.paths.filter((probe) => !asked.has(probe.id))] };
  for (const cell of predictCells(context, subset, { defaultRoot: known.defaultRoot })) if (asked.has(cell.probe)) known.byProbe.set(cell.probe, cell);
}

function place(section: EffectiveSection): string {
  return `${section.span.file}:${section.span.line}:${section.span.column}`;
}

function sectionPlaces(context: LintContext, known: Predicted, probe: Probe, view: "2.2" | "2.4"): Set<string> {
  const key = `${view}|${probe.id}`;
  let places = known.sections.get(key);
  if (places === undefined) {
    const config = view === "2.2" ? context.source : context.target;
    places = new Set(requestSections(config, probe.target, probe.path.split("?")[0]!, known.defaultRoot).map(place));
    known.sections.set(key, places);
  }
  return places;
}

/** Where a client asks from: "an outsider", "a client from 10.0.0.0/8", "a client on 127.0.0.1". */
function clientWords(client: ProbeClient | undefined): string {
  switch (client?.kind) {
    case undefined:
      return "a client";
    case "outsider":
      return "an outsider";
    case "localhost":
      return "a client on 127.0.0.1";
    case "localhost6":
      return "a client on ::1";
    case "host":
      return "the harness's own client";
    case "hostname":
      return `a client named ${client.range}`;
    case "address":
      return `a client from ${client.range}`;
  }
}

/** Who asks: "an outsider without credentials", "the authenticated user alice (an outsider)". */
function whoWords(client: ProbeClient | undefined, probe: Probe): string {
  const from = clientWords(client);
  switch (probe.credentials) {
    case "none":
      return `${from} without credentials`;
    case "valid":
      return `the authenticated user ${probe.user ?? "probe-user"} (${from})`;
    case "wrong-password":
      return `${from} with a wrong password`;
    case "other-realm":
      return `${from} as a user no store holds`;
  }
}

const PHRASES: Record<PredictedOutcome, string> = {
  served: "served (200)",
  executed: "ran the script (200)",
  "source-served": "sent the script's source (200)",
  denied: "denied (403)",
  "auth-required": "asked for credentials (401)",
  redirected: "redirected (301)",
  error: "answered 500",
};

/** "served (200)", "asked for credentials (401)". */
export function outcomePhrase(outcome: PredictedOutcome): string {
  return PHRASES[outcome];
}

const MOST_WHO = 3;
const MOST_CHANGES = 3;

/** The changes in words: each pair of outcomes once, with the clients it is predicted for, most urgent first. */
function changesText(cells: readonly CellOutcome[]): string {
  const groups = new Map<string, { on22: PredictedOutcome; on24: PredictedOutcome; severity: OutcomeSeverity; who: string[]; path: string }>();
  for (const cell of cells) {
    const on22 = cell["2.2"].outcome as PredictedOutcome;
    const on24 = cell["2.4"].outcome as PredictedOutcome;
    const key = `${on22}|${on24}`;
    const group = groups.get(key) ?? { on22, on24, severity: outcomeSeverity(on22, on24) ?? "behaviour", who: [], path: `${cell.probe.method} ${cell.probe.path}` };
    if (!group.who.includes(cell.who)) group.who.push(cell.who);
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((a, b) => (a.severity === b.severity ? b.who.length - a.who.length : a.severity === "security" ? -1 : 1));
  const parts = ordered.slice(0, MOST_CHANGES).map((group) => {
    const who = group.who.length > MOST_WHO ? `${group.who.slice(0, MOST_WHO).join(", ")} and ${group.who.length - MOST_WHO} more` : group.who.join(", ");
    return `2.2 ${outcomePhrase(group.on22)}, 2.4 ${outcomePhrase(group.on24)} for ${who} (${group.path})`;
  });
  if (ordered.length > MOST_CHANGES) parts.push(`and ${ordered.length - MOST_CHANGES} more changes`);
  return parts.join("; ");
}

function relevant(scope: ClaimScope, probe: Probe): boolean {
  if (scope.aspect === "access") return true;
  return (scope.objects ?? ["cgi", "ssi"]).includes(probe.object.kind);
}

function differs(scope: ClaimScope, on22: PredictedOutcome, on24: PredictedOutcome): boolean {
  return scope.aspect === "access" ? accessDiffers(on22, on24) : on22 !== on24;
}

function under(prefix: string, path: string): boolean {
  const plain = path.split("?")[0]!;
  return plain === prefix || plain.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`) || `${plain}/` === prefix;
}

const REQUEST_SECTIONS = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch"]);
const OTHER_SCOPES = new Set(["limit", "limitexcept", "if", "elseif", "else", "proxy", "proxymatch"]);

/** The section a line's requests are told by (the innermost <Directory>, <Location> or <Files> around it; null in
 * server context), and why the model cannot tell them when a <Limit>, <If> or <Proxy> sits inside it. */
export function governingSection(sections: readonly EffectiveSection[]): { section: EffectiveSection | null; obstacle: string | null } {
  for (let index = sections.length - 1; index >= 0; index--) {
    const section = sections[index]!;
    if (OTHER_SCOPES.has(section.key)) return { section: null, obstacle: `the lines sit in <${section.name} ${section.args.join(" ")}>, which the model does not tell apart by request` };
    if (REQUEST_SECTIONS.has(section.key)) return { section, obstacle: null };
  }
  return { section: null, obstacle: null };
}

/** The cells a finding's lines govern, each with its prediction on both sides (either may be "unpredicted"). */
export function governedCells(context: LintContext, scope: ClaimScope): CellOutcome[] | { over: string } {
  const known = predictionsOf(context);
  if (known.over !== null && known.set.probes.length === 0) return { over: known.over };
  const wanted = scope.section === null ? null : place(scope.section);
  const probes: Probe[] = [];
  for (const probe of known.set.probes) {
    if (scope.urlPrefix !== undefined && !under(scope.urlPrefix, probe.path)) continue;
    if (!relevant(scope, probe)) continue;
    if (wanted !== null && !sectionPlaces(context, known, probe, scope.view).has(wanted)) continue;
    probes.push(probe);
  }
  predict(context, known, probes);
  if (probes.some((probe) => !known.byProbe.has(probe.id))) return { over: known.over ?? "not predicted" };
  const governed: CellOutcome[] = [];
  for (const probe of probes) {
    const cell = known.byProbe.get(probe.id);
    if (cell !== undefined) governed.push({ cell: cell.cell, probe, who: whoWords(known.clients.get(probe.client), probe), "2.2": cell["2.2"], "2.4": cell["2.4"] });
  }
  return governed;
}

export const NOT_REACHED = "no probe the plan makes for this tree reaches these lines";

/** The claim for the cells a finding's lines govern. */
export function outcomeClaim(context: LintContext, scope: ClaimScope): OutcomeClaim {
  if (scope.obstacle) return { kind: "unpredicted", why: scope.obstacle, text: `the outcome is not predicted: ${scope.obstacle}` };
  const governed = governedCells(context, scope);
  if (!Array.isArray(governed)) return { kind: "unpredicted", why: governed.over, text: `the outcome is not predicted: ${governed.over}` };
  if (governed.length === 0) {
    return { kind: "unpredicted", why: NOT_REACHED, text: `the outcome is not predicted: ${NOT_REACHED}` };
  }
  const unpredicted = governed.filter((c) => c["2.2"].outcome === "unpredicted" || c["2.4"].outcome === "unpredicted");
  const changed = governed.filter((c) => !unpredicted.includes(c) && differs(scope, c["2.2"].outcome as PredictedOutcome, c["2.4"].outcome as PredictedOutcome));
  if (changed.length > 0) {
    let severity: OutcomeSeverity | null = null;
    for (const cell of changed) severity = worse(severity, outcomeSeverity(cell["2.2"].outcome as PredictedOutcome, cell["2.4"].outcome as PredictedOutcome) ?? "behaviour");
    const rest = unpredicted.length === 0 ? "" : `; ${unpredicted.length} more ${unpredicted.length === 1 ? "request is" : "requests are"} not predicted (${whyOf(unpredicted[0]!)})`;
    return { kind: "differs", severity: severity!, cells: changed, unpredicted: unpredicted.length, text: `predicted by the access model: ${changesText(changed)}${rest}` };
  }
  if (unpredicted.length > 0) {
    const why = whyOf(unpredicted[0]!);
    return { kind: "unpredicted", why, text: `the outcome is not predicted: ${why}` };
  }
  const outcomes = [...new Set(governed.map((c) => c["2.4"].outcome as PredictedOutcome))].map(outcomePhrase).join(" or ");
  return { kind: "same", cells: governed, text: `predicted by the access model: the same on 2.2 and 2.4 for every request probed here (${governed.length}: ${outcomes})` };
}

export function whyOf(cell: CellOutcome): string {
  return cell["2.2"].outcome === "unpredicted" ? `2.2: ${cell["2.2"].why}` : `2.4: ${cell["2.4"].why}`;
}

/** What a finding's message says of its claim, the same at every place: who gets what is the place's own
 * (`predicted`, the claim's text), so that the places of one cause are one finding. */
export const CLAIM_WORDS: Readonly<Record<OutcomeClaim["kind"], string>> = {
  differs: "predicted by the access model: the outcome changes (who gets what is given at each place)",
  same: "predicted by the access model: the same outcome on 2.2 and 2.4 (at each place)",
  unpredicted: "the outcome is not predicted (why is given at each place)",
};

/** A finding's message as said of its one place: the place's own prediction where the message points to it (what
 * the message itself said before places carried their predictions). For what speaks of one place alone, as
 * migrate's reasons and notes do. */
export function messageAtPlace(finding: { message: string; predicted?: string }): string {
  if (finding.predicted === undefined) return finding.message;
  for (const words of Object.values(CLAIM_WORDS)) {
    const at = finding.message.lastIndexOf(words);
    if (at >= 0) return `${finding.message.slice(0, at)}${finding.predicted}${finding.message.slice(at + words.length)}`;
  }
  return finding.message;
}

export interface ClaimedFinding {
  /** What the lines do on 2.4, without a claim of who gets what ("under Satisfy Any 2.4 ORs ..."). */
  cause: string;
  /** The rule's own words with its static claim, said where the model cannot predict the outcome. */
  unpredicted: string;
  fix: string | null;
  /** The rule's own rating of the static claim (the rule's severity when absent): kept where not predicted. */
  severity?: Severity;
  related?: Span[];
  /** Which requests the lines govern: by default those meeting the line's own section on the 2.4 view. */
  scope?: Partial<ClaimScope>;
  /** Where the same outcome on both is still worth saying, what goes wrong later ("once a client is let in, ..."):
   * then the finding stays, as deprecated. Absent: no finding where nothing changes. */
  latent?: string;
}

/** A finding whose point is a change of who gets in: the cause and the predicted change per client, rated by
 * the change; where the model predicts the same outcome on both for every request the lines govern, none (or, with
 * `latent`, a deprecated one saying what breaks later); the rule's own words and rating, and why not, where it
 * cannot predict. */
export function claimedDetection(context: LintContext, entry: { directive: EffectiveDirective; sections: readonly EffectiveSection[] }, finding: ClaimedFinding): Detection | null {
  const governing = governingSection(entry.sections);
  const claim = outcomeClaim(context, { section: governing.section, view: "2.4", aspect: "access", obstacle: governing.obstacle, ...finding.scope });
  const base = { node: entry.directive, sections: entry.sections, fix: finding.fix, outcome: claim, predicted: claim.text, ...(finding.related === undefined ? {} : { related: finding.related }) };
  if (claim.kind === "same") return finding.latent === undefined ? null : { ...base, message: `${finding.cause}; ${CLAIM_WORDS.same}, but ${finding.latent}`, severity: "deprecated" };
  if (claim.kind === "differs") return { ...base, message: `${finding.cause}; ${CLAIM_WORDS.differs}`, severity: claim.severity };
  return { ...base, message: `${finding.unpredicted} (${CLAIM_WORDS.unpredicted})`, ...(finding.severity === undefined ? {} : { severity: finding.severity }) };
}
