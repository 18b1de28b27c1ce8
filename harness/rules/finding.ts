// A lint finding: one rule's construct at one place of the operator's configuration. The shape of the JSON
// contract (`lint --format json`, schema/lint.schema.json) and of the config lines the run's findings cite.
import type { Severity } from "./severity.ts";

export interface SourcePlace {
  file: string;
  line: number;
  column: number;
}

/** The array fields are read-only: the findings of one lint share them (every finding of a section shares its
 * section path, of a file its include chain, of a rule its seed rows), so a change to one would change them all. */
export interface LintFinding {
  rule: string;
  severity: Severity;
  /** 2.4 grants or shows more than 2.2 did. */
  security: boolean;
  /** Seed rows of the upgrade guide the rule enforces. */
  seed: readonly string[];
  /** Tree path of the file, as `config` names it. */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The directive as written (its first line; a section's opening line). */
  directive: string;
  message: string;
  fix: string | null;
  /** Stable across edits that move lines: the rule, the file, the normalised directive and its section path. */
  fingerprint: string;
  /** Enclosing sections as written, outermost first ("<VirtualHost *:80>", "<Directory /var/www>"). */
  sections: readonly string[];
  /** The Include lines that reached the file, outermost first (empty for the main file). */
  includeChain: readonly SourcePlace[];
  /** Other lines that take part (the Order line an Allow line is read with). */
  related: readonly SourcePlace[];
  /** What the access model predicts for the requests this place's lines govern, or why it does not, in words
   * (rules/access-outcome.ts); absent where the rule makes no such claim. Per place: the message is the cause's. */
  predicted?: string;
}
