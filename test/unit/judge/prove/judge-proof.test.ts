// judgeProof on observations made up the way the observer records them: equal answers prove their cells; a
// difference is a counterexample with the lines that decide it on each side, widened before narrowed before
// changed; status pages, autoindex markup and the ignore file's entries are accepted, not counted; an
// unreachable proxied backend leaves its cells unprobed. The output validates against schema/prove.schema.json.
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
import type { RequestObservation } from "../../../../harness/observe/observation.ts";
import type { ScenarioRun } from "../../../../harness/observe/scenario-run.ts";
import type { Probe, ProbeSet } from "../../../../harness/plan/probes/probe.ts";
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

function probe(id: string, path: string, client = "outsider", credentials: Probe["credentials"] = "none"): Probe {
  return { id, cell: `http://(default):80|${path}|${client}|${credentials}|GET`, target: { host: null, port: 80, tls: false }, method: "GET", path, client, credentials, realm: null, purpose: "inside", region: path };
}

function response(status: number, body = "", headers: Array<[string, string]> = []): HttpResponseOutcome {
  return { kind: "response", status, httpVersion: "1.1", headers: [["Content-Type", "text/html"], ...headers], body, bodyBytes: body.length, bodySha256: `sha-${body}`, durationMs: 1 };
}

function observed(name: string, outcome: RequestObservation["outcome"], errorLog: string[] = []): RequestObservation {
  return { name, client: "outsider", outcome, repeat: null, errorLog: errorLog.map((message) => ({ message }) as never), repeatErrorLog: null };
}

function run(baseline: RequestObservation[], candidate: RequestObservation[]): ScenarioRun {
  return { observations: [{ requests: baseline }, { requests: candidate }] } as unknown as ScenarioRun;
}

const CONF22 = ["<Directory /usr/local/apache2/htdocs/admin>", "Order deny,allow", "Deny from all", "Allow from 10.0.0.0/8", "</Directory>", "<Location /server-status>", "SetHandler server-status", "</Location>"].join("\n");
const CONF24 = ["<Directory /usr/local/apache2/htdocs/admin>", "Require all granted", "</Directory>", "<Location /server-status>", "SetHandler server-status", "</Location>"].join("\n");

describe("judgeProof", () => {
  it("finds the widened request first, with the lines that decide it on each side", async () => {
    const probes = [probe("p1", "/"), probe("p2", "/admin/"), probe("p3", "/nothing"), probe("p4", "/server-status", "localhost")];
    const set: ProbeSet = { probes, cells: probes.map((p) => ({ id: p.cell, vhost: "v", region: p.region, client: p.client, credentials: p.credentials, method: "GET", probe: p.id, unprobed: null })), clients: [{ id: "outsider", kind: "outsider", address: "198.51.100.77", domain: null, range: "outsider" }], users: [] };
    const proof = judgeProof({
      set,
      run: run(
        [observed("p1", response(200, "home")), observed("p2", response(403)), observed("p3", response(404, "2.2 page")), observed("p4", response(200, "uptime 5"))],
        [observed("p1", response(200, "home")), observed("p2", response(200, "admin")), observed("p3", response(404, "2.4 page")), observed("p4", response(200, "uptime 9"))],
      ),
      baselineConfigs: [await config(CONF22, "2.2.34")],
      candidateConfigs: [await config(CONF24, "2.4.68")],
      ignore: null,
    });
    expect(proof.verdict).toBe("counterexamples");
    expect(proof.counterexamples).toHaveLength(1);
    const [first] = proof.counterexamples;
    expect(first).toMatchObject({ kind: "widened", request: { path: "/admin/", client: { address: "198.51.100.77" } }, baseline: { status: 403 }, candidate: { status: 200 } });
    expect(first!.config.baseline.map((l) => l.text)).toEqual(["<Directory /usr/local/apache2/htdocs/admin>", "Order deny,allow", "Deny from all", "Allow from 10.0.0.0/8"]);
    expect(first!.config.candidate.map((l) => l.text)).toEqual(["<Directory /usr/local/apache2/htdocs/admin>", "Require all granted"]);
    expect(proof.accepted.map((a) => a.rule)).toEqual(["status-page-content"]);
    expect(proofVerdictLine(proof)).toBe("1 counterexample over 4 of 4 cells");
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true);
  });

  it("orders widened before narrowed before changed, accepts what the ignore file names, and leaves unreachable backends unprobed", async () => {
    const probes = [probe("p1", "/a"), probe("p2", "/b"), probe("p3", "/c"), probe("p4", "/d"), probe("p5", "/e")];
    const set: ProbeSet = { probes, cells: probes.map((p) => ({ id: p.cell, vhost: "v", region: p.region, client: p.client, credentials: p.credentials, method: "GET", probe: p.id, unprobed: null })), clients: [], users: [] };
    const ignore = parseIgnoreFile("ignore:\n  - request: /e\n    reason: the operator accepts it\n", "ignore.yaml");
    const proof = judgeProof({
      set,
      run: run(
        [observed("p1", response(301, "", [["Location", "http://10.0.0.2/a/"]])), observed("p2", response(200)), observed("p3", response(403)), observed("p4", response(502), ["(EAI 2)Name or service not known: DNS lookup failure for: origin.internal returned by /d"]), observed("p5", response(200))],
        [observed("p1", response(301, "", [["Location", "http://10.0.0.3/b/"]])), observed("p2", response(403)), observed("p3", response(200)), observed("p4", response(500)), observed("p5", response(403))],
      ),
      baselineConfigs: [await config("", "2.2.34")],
      candidateConfigs: [await config("", "2.4.68")],
      ignore,
    });
    expect(proof.counterexamples.map((c) => [c.kind, c.request.path])).toEqual([["widened", "/c"], ["narrowed", "/b"], ["changed", "/a"]]);
    expect(proof.accepted).toEqual([expect.objectContaining({ rule: "ignore-file", reason: "the operator accepts it" })]);
    expect(proof.cells).toMatchObject({ total: 5, probed: 4, unprobed: [{ cell: probes[3]!.cell, reason: expect.stringMatching(/origin\.internal/) }] });
    expect(validate(proof), JSON.stringify(validate.errors)).toBe(true);
  });
});
