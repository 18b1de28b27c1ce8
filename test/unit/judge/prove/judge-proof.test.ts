// judgeProof on observations made up the way the observer records them: equal answers witnessed on both sides
// prove their cells; equal answers the harness made (a probe user refused as unknown, an object missing, the
// same transport error) are vacuous and never counted; a cell whose identity cannot be made is unprobed with its
// reason; a difference is a counterexample classed by outcome (widened, source-exposed, narrowed, changed), with
// the lines that decide it on each side; status pages, autoindex markup, E1's missing Content-Type and the ignore
// file's entries are accepted, not counted; an unreachable proxied backend leaves its cells unprobed. The output
// validates against schema/prove.schema.json.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HttpResponseOutcome } from "../../../../harness/clients/outcome.ts";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { loadTree } from "../../../../harness/conf/load-tree.ts";
import { judgeProof, proofVerdictLine } from "../../../../harness/judge/prove/judge-proof.ts";
import { parseErrorLogLine } from "../../../../harness/logs/parse-error-log.ts";
import type { ObservedWorld, RequestObservation, SideObservation } from "../../../../harness/observe/observation.ts";
import type { ScenarioRun } from "../../../../harness/observe/scenario-run.ts";
import { generateProbes } from "../../../../harness/plan/probes/generate-probes.ts";
import type { Probe, ProbeSet } from "../../../../harness/plan/probes/probe.ts";
import { markerOf, objectText } from "../../../../harness/plan/probes/world-content.ts";
import { parseIgnoreFile } from "../../../../harness/rules/ignore-file.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(new URL("../../../../schema/prove.schema.json", import.meta.url), "utf8")) as object);

async function config(conf: string, version: string) {
  const root = mkdtempSync(join(tmpdir(), "proof-"));
  const file = join(root, "conf/httpd.conf");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, ['ServerRoot "/usr/local/apache2"', "Listen 80", 'DocumentRoot "/usr/local/apache2/htdocs"', conf].join("\n"));
  return evaluateTree(await loadTree(root), { version: httpdVersion(version), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "mod_alias.c", "mod_authz_host.c", "mod_status.c"] });
}

function probe(id: string, path: string, options: Partial<Pick<Probe, "client" | "credentials" | "user" | "object">> = {}): Probe {
  const client = options.client ?? "outsider";
  const credentials = options.credentials ?? "none";
  const user = options.user ?? null;
  return {
    id,
    cell: `http://(default):80|${path}|${client}|${credentials === "valid" ? `valid:${user}` : credentials}|GET`,
    target: { host: null, port: 80, tls: false },
    method: "GET",
    path,
    client,
    credentials,
    user,
    scheme: credentials === "none" ? null : "basic",
    realm: null,
    purpose: "inside",
    region: path,
    object: options.object ?? { kind: "static", marker: markerOf(path), origin: null },
    sections: [],
  };
}

function setOf(probes: Probe[]): ProbeSet {
  return {
    probes,
    cells: probes.map((p) => ({ id: p.cell, vhost: "v", region: p.region, client: p.client, credentials: p.credentials, user: p.user, method: "GET", probe: p.id, unprobed: null })),
    clients: [{ id: "outsider", kind: "outsider", address: "198.51.100.77", domain: null, range: "outsider" }],
    world: { users: [], digestRealms: [], objects: [] },
  };
}

function response(status: number, body = "", headers: Array<[string, string]> = [["Content-Type", "text/html"]]): HttpResponseOutcome {
  return { kind: "response", status, httpVersion: "1.1", headers, body, bodyBytes: body.length, bodySha256: `sha-${body}`, durationMs: 1 };
}

const LINE = { "2.2": "[Mon Dec 07 10:57:17 2026] [error] [client 10.0.0.9] ", "2.4": "[Mon Dec 07 10:50:10.665538 2026] [auth_basic:error] [pid 18:tid 23] [client 10.0.0.9:47718] " } as const;

function observed(name: string, outcome: RequestObservation["outcome"], errorLog: string[] = [], family: "2.2" | "2.4" = "2.2"): RequestObservation {
  return { name, client: "outsider", outcome, repeat: null, errorLog: errorLog.map((message) => parseErrorLogLine(`${LINE[family]}${message}`, family)), repeatErrorLog: null };
}

/** Every probe's path planted with its marker, unless `missing` names it. */
function worldOf(probes: readonly Probe[], missing: string[] = []): ObservedWorld {
  return {
    objects: probes.map((p) => ({ target: p.target, url: p.path, path: `/usr/local/apache2/htdocs${p.path}`, held: "planted" as const, kind: p.object.kind, marker: p.object.marker, sha256: null, reason: null })),
    stores: [],
    users: [],
    missing: missing.map((p) => `/usr/local/apache2/htdocs${p}`),
    identityFailures: [],
  };
}

function side(requests: RequestObservation[], world: ObservedWorld | null): SideObservation {
  return { requests, trailingLog: [], world } as unknown as SideObservation;
}

function run(baseline: SideObservation, candidate: SideObservation): ScenarioRun {
  return { observations: [baseline, candidate] } as unknown as ScenarioRun;
}

const CONF22 = ["<Directory /usr/local/apache2/htdocs/admin>", "Order deny,allow", "Deny from all", "Allow from 10.0.0.0/8", "</Directory>", "<Location /server-status>", "SetHandler server-status", "</Location>"].join("\n");
const CONF24 = ["<Directory /usr/local/apache2/htdocs/admin>", "Require all granted", "</Directory>", "<Location /server-status>", "SetHandler server-status", "</Location>"].join("\n");
const marked = (path: string) => objectText("static", markerOf(path)).text;

describe("judgeProof", () => {
  it("finds the widened request first, with the lines that decide it on each side", async () => {
    const probes = [probe("p1", "/"), probe("p2", "/admin/"), probe("p3", "/nothing"), probe("p4", "/server-status", { client: "localhost" })];
    const proof = judgeProof({
      set: setOf(probes),
      run: run(
        side([observed("p1", response(200, marked("/"))), observed("p2", response(403)), observed("p3", response(404, "2.2 page")), observed("p4", response(200, "uptime 5"))], worldOf(probes)),
        side([observed("p1", response(200, marked("/"))), observed("p2", response(200, marked("/admin/"))), observed("p3", response(404, "2.4 page")), observed("p4", response(200, "uptime 9"))], worldOf(probes)),
      ),
      baselineConfigs: [await config(CONF22, "2.2.34")],
      candidateConfigs: [await config(CONF24, "2.4.68")],
      ignore: null,
    });
    expect(proof.verdict).toBe("counterexamples");
    expect(proof.counterexamples).toHaveLength(1);
    const [first] = proof.counterexamples;
    expect(first).toMatchObject({ kind: "widened", security: true, request: { path: "/admin/", client: { address: "198.51.100.77" } }, baseline: { status: 403 }, candidate: { status: 200 } });
    expect(first!.witnesses.baseline.outcome).toBe("denied");
    expect(first!.witnesses.candidate).toMatchObject({ outcome: "served", marker: "seen", object: "planted" });
    expect(first!.config.baseline.map((l) => l.text)).toEqual(["<Directory /usr/local/apache2/htdocs/admin>", "Order deny,allow", "Deny from all", "Allow from 10.0.0.0/8"]);
    expect(first!.config.candidate.map((l) => l.text)).toEqual(["<Directory /usr/local/apache2/htdocs/admin>", "Require all granted"]);
    expect(proof.accepted.map((a) => a.rule)).toEqual(["status-page-content"]);
    expect(proofVerdictLine(proof)).toBe("1 counterexample over 2 of 4 cells");
    expect(proof.matrix.map((c) => c.class)).toEqual(["equal", "widened", "equal", "accepted"]);
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true);
  });

  it("orders widened, source-exposed, narrowed, changed; accepts what the ignore file names; leaves unreachable backends unprobed", async () => {
    const cgi = { kind: "cgi" as const, marker: markerOf("/f.cgi"), origin: null };
    const probes = [probe("p1", "/a"), probe("p2", "/b"), probe("p3", "/c"), probe("p4", "/d"), probe("p5", "/e"), probe("p6", "/f.cgi", { object: cgi })];
    const source = objectText("cgi", cgi.marker).text;
    const ignore = parseIgnoreFile("ignore:\n  - request: /e\n    reason: the operator accepts it\n", "ignore.yaml");
    const proof = judgeProof({
      set: setOf(probes),
      run: run(
        side([observed("p1", response(301, "", [["Location", "http://10.0.0.2/a/"]])), observed("p2", response(200, marked("/b"))), observed("p3", response(403)), observed("p4", response(502), ["(EAI 2)Name or service not known: DNS lookup failure for: origin.internal returned by /d"]), observed("p5", response(200, marked("/e"))), observed("p6", response(200, `executed-${cgi.marker}\n`))], worldOf(probes)),
        side([observed("p1", response(301, "", [["Location", "http://10.0.0.3/b/"]])), observed("p2", response(403)), observed("p3", response(200, marked("/c"))), observed("p4", response(500)), observed("p5", response(403)), observed("p6", response(200, source, []))], worldOf(probes)),
      ),
      baselineConfigs: [await config("", "2.2.34")],
      candidateConfigs: [await config("", "2.4.68")],
      ignore,
    });
    expect(proof.counterexamples.map((c) => [c.kind, c.request.path, c.security])).toEqual([["widened", "/c", true], ["source-exposed", "/f.cgi", true], ["narrowed", "/b", false], ["changed", "/a", false]]);
    expect(proof.counterexamples[1]!.witnesses).toMatchObject({ baseline: { outcome: "executed", marker: "executed" }, candidate: { outcome: "source-served", marker: "source" } });
    expect(proof.accepted).toEqual([expect.objectContaining({ rule: "ignore-file", reason: "the operator accepts it" })]);
    expect(proof.cells).toMatchObject({ total: 6, proven: 0, probed: 6, unprobed: [{ cell: probes[3]!.cell, reason: expect.stringMatching(/origin\.internal/) }] });
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true);
  });

  it("never counts equal answers the harness made: a probe user refused as unknown, a missing object, the same transport error", async () => {
    const probes = [
      probe("p1", "/team/", { credentials: "valid", user: "probe-user" }),
      probe("p2", "/team/", { credentials: "valid", user: "admin" }),
      probe("p3", "/gone"),
      probe("p4", "/slow"),
      probe("p5", "/fine"),
    ];
    probes[1]!.cell = probes[1]!.cell.replace("probe-user", "admin");
    const timeout = { kind: "transport-error" as const, code: "TIMEOUT", message: "timed out", durationMs: 10_000 };
    const proof = judgeProof({
      set: setOf(probes),
      run: run(
        side([
          observed("p1", response(401), ["user probe-user not found: /team/"]),
          observed("p2", response(401), ["access to /team/ failed, reason: user 'admin' does not meet 'require'ments for user/valid-user to be allowed access"]),
          observed("p3", response(404)), observed("p4", timeout), observed("p5", response(200, marked("/fine"))),
        ], worldOf(probes, ["/gone"])),
        side([
          observed("p1", response(401), ["AH01618: user probe-user not found: /team/"], "2.4"),
          observed("p2", response(401), ["AH01631: user admin: authorization failure for \"/team/\": "], "2.4"),
          observed("p3", response(404)), observed("p4", timeout), observed("p5", response(200, marked("/fine"))),
        ], worldOf(probes)),
      ),
      baselineConfigs: [await config("", "2.2.34")],
      candidateConfigs: [await config("", "2.4.68")],
      ignore: null,
    });
    expect(proof.verdict).toBe("equivalent");
    expect(proof.matrix.map((c) => [c.probe, c.class, c.proven])).toEqual([["p1", "vacuous", false], ["p2", "equal", true], ["p3", "vacuous", false], ["p4", "vacuous", false], ["p5", "equal", true]]);
    expect(proof.cells.vacuous.map((v) => v.reason)).toEqual([
      "the probe user probe-user was refused on 2.2 (AH01618 user probe-user not found: /team/)",
      expect.stringMatching(/^no object behind the path on 2\.2: \/usr\/local\/apache2\/htdocs\/gone was planted but not found/),
      "the same failure on both sides (TIMEOUT): no answer came",
    ]);
    // The authorization failure shows the user was taken in on both sides: the 401s say what the config decided.
    expect(proof.matrix[1]!.baseline!.credentials).toBe("accepted");
    expect(proof.matrix[1]!.candidate!.credentials).toBe("accepted");
    expect(proofVerdictLine(proof)).toBe("equivalent over 2 of 5 cells");
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true);
  });

  it("leaves a cell whose identity cannot be made unprobed, with the reason, and out of the count", async () => {
    const ldap = await config(["<Location /dir>", "AuthType Basic", "AuthName corp", "AuthBasicProvider ldap", "Require valid-user", "</Location>"].join("\n"), "2.2.34");
    const set = generateProbes([ldap], []);
    const unprobed = set.cells.filter((c) => c.probe === null);
    expect(unprobed.length).toBeGreaterThan(0);
    const sent = set.probes;
    const proof = judgeProof({
      set,
      run: run(side(sent.map((p) => observed(p.id, response(401))), worldOf(sent)), side(sent.map((p) => observed(p.id, response(401))), worldOf(sent))),
      baselineConfigs: [ldap],
      candidateConfigs: [ldap],
      ignore: null,
    });
    expect(proof.cells.unprobed.map((u) => u.reason)).toEqual(unprobed.map(() => "AuthBasicProvider ldap: the harness can add a user to file and DBM stores only"));
    expect(proof.cells.proven).toBe(sent.length);
    expect(proof.cells.total).toBe(sent.length + unprobed.length);
    expect(proof.matrix.filter((c) => c.class === "unprobed").every((c) => !c.proven && c.baseline === null)).toBe(true);
  });

  it("counts a file 2.4 sends without the Content-Type 2.2 gave it from DefaultType as equal, saying so (E1)", async () => {
    const probes = [probe("p1", "/index.html~")];
    const proof = judgeProof({
      set: setOf(probes),
      run: run(side([observed("p1", response(200, marked("/index.html~"), [["Content-Type", "text/plain"]]))], worldOf(probes)), side([observed("p1", response(200, marked("/index.html~"), []))], worldOf(probes))),
      baselineConfigs: [await config("", "2.2.34")],
      candidateConfigs: [await config("", "2.4.68")],
      ignore: null,
    });
    expect(proof.matrix[0]).toMatchObject({ class: "equal", proven: true, reason: "E1: 2.4 sends no Content-Type where 2.2 sent its DefaultType (text/plain)" });
    expect(proof.counterexamples).toEqual([]);
  });
});
