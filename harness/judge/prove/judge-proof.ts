// Pure: one run of a probe set on the original (baseline) and the port (candidate) → the proof. Every cell gets a
// class from both sides' outcomes (outcome/probe-outcome.ts) and the witnesses that it reached its decision:
// - both answers alike (the status, where a redirect points, and for a 2xx answer the content type and the body)
//   and witnessed on both sides (a valid probe user was taken in, the object was there): equal, counted;
// - alike only because of the harness (a probe user refused as unknown, an object missing, the same transport
//   error on both sides): vacuous, listed with the reason and never counted;
// - different: a counterexample classed by outcome (outcome/cell-class.ts), widened and source-exposed flagged as
//   security, each with the lines that decide the request on each side; or accepted, when the guide predicts the
//   difference for every configuration (an autoindex listing's markup, a status page) or the ignore file allows it.
import type { EffectiveConfig, EffectiveSection } from "../../conf/effective-config.ts";
import { requestSections } from "../../conf/queries/request-sections.ts";
import type { HttpResponseOutcome } from "../../clients/outcome.ts";
import type { RequestObservation, SideObservation } from "../../observe/observation.ts";
import type { ScenarioRun } from "../../observe/scenario-run.ts";
import type { Probe, ProbeSet } from "../../plan/probes/probe.ts";
import { listingOf } from "../../rules/expected-differences.ts";
import { type IgnoreFile, ignoredBy } from "../../rules/ignore-file.ts";
import { DIFFERENCE_CLASSES, SECURITY_CLASSES, witnessClass } from "../outcome/cell-class.ts";
import { vacuityOf } from "../outcome/probe-cells.ts";
import { unreachableBackend } from "../outcome/unreachable-backend.ts";
import { type ProbeQuestion, sideWitness } from "../outcome/probe-outcome.ts";
import type { CellClass, CellRecord, ConfigLine, Counterexample, Proof, ProofAnswer, ProofRequest } from "./proof.ts";

export interface ProofInput {
  set: ProbeSet;
  run: ScenarioRun;
  baselineConfigs: readonly EffectiveConfig[];
  candidateConfigs: readonly EffectiveConfig[];
  ignore: IgnoreFile | null;
  /** Where URLs map when a config sets no DocumentRoot (a fragment: the image's own). */
  defaultRoot?: string | null;
}

const DECIDING = new Set(["order", "allow", "deny", "satisfy", "require", "authtype", "authname", "authuserfile", "authgroupfile", "authbasicprovider", "authdigestprovider", "sethandler", "addhandler", "options"]);

function header(outcome: HttpResponseOutcome, name: string): string | null {
  return outcome.headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
}

export function answerOf(observation: RequestObservation | undefined): ProofAnswer {
  const outcome = observation?.outcome;
  if (outcome === undefined) return { status: null, error: "not sent", location: null, contentType: null, bodyDigest: null };
  if (outcome.kind !== "response") {
    const error = outcome.kind === "transport-error" ? `${outcome.code}: ${outcome.message}` : outcome.kind === "not-run" ? outcome.reason : "exec";
    return { status: null, error, location: null, contentType: null, bodyDigest: null };
  }
  const location = header(outcome, "location");
  const ok = outcome.status >= 200 && outcome.status < 300;
  return {
    status: outcome.status,
    error: null,
    // The host part names each side's own server; the path is what the config decides.
    location: location === null ? null : location.replace(/^[a-z]+:\/\/[^/]+/i, ""),
    contentType: ok ? (header(outcome, "content-type") ?? "").toLowerCase().replace(/\s+/g, "") : null,
    bodyDigest: ok ? outcome.bodySha256 : null,
  };
}

function bodyOf(observation: RequestObservation | undefined): string | null {
  return observation?.outcome.kind === "response" ? observation.outcome.body : null;
}

function linesOf(sections: readonly EffectiveSection[]): ConfigLine[] {
  const out: ConfigLine[] = [];
  const visit = (section: EffectiveSection, top: boolean): void => {
    if (top) out.push({ file: section.span.file, line: section.span.line, text: section.node.openRaw.trim() });
    for (const child of section.children) {
      if (child.kind === "section") {
        if (/^require(all|any|none)$|^limit(except)?$|^ifmodule$/.test(child.key)) {
          out.push({ file: child.span.file, line: child.span.line, text: child.node.openRaw.trim() });
          visit(child, false);
        }
      } else if (DECIDING.has(child.key)) out.push({ file: child.span.file, line: child.span.line, text: child.node.raw.trim() });
    }
  };
  for (const section of sections) visit(section, true);
  return out;
}

function deciding(configs: readonly EffectiveConfig[], probe: Probe, defaultRoot: string | null): ConfigLine[] {
  const config = configs[0];
  return config === undefined ? [] : linesOf(requestSections(config, probe.target, probe.path, defaultRoot));
}

const STATUS_HANDLER = /^SetHandler\s+"?(server-status|server-info|balancer-manager|ldap-status)"?\s*$/i;
const CREDENTIAL_ORDER = ["none", "valid", "wrong-password", "other-realm"];

export function questionOf(probe: Probe): ProbeQuestion {
  return { url: probe.path, method: probe.method, host: probe.target.host, port: probe.target.port, credentials: probe.credentials, user: probe.user, object: probe.object };
}

function emptyClasses(): Record<CellClass, number> {
  return { equal: 0, widened: 0, "source-exposed": 0, narrowed: 0, changed: 0, vacuous: 0, unprobed: 0, accepted: 0 };
}

export function judgeProof(input: ProofInput): Proof {
  const [baselineSide, candidateSide] = input.run.observations as [SideObservation | undefined, SideObservation | undefined];
  const byName = (side: SideObservation | undefined) => new Map((side?.requests ?? []).map((r) => [r.name, r]));
  const baseline = byName(baselineSide);
  const candidate = byName(candidateSide);
  const clients = new Map(input.set.clients.map((c) => [c.id, c]));
  const probes = new Map(input.set.probes.map((p) => [p.id, p]));
  const counterexamples: Counterexample[] = [];
  const accepted: Proof["accepted"] = [];
  const vhostOf = (probe: Probe) => `${probe.target.tls ? "https" : "http"}://${probe.target.host ?? "(default)"}:${probe.target.port}`;
  // Virtual hosts whose proxied backend failed for some probe: log lines of a batch can land on a neighbour.
  const backendDown = new Map<string, string>();
  for (const probe of input.set.probes) {
    const failure = unreachableBackend(baseline.get(probe.id), candidate.get(probe.id));
    if (failure !== null && !backendDown.has(vhostOf(probe))) backendDown.set(vhostOf(probe), failure);
  }
  const matrix: CellRecord[] = input.set.cells.map((cell) => {
    const probe = cell.probe === null ? undefined : probes.get(cell.probe);
    const record: CellRecord = { cell: cell.id, vhost: cell.vhost, region: cell.region, path: probe?.path ?? null, client: cell.client, credentials: cell.credentials, user: cell.user, method: cell.method, probe: cell.probe, class: "unprobed", reason: cell.unprobed ?? "not probed", proven: false, baseline: null, candidate: null };
    if (probe === undefined || baselineSide === undefined || candidateSide === undefined) return record;
    const question = questionOf(probe);
    const a = answerOf(baseline.get(probe.id));
    const b = answerOf(candidate.get(probe.id));
    const wa = sideWitness(question, baseline.get(probe.id), baselineSide);
    const wb = sideWitness(question, candidate.get(probe.id), candidateSide);
    record.baseline = wa;
    record.candidate = wb;
    record.reason = null;
    // A file whose extension has no MIME type: 2.2 sends its DefaultType, 2.4 none (E1), whatever the port says.
    // The same file to the same client: the config decided alike.
    const defaultType = a.status === b.status && a.bodyDigest === b.bodyDigest && a.contentType !== null && a.contentType !== "" && b.contentType === "";
    if (JSON.stringify(a) === JSON.stringify(defaultType ? { ...b, contentType: a.contentType } : b)) {
      const vacuous = vacuityOf(question, wa, wb);
      record.class = vacuous === null ? "equal" : "vacuous";
      record.reason = vacuous ?? (defaultType ? `E1: 2.4 sends no Content-Type where 2.2 sent its DefaultType (${a.contentType})` : null);
      record.proven = vacuous === null;
      return record;
    }
    const client = clients.get(probe.client);
    const request: ProofRequest = {
      probe: probe.id,
      cell: probe.cell,
      vhost: vhostOf(probe),
      method: probe.method,
      path: probe.path,
      client: { id: probe.client, address: client?.address ?? null, domain: client?.domain ?? null, range: client?.range ?? "" },
      credentials: probe.credentials,
      user: probe.user,
      realm: probe.realm,
    };
    // A proxied backend the harness cannot reach fails on both sides, with each version's status (2.2: 502,
    // 2.4: 500 on a DNS failure): the cell says nothing about the config, so it is not probed, not proven.
    const backend = unreachableBackend(baseline.get(probe.id), candidate.get(probe.id)) ?? backendDown.get(vhostOf(probe)) ?? null;
    if (backend !== null && (a.status ?? 0) >= 500 && (b.status ?? 0) >= 500) {
      record.class = "unprobed";
      record.reason = `the proxied backend is not reachable from the harness (${backend})`;
      return record;
    }
    // Both listings of the same directory: 2.4's markup (autoindex-markup).
    const listing = listingOf(bodyOf(baseline.get(probe.id)));
    if (a.status === b.status && listing !== null && listing === listingOf(bodyOf(candidate.get(probe.id))) && a.location === b.location) {
      accepted.push({ request, rule: "autoindex-markup", reason: `the listing of ${listing} in 2.4's markup` });
      record.class = "accepted";
      record.reason = "autoindex-markup";
      return record;
    }
    const config = { baseline: deciding(input.baselineConfigs, probe, input.defaultRoot ?? null), candidate: deciding(input.candidateConfigs, probe, input.defaultRoot ?? null) };
    // A status page (server-status, server-info, balancer-manager) shows the server's own state: its body is
    // never the same twice, let alone across versions. Same status and type: the config decided alike.
    const handler = [...config.baseline, ...config.candidate].find((l) => STATUS_HANDLER.test(l.text));
    if (handler !== undefined && a.status === b.status && a.contentType === b.contentType && a.location === b.location) {
      accepted.push({ request, rule: "status-page-content", reason: `${handler.text.trim()}: the page shows each server's own state` });
      record.class = "accepted";
      record.reason = "status-page-content";
      return record;
    }
    const field = a.status !== b.status ? "status" : a.location !== b.location ? "header:location" : a.contentType !== b.contentType ? "header:content-type" : "body";
    const entry = ignoredBy(input.ignore, {
      rule: null,
      files: [...config.baseline, ...config.candidate].map((l) => l.file),
      request: probe.path,
      field,
      codes: [],
      values: [String(a.status), String(b.status), a.contentType, b.contentType],
    });
    if (entry !== undefined) {
      accepted.push({ request, rule: entry.rule ?? "ignore-file", reason: entry.reason });
      record.class = "accepted";
      record.reason = `${entry.rule ?? "ignore-file"}: ${entry.reason}`;
      return record;
    }
    const kind = witnessClass(wa, wb);
    record.class = kind;
    counterexamples.push({ kind, security: SECURITY_CLASSES.has(kind), request, baseline: a, candidate: b, witnesses: { baseline: wa, candidate: wb }, config });
    return record;
  });
  counterexamples.sort((x, y) =>
    DIFFERENCE_CLASSES.indexOf(x.kind) - DIFFERENCE_CLASSES.indexOf(y.kind)
    || CREDENTIAL_ORDER.indexOf(x.request.credentials) - CREDENTIAL_ORDER.indexOf(y.request.credentials)
    || x.request.path.length - y.request.path.length
    || x.request.probe.localeCompare(y.request.probe));
  return summarise({ probes: input.set.probes.length, matrix, counterexamples, accepted, power: null });
}

/** The proof's counts from its matrix (again after power marks the cells a surviving mutant weakens). */
export function summarise(parts: Pick<Proof, "probes" | "matrix" | "counterexamples" | "accepted" | "power">): Proof {
  const classes = emptyClasses();
  for (const cell of parts.matrix) classes[cell.class]++;
  return {
    schemaVersion: "2.0",
    verdict: parts.counterexamples.length === 0 ? "equivalent" : "counterexamples",
    probes: parts.probes,
    cells: {
      total: parts.matrix.length,
      proven: parts.matrix.filter((c) => c.proven).length,
      probed: parts.matrix.filter((c) => c.probe !== null).length,
      unprobed: parts.matrix.filter((c) => c.class === "unprobed").map((c) => ({ cell: c.cell, reason: c.reason ?? "not probed" })),
      vacuous: parts.matrix.filter((c) => c.class === "vacuous").map((c) => ({ cell: c.cell, reason: c.reason ?? "vacuous" })),
      classes,
    },
    matrix: parts.matrix,
    counterexamples: parts.counterexamples,
    accepted: parts.accepted,
    power: parts.power,
  };
}

/** "equivalent over N of M cells" or "K counterexamples over N of M cells"; with power, "; power: K of L mutants
 * killed". */
export function proofVerdictLine(proof: Proof): string {
  const over = `over ${proof.cells.proven} of ${proof.cells.total} cells`;
  const head = proof.verdict === "equivalent" ? `equivalent ${over}` : `${proof.counterexamples.length} counterexample${proof.counterexamples.length === 1 ? "" : "s"} ${over}`;
  return proof.power === null ? head : `${head}; power: ${proof.power.killed} of ${proof.power.mutants} mutants killed`;
}
