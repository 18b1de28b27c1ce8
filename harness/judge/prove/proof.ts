// The answer of `prove`: whether the port behaves like the original over the cells the probes reached, and where
// it does not, counterexamples. Pure data, made by judge/prove/judge-proof.ts (and power.ts); the JSON form is
// schema/prove.schema.json.
import type { CredentialState } from "../../plan/probes/probe.ts";
import type { DifferenceClass } from "../outcome/cell-class.ts";
import type { SideWitness } from "../outcome/probe-outcome.ts";

export interface ProofAnswer {
  /** null when no answer came (connection refused, timeout): `error` says what happened. */
  status: number | null;
  error: string | null;
  /** Location header for redirects, content type, and a digest of the body, for 2xx answers. */
  location: string | null;
  contentType: string | null;
  bodyDigest: string | null;
}

export interface ProofRequest {
  probe: string;
  cell: string;
  vhost: string;
  method: string;
  path: string;
  client: { id: string; address: string | null; domain: string | null; range: string };
  credentials: CredentialState;
  /** The user the credentials name (valid, wrong-password, other-realm); null without credentials. */
  user: string | null;
  realm: string | null;
}

export interface ConfigLine {
  file: string;
  line: number;
  text: string;
}

/** What became of a cell:
 * - equal: both sides answered alike, each with its witnesses (the user was taken in, the object was there);
 * - widened, source-exposed, narrowed, changed: a counterexample (outcome/cell-class.ts);
 * - vacuous: the answers are equal only because of the harness (a probe user no side took in, an object missing,
 *   the same transport error): not counted;
 * - unprobed: no probe could stand for it (an LDAP realm, IPv6 on an engine without it, an unreachable backend);
 * - accepted: the answers differ as the guide predicts for every config, or as the ignore file allows. */
export type CellClass = "equal" | DifferenceClass | "vacuous" | "unprobed" | "accepted";

export interface CellRecord {
  cell: string;
  vhost: string;
  region: string;
  /** The probe's path; null when unprobed. */
  path: string | null;
  client: string;
  credentials: CredentialState;
  user: string | null;
  method: string;
  probe: string | null;
  class: CellClass;
  /** Why vacuous, unprobed or accepted; for an equal cell a surviving mutant would have changed, that mutant. */
  reason: string | null;
  /** Equal, witnessed on both sides, and no surviving mutant would have changed it: counted in "N of M". */
  proven: boolean;
  baseline: SideWitness | null;
  candidate: SideWitness | null;
}

export interface Counterexample {
  kind: DifferenceClass;
  /** Widened and source-exposed: the port grants or shows what the original did not. */
  security: boolean;
  request: ProofRequest;
  baseline: ProofAnswer;
  candidate: ProofAnswer;
  /** Each side's outcome and witnesses. */
  witnesses: { baseline: SideWitness; candidate: SideWitness };
  /** The lines that decide the request on each side (the access sections that apply, in merge order). */
  config: { baseline: ConfigLine[]; candidate: ConfigLine[] };
}

/** One mutant of the port that no probe told from the port: the region it changed and the cells that were
 * therefore not proven. */
export interface SurvivingMutant {
  region: string;
  mutation: string;
  file: string;
  line: number;
  cells: string[];
}

export interface ProofPower {
  mutants: number;
  killed: number;
  survivors: SurvivingMutant[];
  /** Mutants counted neither way: 2.4 refused to load them, or no cell of their region was compared. */
  uncounted: Array<{ mutation: string; file: string; line: number; reason: string }>;
  durationMs: number;
}

export interface Proof {
  schemaVersion: "2.0";
  verdict: "equivalent" | "counterexamples";
  /** Probes sent. */
  probes: number;
  cells: {
    total: number;
    /** Cells counted as equivalent: equal with witnesses on both sides, not weakened by a surviving mutant. */
    proven: number;
    /** Cells a probe was sent for. */
    probed: number;
    unprobed: Array<{ cell: string; reason: string }>;
    vacuous: Array<{ cell: string; reason: string }>;
    /** How many cells of each class. */
    classes: Record<CellClass, number>;
  };
  /** Every cell with its class and witnesses, in probe order (the HTML report draws it as a matrix). */
  matrix: CellRecord[];
  /** Most serious first: widened, source-exposed, narrowed, changed; then without credentials first. */
  counterexamples: Counterexample[];
  /** Differences the guide predicts and the operator accepts (ignore file, expected rules): listed, not counted. */
  accepted: Array<{ request: ProofRequest; rule: string; reason: string }>;
  /** Mutation power (`prove` without --no-power): how many mutants of the port the probes told apart. */
  power: ProofPower | null;
}
