// Pure: one run of a probe set on the original (baseline) and the port (candidate) → the proof. A probe's cell
// is proven when both answers agree: the status, where a redirect points (its path: the host part names each
// server), and for a 2xx answer the content type and the body. A difference the guide predicts for every
// configuration (an autoindex listing's markup, error-page wording) or that the operator's ignore file accepts is
// listed as accepted, not counted. Every other difference is a counterexample with the lines that decide the
// request on each side, the most serious first: access widened, then narrowed, then changed.
import type { EffectiveConfig, EffectiveSection } from "../../conf/effective-config.ts";
import { requestSections } from "../../conf/queries/request-sections.ts";
import type { HttpResponseOutcome } from "../../clients/outcome.ts";
import type { RequestObservation } from "../../observe/observation.ts";
import type { ScenarioRun } from "../../observe/scenario-run.ts";
import type { Probe, ProbeSet } from "../../plan/probes/probe.ts";
import { listingOf } from "../../rules/expected-differences.ts";
import { type IgnoreFile, ignoredBy } from "../../rules/ignore-file.ts";
import type { ConfigLine, Counterexample, CounterexampleKind, Proof, ProofAnswer, ProofRequest } from "./proof.ts";

export interface ProofInput {
  set: ProbeSet;
  run: ScenarioRun;
  baselineConfigs: readonly EffectiveConfig[];
  candidateConfigs: readonly EffectiveConfig[];
  ignore: IgnoreFile | null;
}

const DECIDING = new Set(["order", "allow", "deny", "satisfy", "require", "authtype", "authname", "authuserfile", "authgroupfile", "authbasicprovider", "sethandler", "addhandler"]);

function header(outcome: HttpResponseOutcome, name: string): string | null {
  return outcome.headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
}

function answerOf(observation: RequestObservation | undefined): ProofAnswer {
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

function granted(status: number | null): boolean {
  return status !== null && status >= 200 && status < 400;
}

function kindOf(baseline: ProofAnswer, candidate: ProofAnswer): CounterexampleKind {
  if (!granted(baseline.status) && granted(candidate.status)) return "widened";
  if (granted(baseline.status) && !granted(candidate.status)) return "narrowed";
  return "changed";
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

function deciding(configs: readonly EffectiveConfig[], probe: Probe): ConfigLine[] {
  const config = configs[0];
  return config === undefined ? [] : linesOf(requestSections(config, probe.target, probe.path));
}

const BACKEND_FAILURE = /DNS lookup failure for: (\S+)|proxy: .*(?:attempt to connect to|could not connect|error reading)|AH0095[79]|AH01114|AH00898/i;

function unreachableBackend(...observations: Array<RequestObservation | undefined>): string | null {
  for (const observation of observations) {
    for (const record of observation?.errorLog ?? []) {
      const match = BACKEND_FAILURE.exec(record.message);
      if (match) return match[1] ?? record.message.slice(0, 80);
    }
  }
  return null;
}

const STATUS_HANDLER = /^SetHandler\s+"?(server-status|server-info|balancer-manager|ldap-status)"?\s*$/i;
const CREDENTIAL_ORDER = ["none", "valid", "wrong-password", "other-realm"];
const KIND_ORDER: CounterexampleKind[] = ["widened", "narrowed", "changed"];

export function judgeProof(input: ProofInput): Proof {
  const [baselineSide, candidateSide] = input.run.observations;
  const byName = (side: typeof baselineSide) => new Map((side?.requests ?? []).map((r) => [r.name, r]));
  const baseline = byName(baselineSide);
  const candidate = byName(candidateSide);
  const clients = new Map(input.set.clients.map((c) => [c.id, c]));
  const counterexamples: Counterexample[] = [];
  const accepted: Proof["accepted"] = [];
  const unprobed = input.set.cells.filter((c) => c.probe === null).map((c) => ({ cell: c.id, reason: c.unprobed ?? "not probed" }));
  const vhostOf = (probe: Probe) => `${probe.target.tls ? "https" : "http"}://${probe.target.host ?? "(default)"}:${probe.target.port}`;
  // Virtual hosts whose proxied backend failed for some probe: log lines of a batch can land on a neighbour.
  const backendDown = new Map<string, string>();
  for (const probe of input.set.probes) {
    const failure = unreachableBackend(baseline.get(probe.id), candidate.get(probe.id));
    if (failure !== null && !backendDown.has(vhostOf(probe))) backendDown.set(vhostOf(probe), failure);
  }
  for (const probe of input.set.probes) {
    const a = answerOf(baseline.get(probe.id));
    const b = answerOf(candidate.get(probe.id));
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const client = clients.get(probe.client);
    const request: ProofRequest = {
      probe: probe.id,
      cell: probe.cell,
      vhost: `${probe.target.tls ? "https" : "http"}://${probe.target.host ?? "(default)"}:${probe.target.port}`,
      method: probe.method,
      path: probe.path,
      client: { id: probe.client, address: client?.address ?? null, domain: client?.domain ?? null, range: client?.range ?? "" },
      credentials: probe.credentials,
      realm: probe.realm,
    };
    // A proxied backend the harness cannot reach fails on both sides, with each version's status (2.2: 502,
    // 2.4: 500 on a DNS failure): the cell says nothing about the config, so it is not probed, not proven.
    const backend = unreachableBackend(baseline.get(probe.id), candidate.get(probe.id)) ?? backendDown.get(vhostOf(probe)) ?? null;
    if (backend !== null && (a.status ?? 0) >= 500 && (b.status ?? 0) >= 500) {
      unprobed.push({ cell: probe.cell, reason: `the proxied backend is not reachable from the harness (${backend})` });
      continue;
    }
    // Both listings of the same directory: 2.4's markup (autoindex-markup).
    const listing = listingOf(bodyOf(baseline.get(probe.id)));
    if (a.status === b.status && listing !== null && listing === listingOf(bodyOf(candidate.get(probe.id))) && a.location === b.location) {
      accepted.push({ request, rule: "autoindex-markup", reason: `the listing of ${listing} in 2.4's markup` });
      continue;
    }
    const config = { baseline: deciding(input.baselineConfigs, probe), candidate: deciding(input.candidateConfigs, probe) };
    // A status page (server-status, server-info, balancer-manager) shows the server's own state: its body is
    // never the same twice, let alone across versions. Same status and type: the config decided alike.
    const handler = [...config.baseline, ...config.candidate].find((l) => STATUS_HANDLER.test(l.text));
    if (handler !== undefined && a.status === b.status && a.contentType === b.contentType && a.location === b.location) {
      accepted.push({ request, rule: "status-page-content", reason: `${handler.text.trim()}: the page shows each server's own state` });
      continue;
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
      continue;
    }
    counterexamples.push({ kind: kindOf(a, b), request, baseline: a, candidate: b, config });
  }
  counterexamples.sort((x, y) =>
    KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind)
    || CREDENTIAL_ORDER.indexOf(x.request.credentials) - CREDENTIAL_ORDER.indexOf(y.request.credentials)
    || x.request.path.length - y.request.path.length
    || x.request.probe.localeCompare(y.request.probe));
  const total = input.set.cells.length;
  // A cell moved to "not probed" after the run is not counted as probed.
  return {
    schemaVersion: "1.0",
    verdict: counterexamples.length === 0 ? "equivalent" : "counterexamples",
    probes: input.set.probes.length,
    cells: { total, probed: total - unprobed.length, unprobed },
    counterexamples,
    accepted,
  };
}

/** "equivalent over N of M cells" or "K counterexamples over N of M cells". */
export function proofVerdictLine(proof: Proof): string {
  const over = `over ${proof.cells.probed} of ${proof.cells.total} cells`;
  return proof.verdict === "equivalent" ? `equivalent ${over}` : `${proof.counterexamples.length} counterexample${proof.counterexamples.length === 1 ? "" : "s"} ${over}`;
}
