// A rule: what the harness knows about one row of the upgrade guide (or one benign difference), in up to three
// faces. detect finds the row's construct in an evaluated configuration (lint); recognise claims a run's
// difference as the row's evidence (triage); fix is the 2.4 text (a hint in lint, applied by migrate).
// Rules are data where they can be: most are a table of directives, codes and messages read by the engine.
import type { EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import type { Span } from "../conf/syntax-tree.ts";
import type { OutcomeClaim } from "./outcome-claim.ts";
import type { Evidence } from "./evidence.ts";
import type { LintContext } from "./lint-context.ts";
import type { Severity } from "./severity.ts";
export { SEVERITIES, atLeast, type Severity } from "./severity.ts";

/** What detect reports: the construct and what to say about it. The engine adds the rule's id and severity,
 * the section path, the include chain and the fingerprint. */
export interface Detection {
  /** The directive or section found (its span is the finding's place). */
  node: EffectiveDirective | EffectiveSection;
  /** Enclosing sections, outermost first (from walkConfig). */
  sections: readonly EffectiveSection[];
  /** In an operator's words: what 2.4 does with it. */
  message: string;
  /** The 2.4 replacement text, or what to do; null when there is nothing to write. */
  fix: string | null;
  /** A narrower severity than the rule's own (a rule whose construct is sometimes only behaviour). */
  severity?: Severity;
  /** Lines that take part in the finding besides `node` (the Order line of an Allow finding). */
  related?: Span[];
  /** What the access model predicts for the requests the lines govern (rules/access-outcome.ts), for a finding
   * whose severity comes from it. Not part of the lint's JSON: `predicted` says it. */
  outcome?: OutcomeClaim;
  /** This place's own prediction in words ("predicted by the access model: 2.2 denied (403), 2.4 served (200) for
   * an outsider without credentials (GET /internal/)", or why it is not predicted): the place carries it, and the
   * message stays the cause's, so that one cause's places are one finding. */
  predicted?: string;
}

/** A claim on one piece of evidence: the rule explains it. */
export interface Claim {
  /** What the evidence shows, in an operator's words ("403 on 2.4: client denied by server configuration"). */
  summary: string;
  /** Config lines named by the evidence itself (AH00526's "line N of FILE", AH00117's "in line N of FILE"). */
  lines?: Array<{ file: string; line: number }>;
  severity?: Severity;
}

/** A sample configuration for the container test that runs every rule's sample on real servers: `config` is
 * appended to a minimal config that loads the modules it names on each version. */
export interface RuleSample {
  /** Lines of a 2.2 config showing the construct. */
  config: string;
  /** Logical module names the sample needs besides the minimal set (as scenarios write them). */
  modules?: string[];
  /** Modules of the minimal base left out (what a 2.2 tree lacks on 2.4: mpm_event, unixd, ...), for a rule
   * whose construct is that absence. */
  omitModules?: string[];
  /** A request path to send once it started. */
  request?: string;
  /** What 2.4 does with it: a blocking rule's sample fails 2.4's config test (refuses), or passes it and exits
   * while starting (exits-at-start); the others start. */
  on24: "refuses" | "exits-at-start" | "starts";
  /** Where real 2.2 refuses the sample too, why (the guide names a directive 2.2.34 never had, or the official
   * 2.2 image's OpenSSL lacks what the construct asks for); absent: 2.2 starts it. */
  refusedBy22?: string;
  /** Files the sample needs, by path under the server root. */
  files?: Record<string, string>;
}

export interface Rule {
  /** The seed row's id ("R9"), or a kebab-case id for a harness fact the guide has no row for. */
  id: string;
  /** Seed rows the rule enforces (its own id for a row rule). */
  seed: readonly string[];
  title: string;
  severity: Severity;
  /** Whether a finding of this rule is a security change (2.4 grants or shows more). */
  security?: boolean;
  /** What the engine's "Invalid command on 2.4" pass (rules/invalid-commands.ts) credits to this rule: lines of
   * these directives, of directives whose 2.4 module is one of these ids, and LoadModule lines of these module
   * files, when the 2.4 target would refuse them. Data instead of a detect function for most blocking rows. */
  owns?: { directives?: readonly string[]; modules?: readonly string[]; moduleFiles?: readonly string[] };
  /** Static: the rule's construct in a configuration. */
  detect?: (context: LintContext) => Detection[];
  /** Dynamic: whether a run's evidence is this rule's; null when not. */
  recognise?: (evidence: Evidence) => Claim | null;
  /** The rule's fix in general terms, for SARIF rule metadata and `lint --explain`. */
  fix?: string;
  /** Where the guide (or the recorded real servers) says it. */
  help?: string;
  sample?: RuleSample;
  /** For a line the invalid-command pass credits to this rule through `owns`: whether the rule takes it (null:
   * not this rule's line, the pass looks further) and the rule's own message and fix for it. */
  ownedLine?: (node: EffectiveDirective | EffectiveSection, context: LintContext) => OwnedLine | null;
  /** Directives whose "not allowed here" on the 2.4 target (rules/context-refused.ts) this rule explains in its
   * own words (ownedLine), instead of the generic context rule. */
  ownsContext?: readonly string[];
  /** Messages of the configuration model's refusals (ConfProblem "refusal") that only the 2.4 target view has
   * (an Include wildcard that matches nothing): such a refusal becomes a finding of this rule at its line. */
  ownsRefusals?: readonly RegExp[];
  /** The module whose absence this rule's evidence follows from when 2.2's stock config loads it and 2.4's does
   * not (ssl-session-cache-warning: ssl_module): in a fragment run its claims fold under that module's cause
   * (stock-module-not-loaded). */
  stockModule?: string;
  /** Whether the rule's run findings are distinct causes told apart by their titles (stock-module-not-loaded: one
   * per module), so that a run's and a fleet's summary count each on its own instead of one per rule. */
  causeByTitle?: boolean;
  /** Whether detect reads each line alone (no tree-wide facts), so lint runs it on .htaccess files too, where
   * its construct is a 500 for the requests there instead of a refusal to start. */
  perDirectory?: boolean;
}

/** What a rule says about a line credited to it (each field overrides the pass's generic text). */
export interface OwnedLine {
  message?: string;
  fix?: string | null;
}
