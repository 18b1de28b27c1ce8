// Pure: a scenario's differences told by cause. Every difference of every comparison becomes evidence for the
// rules' recognise faces (worst severity first; among equals the rule that owns a directive the evidence names);
// the headers, body and log of a request whose status or outcome changed fold under that change's cause, and
// every request difference of a server that did not start folds under the start-up's cause. A difference no
// rule claims is `unexplained` (or, when the scenario predicted it, its seed row's). Findings group them: at
// most one per cause and place. A claim by an expected, deprecated or behaviour rule makes the difference an
// expected change; a blocking or security one stays visible. When the candidate did not start, every blocking
// finding lint has on its tree is listed, not only httpd's first error. The ignore file's entries turn what
// they match into noise, counted by rule.
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { SideObservation } from "../observe/observation.ts";
import { RULES } from "../rules/all-rules.ts";
import type { Evidence, EvidenceRequest } from "../rules/evidence.ts";
import type { LintFinding } from "../rules/finding.ts";
import { entryMatches, findingSubject, type IgnoreFile, type IgnoreSubject } from "../rules/ignore-file.ts";
import type { Claim, Rule } from "../rules/rule.ts";
import { lintFindingModules, STOCK_MODULE_NOT_LOADED, stockModuleClaim, stockModuleTitle, type ModuleGap } from "../rules/stock-module-not-loaded.ts";
import { stockModuleGap } from "../server/module-succession.ts";
import { SEVERITIES, type Severity } from "../rules/severity.ts";
import type { RequestSpec, Scenario } from "../scenario/scenario.ts";
import type { Comparison } from "./comparison.ts";
import { type DifferenceClass as OutcomeChange, SECURITY_CLASSES, witnessChange, witnessClass } from "./outcome/cell-class.ts";
import { questionOfRequest } from "./outcome/probe-cells.ts";
import { sideWitness } from "./outcome/probe-outcome.ts";
import type { Difference } from "./difference.ts";
import { compareFindings, type ConfigLine, type FindingDifference, type FindingSeverity, type IgnoredDifferences, type RunFinding } from "./run-finding.ts";

/** Lint's findings on the trees a scenario ran: the baseline's and the candidate's (the same tree unless the
 * candidate runs a port). */
export interface ScenarioLint {
  baseline: readonly LintFinding[];
  candidate: readonly LintFinding[];
}

/** What triage reads besides the observations: the rules, lint's findings by scenario id (tree runs only) and
 * the operator's ignore file. */
export interface TriageInputs {
  rules: readonly Rule[];
  lint: ReadonlyMap<string, ScenarioLint>;
  ignore: IgnoreFile | null;
}

export const DEFAULT_TRIAGE: TriageInputs = { rules: RULES, lint: new Map(), ignore: null };

export interface TriageInput {
  scenario: Scenario;
  baseline: SideObservation | null;
  candidates: Array<{ observation: SideObservation; comparison: Comparison | null }>;
  lint?: ScenarioLint;
  rules?: readonly Rule[];
  ignore?: IgnoreFile | null;
}

export interface TriageResult {
  /** The comparisons with each difference's class and reason as its cause decides. */
  comparisons: Comparison[];
  findings: RunFinding[];
  ignored: IgnoredDifferences;
}

/** Request fields that follow a changed status or outcome: the answer's headers, body and log. */
function followsStatus(field: string): boolean {
  return field.startsWith("header:") || field === "body" || field === "httpVersion" || field === "errorLog" || field === "exec";
}

const START_FIELDS = new Set(["configTest", "started"]);
const FRAMING_FIELDS = new Set(["header:content-length", "header:transfer-encoding"]);
const BENIGN: ReadonlySet<Severity> = new Set(["behaviour", "deprecated", "expected"]);
const EXAMPLES = 3;
const EVIDENCE_LINES = 8;

/** Why a difference is there: a rule's claim, a seed row the scenario predicts it by, the outcome change it is
 * (access widened or narrowed, a script's source exposed: no rule claims it, but what it does is known), or
 * nothing. */
interface Cause {
  kind: "rule" | "seed" | "outcome" | "unexplained";
  id: string;
  rule: Rule | null;
  claim: Claim | null;
  severity: FindingSeverity;
  security: boolean;
  title: string;
  /** Config lines the cause is tied to. */
  lines: ConfigLine[];
  /** Whether the config test names it (start-up causes only). */
  confirmed: boolean | null;
  /** For a module the baseline's stock config loads and the candidate's does not: its id, one finding per module. */
  module?: string;
}

interface Item {
  request: RequestSpec | null;
  difference: Difference;
  evidence: Evidence;
  cause: Cause | null;
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A container path httpd named (`/usr/local/apache2/conf/httpd.conf`) as the tree path lint uses. */
function treePath(file: string, observation: SideObservation | null): string {
  const mount = observation?.tree?.mount.replace(/\/+$/, "");
  if (mount && file.startsWith(`${mount}/`)) return file.slice(mount.length + 1);
  return file;
}

function statusOf(observation: SideObservation | null, name: string | null): number | null {
  if (!observation || name === null) return null;
  const outcome = observation.requests.find((r) => r.name === name)?.outcome;
  return outcome?.kind === "response" ? outcome.status : null;
}

function logsOf(observation: SideObservation | null, name: string | null): ErrorLogRecord[] {
  if (!observation) return [];
  if (name === null) return [...observation.configTest.records, ...observation.startupLog];
  return observation.requests.find((r) => r.name === name)?.errorLog ?? [];
}

function evidenceRequest(request: RequestSpec): EvidenceRequest {
  const sections = request.probe?.sections;
  return { name: request.name, method: request.method, path: request.path, host: request.host, client: request.client, user: request.auth?.user ?? null, ...(sections ? { sections } : {}) };
}

/** "GET /status" for an HTTP request, its name otherwise. */
function requestLabel(request: RequestSpec): string {
  return request.mode === "http" ? `${request.method} ${request.path}` : request.name;
}

/** A rule's owned directives as one whole-word pattern, made once per rule. */
const OWNED = new WeakMap<Rule, RegExp | null>();
function ownedPattern(rule: Rule): RegExp | null {
  if (!OWNED.has(rule)) {
    const names = rule.owns?.directives ?? [];
    OWNED.set(rule, names.length === 0 ? null : new RegExp(`\\b(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`, "i"));
  }
  return OWNED.get(rule)!;
}

/** Worst severity first; among equals, a rule owning a directive the evidence names, then one enforcing a seed
 * row the scenario names (two rules may read the same log lines: D4 and D5 at LogLevel warn), then one lint found
 * on the tree (`linted`: the rule ids of the tree's lint findings), then the registry's order. */
function rankRules(rules: readonly Rule[], evidence: Evidence, linted: ReadonlySet<string>, seeds: readonly string[]): Rule[] {
  const said = [evidence.baseline, evidence.candidate, ...evidence.log.candidate.map((r) => r.message), ...evidence.log.baseline.map((r) => r.message)]
    .filter((t): t is string => t !== null)
    .join("\n");
  const owns = (rule: Rule): boolean => ownedPattern(rule)?.test(said) ?? false;
  const named = (rule: Rule): boolean => rule.seed.some((row) => seeds.includes(row));
  const key = (rule: Rule): number[] => [SEVERITIES.indexOf(rule.severity), owns(rule) ? 0 : 1, named(rule) ? 0 : 1, linted.has(rule.id) ? 0 : 1];
  return rules
    .filter((rule) => rule.recognise !== undefined)
    .map((rule, index) => ({ rule, index, key: key(rule) }))
    .sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.key[2]! - b.key[2]! || a.key[3]! - b.key[3]! || a.index - b.index)
    .map((entry) => entry.rule);
}

function claimOf(rules: readonly Rule[], evidence: Evidence, linted: ReadonlySet<string>, seeds: readonly string[]): { rule: Rule; claim: Claim } | null {
  for (const rule of rankRules(rules, evidence, linted, seeds)) {
    const claim = rule.recognise!(evidence);
    if (claim) return { rule, claim };
  }
  return null;
}

function worstSeverity(a: Severity, b: Severity | undefined): Severity {
  return b !== undefined && SEVERITIES.indexOf(b) < SEVERITIES.indexOf(a) ? b : a;
}

export function triageScenario(input: TriageInput): TriageResult {
  const rules = input.rules ?? RULES;
  const ignore = input.ignore ?? null;
  const lint = input.lint ?? { baseline: [], candidate: [] };
  const { scenario, baseline } = input;
  const ruleOf = (id: string): Rule | undefined => rules.find((rule) => rule.id === id);
  const directiveAt = (file: string, line: number): string | null => lint.candidate.find((f) => f.file === file && f.line === line)?.directive ?? null;
  const linted = new Set(lint.candidate.map((f) => f.rule));
  const linesOf = new Map<string, ConfigLine[]>();
  for (const f of lint.candidate) linesOf.set(f.rule, [...(linesOf.get(f.rule) ?? []), { file: f.file, line: f.line, directive: f.directive }]);

  const findings: RunFinding[] = [];
  const ignored: IgnoredDifferences = { byRule: {}, differences: [] };
  const comparisons: Comparison[] = [];

  for (const { observation: candidate, comparison } of input.candidates) {
    const evidenceFor = (difference: Difference, request: RequestSpec | null): Evidence => {
      const name = request?.name ?? null;
      return {
        field: difference.field,
        baseline: text(difference.baseline),
        candidate: text(difference.candidate),
        request: request ? evidenceRequest(request) : null,
        status: { baseline: statusOf(baseline, name), candidate: statusOf(candidate, name) },
        log: { baseline: logsOf(baseline, name), candidate: logsOf(candidate, name) },
        families: { baseline: baseline?.server.version.family ?? "2.2", candidate: candidate.server.version.family },
        findings: lint.candidate,
      };
    };

    const ruleCause = (rule: Rule, claim: Claim | null): Cause => {
      const claimed = (claim?.lines ?? []).map((l) => {
        const file = treePath(l.file, candidate);
        return { file, line: l.line, directive: directiveAt(file, l.line) };
      });
      const ofRule = (linesOf.get(rule.id) ?? []).map((l) => ({ ...l }));
      return {
        kind: "rule",
        id: rule.id,
        rule,
        claim,
        // A claim may say more precisely than its rule how serious this evidence is (A3: 2.2's 500 that 2.4
        // grants is behaviour, a password prompt 2.4 drops is security).
        severity: claim?.severity ?? rule.severity,
        // A security rule's claim narrowed to another severity is no security change at that place.
        security: (rule.security ?? false) && !(rule.severity === "security" && claim?.severity !== undefined && claim.severity !== "security"),
        title: rule.title,
        lines: claimed.length > 0 ? claimed : ofRule,
        confirmed: null,
      };
    };
    const claimCause = (evidence: Evidence): Cause | null => {
      const found = claimOf(rules, evidence, linted, scenario.seed);
      return found ? ruleCause(found.rule, found.claim) : null;
    };
    /** An unclaimed difference: its predicting seed row's when the scenario made it an expected change. */
    const fallback = (difference: Difference, startUp: boolean): Cause => {
      const seed = difference.class === "expected-change" ? (difference.seed[0] ?? scenario.seed[0]) : undefined;
      if (seed === undefined) {
        return { kind: "unexplained", id: "unexplained", rule: null, claim: null, severity: "unexplained", security: false, title: "differences no rule explains", lines: [], confirmed: null };
      }
      const rule = ruleOf(seed);
      if (rule) return { ...ruleCause(rule, null), kind: "seed" };
      // No rule for the row yet: what predicted it says what it is (a known difference's reason), else the scenario.
      const title = difference.reason && !/scenario/.test(difference.reason) ? difference.reason : scenario.title;
      return { kind: "seed", id: seed, rule: null, claim: null, severity: startUp ? "blocking" : "behaviour", security: false, title, lines: [], confirmed: null };
    };

    /** An access or handler outcome change no rule claims: widened and source-exposed are security findings,
     * narrowed a behaviour change that fails the run as an unexplained regression would; null for any other
     * change (another status, an error on one side). Its line is the region the request stands for. */
    const outcomeCause = (request: RequestSpec | null): Cause | null => {
      if (request === null || baseline === null || request.mode !== "http") return null;
      const question = questionOfRequest(request);
      const a = sideWitness(question, baseline.requests.find((r) => r.name === request.name), baseline);
      const b = sideWitness(question, candidate.requests.find((r) => r.name === request.name), candidate);
      const change = witnessClass(a, b);
      if (change === "changed") return null;
      const origin = request.probe?.object.origin ?? null;
      const described = OUTCOME_CAUSES[change];
      return {
        kind: "outcome",
        id: described.id,
        rule: null,
        claim: { summary: `${described.summary}: ${witnessChange(a, b)}` },
        severity: described.severity,
        security: SECURITY_CLASSES.has(change),
        title: described.title,
        lines: origin === null ? [] : [{ file: origin.file, line: origin.line, directive: origin.text }],
        confirmed: null,
      };
    };

    const items: Item[] = [];
    const push = (difference: Difference, request: RequestSpec | null): Item => {
      const item: Item = { request, difference, evidence: evidenceFor(difference, request), cause: null };
      items.push(item);
      return item;
    };

    // ---- the server: config test, start-up ------------------------------------------------------------------
    const oneSideDown = baseline !== null && baseline.started !== candidate.started;
    const serverDiffs = comparison?.server ?? [];
    const serverItems = serverDiffs.map((d) => push(d, null));
    // Without a baseline nothing was compared; a candidate that did not start is still evidence.
    if (!comparison && !candidate.started) {
      const configTest = `${candidate.configTest.ok ? "ok" : "failed"}\n${candidate.configTest.messages.join("\n")}`;
      const field = candidate.configTest.ok ? "started" : "configTest";
      serverItems.push(push({ field, baseline: null, candidate: field === "started" ? "false" : configTest, class: "error", seed: [], reason: "the candidate did not start; no baseline ran to compare with" }, null));
    }
    const syntaxError = candidate.configTest.syntaxError;
    const named = syntaxError ? [{ file: treePath(syntaxError.file, candidate), line: syntaxError.line }] : [];
    let startCause: Cause | null = null;
    if (oneSideDown || !candidate.started) {
      const startItems = serverItems.filter((item) => START_FIELDS.has(item.difference.field));
      for (const item of [...startItems].sort((a, b) => (a.difference.field === "configTest" ? -1 : b.difference.field === "configTest" ? 1 : 0))) {
        startCause ??= claimCause(item.evidence);
      }
      if (!startCause && !candidate.started) {
        // No rule recognised the refusal: the lint finding whose line the config test names.
        const hit = lint.candidate.find((f) => f.severity === "blocking" && named.some((n) => n.file === f.file && n.line === f.line));
        if (hit) {
          const rule = ruleOf(hit.rule);
          startCause = rule
            ? ruleCause(rule, null)
            : {
                kind: "rule",
                id: hit.rule,
                rule: null,
                claim: null,
                severity: "blocking",
                security: hit.security,
                title: hit.message,
                lines: lint.candidate.filter((f) => f.rule === hit.rule).map((f) => ({ file: f.file, line: f.line, directive: f.directive })),
                confirmed: null,
              };
        }
      }
      if (startCause && (startCause.claim?.lines ?? []).length === 0 && !candidate.started) {
        // The rule knows the refusal, not its line: the config test's "line N of FILE" is that line.
        for (const n of named) if (!startCause.lines.some((l) => l.file === n.file && l.line === n.line)) startCause.lines.unshift({ ...n, directive: directiveAt(n.file, n.line) });
      }
      if (startCause) {
        const lines = [...(startCause.claim?.lines ?? []).map((l) => ({ file: treePath(l.file, candidate), line: l.line })), ...named];
        startCause.confirmed = !candidate.started ? startCause.claim !== null || startCause.lines.some((l) => lines.some((n) => n.file === l.file && n.line === l.line)) : null;
      }
      const start = startItems[0];
      startCause ??= start ? fallback(start.difference, true) : null;
      // A start-up log only the baseline has is what 2.2 said while starting: a candidate that never started has
      // nothing to compare with it, and the rules would read its config-test lines as if they answered it.
      const folds = (d: Difference) => START_FIELDS.has(d.field) || (!candidate.started && d.field === "startupLog" && d.candidate === null);
      for (const item of serverItems) item.cause = folds(item.difference) ? startCause : (claimCause(item.evidence) ?? startCause);
    } else {
      for (const item of serverItems) item.cause = claimCause(item.evidence) ?? fallback(item.difference, false);
    }

    // ---- the requests ---------------------------------------------------------------------------------------
    for (const { name, differences } of comparison?.requests ?? []) {
      const request = scenario.requests.find((r) => r.name === name) ?? null;
      const requestItems = differences.map((d) => push(d, request));
      if (oneSideDown && startCause) {
        for (const item of requestItems) item.cause = startCause;
        continue;
      }
      const primary = requestItems.find((i) => i.difference.field === "status") ?? requestItems.find((i) => i.difference.field === "outcome");
      let primaryCause: Cause | null = null;
      if (primary) {
        const log = requestItems.find((i) => i.difference.field === "errorLog");
        primaryCause = claimCause(primary.evidence) ?? (log ? claimCause(log.evidence) : null) ?? (primary.difference.class === "expected-change" ? null : outcomeCause(request)) ?? fallback(primary.difference, false);
        primary.cause = primaryCause;
      }
      for (const item of requestItems) {
        if (item === primary) continue;
        item.cause = primaryCause && followsStatus(item.difference.field) ? primaryCause : (claimCause(item.evidence) ?? fallback(item.difference, false));
      }
      // Content-Length and Transfer-Encoding frame the body: framing no rule claims has the cause of the changed
      // body it frames (2.2 sends a CGI script's output with a length on some runs, chunked on others).
      const body = requestItems.find((i) => i.difference.field === "body");
      for (const framing of requestItems.filter((i) => FRAMING_FIELDS.has(i.difference.field))) {
        if (body?.cause && framing.cause?.kind === "unexplained" && body.cause.kind !== "unexplained") framing.cause = body.cause;
      }
    }

    // ---- a fragment on each image's stock config: what a module only 2.2's loads causes, one cause per module -----
    attributeStockModules(items, fragmentModuleGap(baseline, candidate), lint.candidate);

    // ---- classes, ignore file, findings ----------------------------------------------------------------------
    const byKey = new Map<string, RunFinding>();
    const changed = new Map<Difference, Difference>();
    for (const item of items) {
      const cause = item.cause;
      // Noise stays noise: it varies on one side, or the scenario ignores it; it is no one's evidence.
      if (!cause || item.difference.class === "noise" || item.difference.class === "same") continue;
      let difference = reclassify(item.difference, cause);
      const subject: IgnoreSubject = {
        rule: cause.id,
        files: cause.lines.map((l) => l.file),
        request: item.request?.path ?? null,
        field: difference.field,
        codes: [...new Set([...item.evidence.log.baseline, ...item.evidence.log.candidate].flatMap((r) => [r.code, r.event]).filter((c): c is string => c !== null))],
        values: [item.evidence.baseline, item.evidence.candidate],
      };
      const entry = ignore?.entries.find((e) => entryMatches(e, subject));
      if (entry) {
        difference = { ...difference, class: "noise", reason: `ignored (${entry.at}): ${entry.reason}` };
        changed.set(item.difference, difference);
        ignored.byRule[cause.id] = (ignored.byRule[cause.id] ?? 0) + 1;
        ignored.differences.push({ ...difference, request: item.request?.name ?? null, rule: cause.id, entry: entry.at, because: entry.reason });
        continue;
      }
      changed.set(item.difference, difference);
      // Without config lines, a rule's or a seed row's cause is one finding for the whole server (2.2's X-Pad on
      // every short head is one cause, not one per path); an outcome or an unexplained difference stays per path,
      // where the path is what tells one from another.
      const byPath = cause.kind === "outcome" || cause.kind === "unexplained";
      const place = cause.lines.length > 0 ? cause.lines.map((l) => `${l.file}:${l.line}`).sort().join(",") : byPath ? (item.request?.path ?? "(server)") : "(server)";
      const key = `${cause.id}\u0000${cause.module ?? place}`;
      let finding = byKey.get(key);
      if (!finding) {
        finding = {
          rule: cause.id,
          severity: cause.severity,
          security: cause.security,
          title: cause.title,
          candidate: candidate.side.id,
          config: cause.lines.map((l) => ({ ...l })),
          requests: { count: 0, examples: [] },
          evidence: [],
          confirmed: cause.confirmed,
          predicted: true,
          gating: false,
          differences: [],
        };
        byKey.set(key, finding);
        findings.push(finding);
      }
      if (cause.claim?.severity !== undefined && finding.severity !== "unexplained") finding.severity = worstSeverity(finding.severity, cause.claim.severity);
      if (item.difference.class !== "expected-change") finding.predicted = false;
      finding.differences.push({ ...difference, request: item.request?.name ?? null });
      addEvidence(finding, cause, item);
    }
    for (const finding of byKey.values()) {
      const names = new Set<string>();
      for (const d of finding.differences) if (d.request !== null && !names.has(d.request)) names.add(d.request);
      const labels = [...names].map((n) => scenario.requests.find((r) => r.name === n)).map((r, i) => (r ? requestLabel(r) : [...names][i]!));
      finding.requests = { count: names.size, examples: [...new Set(labels)].slice(0, EXAMPLES) };
    }

    // ---- a candidate that did not start: every blocking problem lint knows of, not only httpd's first ---------
    if (!candidate.started) {
      const blocking = new Map<string, LintFinding[]>();
      for (const f of lint.candidate) {
        if (f.severity !== "blocking") continue;
        const rule = f.rule;
        const entry = ignore?.entries.find((e) => entryMatches(e, findingSubject(f)));
        if (entry) {
          ignored.byRule[rule] = (ignored.byRule[rule] ?? 0) + 1;
          continue;
        }
        blocking.set(rule, [...(blocking.get(rule) ?? []), f]);
      }
      for (const [ruleId, found] of blocking) {
        const lines = found.map((f) => ({ file: f.file, line: f.line, directive: f.directive }));
        const confirmedHere = lines.some((l) => named.some((n) => n.file === l.file && n.line === l.line));
        const existing = findings.find((f) => f.rule === ruleId && f.candidate === candidate.side.id);
        if (existing) {
          for (const line of lines) if (!existing.config.some((c) => c.file === line.file && c.line === line.line)) existing.config.push(line);
          existing.confirmed = (existing.confirmed ?? false) || confirmedHere;
          continue;
        }
        const rule = ruleOf(ruleId);
        findings.push({
          rule: ruleId,
          severity: "blocking",
          security: found.some((f) => f.security),
          title: rule?.title ?? found[0]!.message,
          candidate: candidate.side.id,
          config: lines,
          requests: { count: 0, examples: [] },
          evidence: [...new Set(found.map((f) => `${f.file}:${f.line}: ${f.message}`))].slice(0, EVIDENCE_LINES),
          confirmed: confirmedHere,
          predicted: false,
          gating: false,
          differences: [],
        });
      }
    }

    if (comparison) {
      const apply = (d: Difference): Difference => changed.get(d) ?? d;
      comparisons.push({
        candidate: comparison.candidate,
        server: comparison.server.map(apply),
        requests: comparison.requests.map((r) => ({ name: r.name, differences: r.differences.map(apply) })),
      });
    }
  }

  for (const finding of findings) {
    finding.config.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    if (finding.differences.length === 0) finding.predicted = false;
    const regression = finding.differences.some((d) => d.class === "regression" || d.class === "error");
    // Access narrowed (users locked out) fails the run as the unexplained regression it used to be filed as.
    const narrowed = finding.rule === OUTCOME_CAUSES.narrowed.id && regression;
    finding.gating = !finding.predicted && (finding.severity === "blocking" || finding.severity === "security" || finding.security || narrowed || (finding.severity === "unexplained" && regression));
  }
  return { comparisons, findings: findings.sort(compareFindings), ignored };
}

/** For a fragment run (both sides read the fragment around their image's own stock config): the modules the
 * baseline's stock config loads whose 2.4 successors the candidate does not load, read from what each side's plan
 * recorded of its image. Empty for a full tree, without a baseline, or when the candidate loads them all
 * (`--target-modules successors`). */
export function fragmentModuleGap(baseline: SideObservation | null, candidate: SideObservation): ModuleGap[] {
  const from = baseline?.tree;
  const to = candidate.tree;
  if (!from || !to || from.layout !== "fragment" || to.layout !== "fragment") return [];
  // Two builds of one line (bisect's images) differ in their stock configs otherwise: not this cause.
  if (baseline!.server.version.family === candidate.server.version.family) return [];
  return stockModuleGap(from.stockModules ?? [], new Set(to.loadedModules ?? []), baseline!.server.version.family, candidate.server.version.family);
}

/** Gathers what one missing module causes under one cause per module: the claims of the rules that know a piece
 * of it (a script's source served, access rules in a skipped <IfModule>), outcome changes and unexplained
 * differences that the module's lines govern or its headers show. The cause's severity is the worst of what it
 * gathered (an exposure or a grant 2.2 did not give is security); its lines are every lint line naming the module. */
function attributeStockModules(items: Item[], gap: readonly ModuleGap[], lint: readonly LintFinding[]): void {
  if (gap.length === 0) return;
  const missing = new Set(gap.map((g) => g.module));
  const decided = new Map<Cause, { module: string; claim: Claim } | null>();
  const moduleOfRuleCause = (cause: Cause): string | null => {
    const at = cause.lines.length > 0 ? cause.lines : null;
    const named = lint.filter((f) => f.rule === cause.id && (at === null || at.some((l) => l.file === f.file && l.line === f.line)));
    return named.flatMap(lintFindingModules).find((id) => missing.has(id)) ?? null;
  };
  const found: Array<{ item: Item; module: string; claim: Claim }> = [];
  // Status and outcome first: the headers and body that fold under a status's cause follow its decision.
  const ordered = [...items].sort((a, b) => Number(b.difference.field === "status" || b.difference.field === "outcome") - Number(a.difference.field === "status" || a.difference.field === "outcome"));
  for (const item of ordered) {
    const cause = item.cause;
    if (!cause) continue;
    let decision: { module: string; claim: Claim } | null = null;
    if (decided.has(cause)) decision = decided.get(cause)!;
    else if (cause.kind === "rule" && cause.rule?.stockModule !== undefined) {
      // A rule that knows the evidence of one module (a log line only 2.2's mod_ssl writes).
      const module = missing.has(cause.rule.stockModule) ? cause.rule.stockModule : null;
      decision = module === null ? null : { module, claim: { summary: cause.claim?.summary ?? cause.title, severity: cause.severity === "unexplained" ? "behaviour" : cause.severity } };
      decided.set(cause, decision);
    } else if (cause.kind === "rule" && (cause.id === "handler-not-loaded" || cause.id === "protection-module-not-loaded")) {
      const module = moduleOfRuleCause(cause);
      decision = module === null ? null : { module, claim: { summary: cause.claim?.summary ?? cause.title, severity: cause.severity === "unexplained" ? "security" : cause.severity } };
      decided.set(cause, decision);
    } else if (cause.kind === "outcome" || cause.kind === "unexplained") {
      decision = stockModuleClaim(item.evidence, gap, cause.kind);
      // An outcome change the module explains explains what folds under it; so does an unexplained status it
      // explains (a redirect of a skipped RewriteRule: the Location and body with it). Any other unexplained cause
      // is per item (a header only 2.2's module sends).
      if (cause.kind === "outcome") {
        if (decision) decision = { ...decision, claim: { ...decision.claim, summary: `${cause.claim?.summary ?? cause.title}; ${decision.claim.summary}`, severity: cause.security ? "security" : decision.claim.severity } };
        decided.set(cause, decision);
      } else if (decision && (item.difference.field === "status" || item.difference.field === "outcome")) decided.set(cause, decision);
    }
    if (decision) found.push({ item, ...decision });
  }
  if (found.length === 0) return;
  for (const entry of gap) {
    const own = found.filter((f) => f.module === entry.module);
    if (own.length === 0) continue;
    const severity = own.map((f) => f.claim.severity ?? "behaviour").reduce((worst, next) => worstSeverity(worst, next), "expected" as Severity);
    const lines: ConfigLine[] = [];
    for (const f of lint) {
      if (!lintFindingModules(f).includes(entry.module) || lines.some((l) => l.file === f.file && l.line === f.line)) continue;
      lines.push({ file: f.file, line: f.line, directive: f.directive });
    }
    for (const f of own) for (const l of f.claim.lines ?? []) if (!lines.some((x) => x.file === l.file && x.line === l.line)) lines.push({ file: l.file, line: l.line, directive: null });
    lines.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    for (const f of own) {
      f.item.cause = {
        kind: "rule",
        id: STOCK_MODULE_NOT_LOADED.id,
        rule: STOCK_MODULE_NOT_LOADED,
        claim: { summary: f.claim.summary, severity },
        severity,
        security: severity === "security",
        title: stockModuleTitle(entry),
        lines,
        confirmed: null,
        module: entry.module,
      };
    }
  }
}

/** The causes an outcome change gets when no rule claims it (outcome/cell-class.ts). */
const OUTCOME_CAUSES: Record<Exclude<OutcomeChange, "changed">, { id: string; title: string; summary: string; severity: FindingSeverity }> = {
  widened: { id: "access-widened", title: "2.4 grants what 2.2 refused", summary: "access widened", severity: "security" },
  "source-exposed": { id: "source-exposed", title: "2.4 serves the text of what 2.2 ran", summary: "source exposed", severity: "security" },
  narrowed: { id: "access-narrowed", title: "2.4 refuses what 2.2 granted", summary: "access narrowed", severity: "behaviour" },
};

/** A claimed regression by a rule that says 2.4 still works (expected, deprecated, behaviour) is the change the
 * rule predicts; a blocking or security claim stays a regression, named. */
function reclassify(difference: Difference, cause: Cause): Difference {
  if (difference.class !== "regression") return difference;
  const summary = cause.claim?.summary ?? cause.title;
  // An outcome change stays the regression it is, named.
  if (cause.kind === "outcome") return { ...difference, reason: `${cause.id} (${cause.severity}${cause.security ? ", security" : ""}): ${summary}` };
  if (cause.kind !== "rule") return difference;
  if (cause.severity !== "unexplained" && BENIGN.has(cause.severity) && !cause.security) {
    return { ...difference, class: "expected-change", seed: [...(cause.rule?.seed ?? [])], reason: `${cause.id}: ${summary}` };
  }
  return { ...difference, reason: `${cause.id} (${cause.severity}${cause.security ? ", security" : ""}): ${summary}` };
}

function addEvidence(finding: RunFinding, cause: Cause, item: Item): void {
  const lines: string[] = [];
  if (cause.claim) lines.push(cause.claim.summary);
  const d = item.difference;
  if (d.field === "status") lines.push(`status ${text(d.baseline) ?? "none"} → ${text(d.candidate) ?? "none"}${item.request ? ` on ${requestLabel(item.request)}` : ""}`);
  if (d.field === "configTest" || d.field === "started" || d.field === "errorLog" || d.field === "startupLog" || d.field === "status") {
    const records = item.evidence.log.candidate.filter((r) => r.level === null || ["emerg", "alert", "crit", "error", "warn"].includes(r.level));
    for (const record of records) {
      const code = record.code ?? (record.event !== null && /^AH\d+$/.test(record.event) ? record.event : null);
      if (record.message.trim() === "" || /^Syntax OK$/i.test(record.message.trim())) continue;
      lines.push(`${code ? `${code} ` : ""}${record.message.length > 160 ? `${record.message.slice(0, 160)}…` : record.message}`);
    }
  }
  for (const line of lines) {
    if (finding.evidence.length >= EVIDENCE_LINES) return;
    if (!finding.evidence.includes(line)) finding.evidence.push(line);
  }
}
