// The answer of `prove`: whether the port behaves like the original over the probed cells, and where it does
// not, counterexamples. Pure data, made by judge/prove/judge-proof.ts; the JSON form is schema/prove.schema.json.
import type { CredentialState } from "../../plan/probes/probe.ts";

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
  realm: string | null;
}

export interface ConfigLine {
  file: string;
  line: number;
  text: string;
}

/** widened: the port grants or shows what the original refused (most serious); narrowed: the port refuses
 * what the original granted; changed: any other difference of the answers. */
export type CounterexampleKind = "widened" | "narrowed" | "changed";

export interface Counterexample {
  kind: CounterexampleKind;
  request: ProofRequest;
  baseline: ProofAnswer;
  candidate: ProofAnswer;
  /** The lines that decide the request on each side (the access sections that apply, in merge order). */
  config: { baseline: ConfigLine[]; candidate: ConfigLine[] };
}

export interface Proof {
  schemaVersion: "1.0";
  verdict: "equivalent" | "counterexamples";
  /** Probes sent. */
  probes: number;
  cells: { total: number; probed: number; unprobed: Array<{ cell: string; reason: string }> };
  /** Smallest and most serious first: widened, then narrowed, then changed. */
  counterexamples: Counterexample[];
  /** Differences the guide predicts and the operator accepts (ignore file, expected rules): listed, not counted. */
  accepted: Array<{ request: ProofRequest; rule: string; reason: string }>;
}
