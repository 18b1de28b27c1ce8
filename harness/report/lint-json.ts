// `lint --format json`: the lint's JSON contract (schema/lint.schema.json, schemaVersion 2.1). One finding per
// cause (a rule, its message and fix, in one tree) with every place it was found at. The contract fields
// come first in each finding and keep their names (rule, severity, file, line, column, directive, message, fix:
// the first place's); then the rest, every place (`places`) and the tree it is in. A place the access model made a
// claim for carries it (`predicted`, 2.1): who gets what differs from place to place, the cause's message does not.
//
// lintJsonChunks writes the same text as `${JSON.stringify(lintDocument(...), null, 2)}\n` in pieces, a place at a
// time, so that a lint of tens of thousands of places never holds its report as one string (nor as one object).
import type { LintFinding, SourcePlace } from "../rules/finding.ts";
import type { LintCause, LintOutcome } from "../rules/lint-outcome.ts";
import type { Severity } from "../rules/severity.ts";

export const LINT_SCHEMA_VERSION = "2.1";
export const TOOL_NAME = "httpd-upgrade-harness";

/** One place of a finding: where, the directive as written, and what identifies it across edits (the finding's own
 * fields, finding.ts; the JSON writes them in this order). */
export type LintPlace = Pick<LintFinding, "file" | "line" | "column" | "endLine" | "endColumn" | "directive" | "fingerprint" | "sections" | "includeChain" | "related" | "predicted">;

export interface LintDocumentFinding {
  rule: string;
  severity: Severity;
  /** The first place's file, line, column and directive. */
  file: string;
  line: number;
  column: number;
  directive: string;
  message: string;
  fix: string | null;
  security: boolean;
  seed: readonly string[];
  /** Every place, in reading order. */
  places: LintPlace[];
  tree: string;
}

export interface LintDocument {
  schemaVersion: typeof LINT_SCHEMA_VERSION;
  tool: { name: typeof TOOL_NAME; version: string };
  findings: LintDocumentFinding[];
  /** Every file each tree's configuration reads, in reading order. */
  files: Array<{ tree: string; file: string }>;
  trees: Array<{ path: string; layout: string; targetModules: string }>;
  ignored: LintOutcome["ignored"];
  baseline: LintOutcome["baseline"];
  summary: {
    /** Findings reported (causes; neither ignored nor in the baseline). */
    findings: number;
    /** Their places, in all. */
    places: number;
    bySeverity: Record<Severity, number>;
    /** Places the baseline knew, not reported. */
    known: number;
    /** Places the ignore file silenced. */
    ignored: number;
    failOn: LintOutcome["failOn"];
    /** Reported findings at or above failOn. */
    failing: number;
    /** Whether the lint fails (exit status 1). */
    failed: boolean;
  };
}

function placeOf(place: LintCause["places"][number]): LintPlace {
  const { file, line, column, endLine, endColumn, directive, fingerprint, sections, includeChain, related, predicted } = place;
  return { file, line, column, endLine, endColumn, directive, fingerprint, sections, includeChain, related, ...(predicted === undefined ? {} : { predicted }) };
}

/** The finding with `places` as given (all of them, or none for the streamed head). */
function documentFinding(cause: LintCause, places: LintPlace[]): LintDocumentFinding {
  const first = cause.places[0]!;
  return {
    rule: cause.rule,
    severity: cause.severity,
    file: first.file,
    line: first.line,
    column: first.column,
    directive: first.directive,
    message: cause.message,
    fix: cause.fix,
    security: cause.security,
    seed: cause.seed,
    places,
    tree: cause.tree,
  };
}

function documentOf(outcome: LintOutcome, toolVersion: string, findings: LintDocumentFinding[]): LintDocument {
  return {
    schemaVersion: LINT_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: toolVersion },
    findings,
    files: outcome.trees.flatMap((tree) => tree.files.map((file) => ({ tree: tree.path, file }))),
    trees: outcome.trees.map((tree) => ({ path: tree.path, layout: tree.layout, targetModules: tree.targetModules })),
    ignored: outcome.ignored,
    baseline: outcome.baseline,
    summary: {
      findings: outcome.findings.length,
      places: outcome.places,
      bySeverity: outcome.bySeverity,
      known: outcome.baseline?.known ?? 0,
      ignored: outcome.ignored.total,
      failOn: outcome.failOn,
      failing: outcome.failing,
      failed: outcome.failing > 0,
    },
  };
}

export function lintDocument(outcome: LintOutcome, toolVersion: string): LintDocument {
  return documentOf(outcome, toolVersion, outcome.findings.map((cause) => documentFinding(cause, cause.places.map(placeOf))));
}

/** The document's findings key (at two spaces, the only one) and a finding's places key (at two spaces of the
 * finding's own text): string values hold no raw newline, so neither text can occur inside a value. */
const FINDINGS_SLOT = '\n  "findings": []';
const PLACES_SLOT = '\n  "places": []';

/** `text` with every line but the first indented by `pad` (the first is where the caller puts it). */
function indented(text: string, pad: string): string {
  return text.replaceAll("\n", `\n${pad}`);
}

/** A number as JSON.stringify writes it. */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : "null";
}

/** `JSON.stringify(places, null, 2)` of SourcePlaces, its lines after the first indented by `pad`. Joined from
 * an array: one flat string, which the places that share it copy whole when their text is written (a string
 * grown by `+=` is a tree of pieces, walked again for each of them). */
function sourcePlacesText(places: readonly SourcePlace[], pad: string): string {
  if (places.length === 0) return "[]";
  const parts = ["["];
  for (let at = 0; at < places.length; at++) {
    const { file, line, column } = places[at]!;
    parts.push(`${at === 0 ? "" : ","}\n${pad}  {\n${pad}    "file": ${JSON.stringify(file)},\n${pad}    "line": ${jsonNumber(line)},\n${pad}    "column": ${jsonNumber(column)}\n${pad}  }`);
  }
  parts.push(`\n${pad}]`);
  return parts.join("");
}

/** `JSON.stringify(strings, null, 2)`, its lines after the first indented by `pad`; one flat string, as above. */
function stringsText(strings: readonly string[], pad: string): string {
  if (strings.length === 0) return "[]";
  const parts = ["["];
  for (let at = 0; at < strings.length; at++) parts.push(`${at === 0 ? "" : ","}\n${pad}  ${JSON.stringify(strings[at])}`);
  parts.push(`\n${pad}]`);
  return parts.join("");
}

/** The pieces as one flat string. A template or `+` of more than a dozen characters is a pair of the pieces
 * (a cons string), which every string made of it holds as such, and every write of those walks again; an array
 * of two pieces or more, joined, is one string of the characters. */
function flat(...pieces: string[]): string {
  return pieces.join("");
}

/** Plain SourcePlaces: objects of exactly a string file and numbers line and column, as the finding's type says. */
function plainSources(places: readonly unknown[]): places is readonly SourcePlace[] {
  return places.every((p) => {
    if (p === null || typeof p !== "object") return false;
    const { file, line, column } = p as SourcePlace;
    return typeof file === "string" && typeof line === "number" && typeof column === "number" && Object.keys(p).length === 3;
  });
}

/** Where a place's `{` and `}` stand in the document, and its fields. */
const PLACE_PAD = "        ";
const PLACE_FIELD_PAD = `${PLACE_PAD}  `;

// The text between a place's values, each one constant string.
const COLUMN_KEY = `,\n${PLACE_FIELD_PAD}"column": `;
const END_LINE_KEY = `,\n${PLACE_FIELD_PAD}"endLine": `;
const END_COLUMN_KEY = `,\n${PLACE_FIELD_PAD}"endColumn": `;
const DIRECTIVE_KEY = `,\n${PLACE_FIELD_PAD}"directive": `;
const FINGERPRINT_KEY = `,\n${PLACE_FIELD_PAD}"fingerprint": `;
const SECTIONS_KEY = `,\n${PLACE_FIELD_PAD}"sections": `;
const INCLUDE_CHAIN_KEY = `,\n${PLACE_FIELD_PAD}"includeChain": `;
const RELATED_KEY = `,\n${PLACE_FIELD_PAD}"related": `;
const PREDICTED_KEY = `,\n${PLACE_FIELD_PAD}"predicted": `;
const PLACE_END = `\n${PLACE_PAD}}`;

/** How many directives' texts a PlaceText keeps: a cause's places repeat a few lines (every vhost's `Order
 * deny,allow`); a tree whose lines all differ makes the map start again rather than grow with the report. */
const DIRECTIVES_KEPT = 4_096;

/** A place's text in the document, as `indented(JSON.stringify(placeOf(place), null, 2), PLACE_PAD)` gives it,
 * written by hand: 90,000 places went through JSON.stringify's generic walk and then a replaceAll for the
 * indent, a third of the 10,000-vhost lint's rendering. What places share is made once, as one flat string each:
 * the lead up to the line's number by file, the directive's text by directive, the arrays' texts by array (a
 * section path is shared by every line of its section, an include chain by every line of its file). A place's
 * text is then some twenty flat pieces, which its chunk's write copies once: built of nested pieces (each array's
 * text grown by `+=`, each field a template of its own) it was some sixty, and walking them to write the report
 * cost as much as making them. A place holding anything the text below would not write as JSON.stringify does (a
 * field left undefined, which JSON.stringify leaves out; an array of something else) takes JSON.stringify
 * itself. */
class PlaceText {
  /** Each array's text, or null when it is not plain. */
  readonly #arrays = new WeakMap<readonly unknown[], string | null>();
  /** The last file's leads: `{`, its file and the line's key; after a place's separator (`,\n` or `\n`) and pad. */
  #file: string | undefined;
  #firstLead = "";
  #nextLead = "";
  readonly #directives = new Map<string, string>();

  #strings(array: readonly unknown[]): string | null {
    if (!Array.isArray(array)) return null;
    if (array.length === 0) return "[]";
    let known = this.#arrays.get(array);
    if (known === undefined) {
      known = array.every((label) => typeof label === "string") ? stringsText(array as readonly string[], PLACE_FIELD_PAD) : null;
      this.#arrays.set(array, known);
    }
    return known;
  }

  #sources(array: readonly unknown[]): string | null {
    if (!Array.isArray(array)) return null;
    if (array.length === 0) return "[]";
    let known = this.#arrays.get(array);
    if (known === undefined) this.#arrays.set(array, (known = plainSources(array) ? sourcePlacesText(array, PLACE_FIELD_PAD) : null));
    return known;
  }

  /** `"directive": ` and the directive as JSON, after the column's number. */
  #directive(directive: string): string {
    let known = this.#directives.get(directive);
    if (known === undefined) {
      if (this.#directives.size >= DIRECTIVES_KEPT) this.#directives.clear();
      known = flat(DIRECTIVE_KEY, JSON.stringify(directive));
      this.#directives.set(directive, known);
    }
    return known;
  }

  /** The place's text with what goes before it in the list: `\n` for its first place, `,\n` for the others, and
   * the pad. */
  of(place: LintCause["places"][number], first: boolean): string {
    const { file, line, column, endLine, endColumn, directive, fingerprint, predicted } = place;
    const sections = this.#strings(place.sections);
    const includeChain = this.#sources(place.includeChain);
    const related = this.#sources(place.related);
    if (
      sections === null ||
      includeChain === null ||
      related === null ||
      typeof file !== "string" ||
      typeof line !== "number" ||
      typeof column !== "number" ||
      typeof endLine !== "number" ||
      typeof endColumn !== "number" ||
      typeof directive !== "string" ||
      typeof fingerprint !== "string" ||
      (predicted !== undefined && typeof predicted !== "string")
    ) {
      return `${first ? "\n" : ",\n"}${PLACE_PAD}${indented(JSON.stringify(placeOf(place), null, 2), PLACE_PAD)}`;
    }
    if (file !== this.#file) {
      const lead = `${PLACE_PAD}{\n${PLACE_FIELD_PAD}"file": ${JSON.stringify(file)},\n${PLACE_FIELD_PAD}"line": `;
      this.#file = file;
      this.#firstLead = flat("\n", lead);
      this.#nextLead = flat(",\n", lead);
    }
    // One expression of pieces, each flat: what is shared, the numbers, the fingerprint and the prediction.
    return (
      (first ? this.#firstLead : this.#nextLead) +
      jsonNumber(line) +
      COLUMN_KEY +
      jsonNumber(column) +
      END_LINE_KEY +
      jsonNumber(endLine) +
      END_COLUMN_KEY +
      jsonNumber(endColumn) +
      this.#directive(directive) +
      FINGERPRINT_KEY +
      JSON.stringify(fingerprint) +
      SECTIONS_KEY +
      sections +
      INCLUDE_CHAIN_KEY +
      includeChain +
      RELATED_KEY +
      related +
      (predicted === undefined ? PLACE_END : PREDICTED_KEY + JSON.stringify(predicted) + PLACE_END)
    );
  }
}

/** `${JSON.stringify(lintDocument(outcome, toolVersion), null, 2)}\n`, in pieces of a place or a document's head
 * each. */
export function* lintJsonChunks(outcome: LintOutcome, toolVersion: string): Generator<string> {
  const head = JSON.stringify(documentOf(outcome, toolVersion, []), null, 2);
  const at = head.indexOf(FINDINGS_SLOT);
  if (at < 0) throw new Error("lint json: no findings slot");
  const afterFindings = at + FINDINGS_SLOT.length;
  if (outcome.findings.length === 0) {
    yield `${head}\n`;
    return;
  }
  yield head.slice(0, afterFindings - 1);
  const placeText = new PlaceText();
  let firstFinding = true;
  for (const cause of outcome.findings) {
    const text = JSON.stringify(documentFinding(cause, []), null, 2);
    const slot = text.indexOf(PLACES_SLOT);
    if (slot < 0) throw new Error("lint json: no places slot");
    yield `${firstFinding ? "\n" : ",\n"}    ${indented(text.slice(0, slot + PLACES_SLOT.length - 1), "    ")}`;
    firstFinding = false;
    let firstPlace = true;
    for (const place of cause.places) {
      yield placeText.of(place, firstPlace);
      firstPlace = false;
    }
    yield `\n      ]${indented(text.slice(slot + PLACES_SLOT.length), "    ")}`;
  }
  yield `\n  ]${head.slice(afterFindings)}\n`;
}
