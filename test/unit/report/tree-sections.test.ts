// A tree scenario's report shows, per side, every line the harness changed with its reason and every stub it
// made, in the JSON contract (validated by the schema), the HTML and the Markdown report.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../../harness/report/html-report.ts";
import { renderJsonReport } from "../../../harness/report/json-report.ts";
import { renderMarkdownReport } from "../../../harness/report/markdown-report.ts";
import type { Report, ReportTree } from "../../../harness/report/report-model.ts";
import { renderTreeNotes } from "../../../harness/report/tree-notes.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";

const TREE: ReportTree = {
  origin: "/srv/fleet/web01",
  layout: "debian",
  mount: "/etc/apache2",
  mainFile: "/etc/apache2/apache2.conf",
  defines: ["SSL"],
  files: ["apache2.conf", "mods-enabled/authz_default.load"],
  adaptations: [
    { kind: "module-renamed", file: "mods-enabled/authz_default.load", line: 1, was: "LoadModule authz_default_module /usr/lib/apache2/modules/mod_authz_default.so", now: "LoadModule authz_core_module /usr/local/apache2/modules/mod_authz_core.so", reason: "2.4 has no mod_authz_default" },
    { kind: "module-added", file: null, line: null, was: null, now: "LoadModule mpm_prefork_module /usr/local/apache2/modules/mod_mpm_prefork.so", reason: "2.4 loads its MPM as a module" },
  ],
  stubs: [{ kind: "certificate", target: "/etc/ssl/certs/ssl-cert-snakeoil.pem", file: "sites-enabled/default-ssl", line: 33, note: "the harness's server certificate" }],
  problems: [{ severity: "warning", file: "apache2.conf", line: 4, column: 1, message: "Config variable ${X} is not defined", hint: null }],
};

function withTree(): Report {
  const report = structuredClone(sampleReport);
  const scenario = report.scenarios[0]!;
  scenario.servers.candidate = { ...scenario.servers.candidate!, tree: TREE };
  return report;
}

describe("a configuration tree in the reports", () => {
  it("is part of the JSON contract, which the schema accepts", () => {
    const schema = JSON.parse(readFileSync(new URL("../../../schema/report.schema.json", import.meta.url), "utf8"));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    const json = JSON.parse(renderJsonReport(withTree()));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.scenarios[0].servers.candidate.tree.adaptations[1]).toEqual({ kind: "module-added", file: null, line: null, was: null, now: TREE.adaptations[1]!.now, reason: TREE.adaptations[1]!.reason });
  });

  it("lists the changed lines with their reasons and the stubs in the HTML report", () => {
    const html = renderHtmlReport(withTree());
    expect(html).toContain("2 lines changed by the harness");
    expect(html).toContain("<code>mods-enabled/authz_default.load:1</code> <s>LoadModule authz_default_module");
    expect(html).toContain("command line (-C)");
    expect(html).toContain("certificate <code>/etc/ssl/certs/ssl-cert-snakeoil.pem</code>");
    expect(html).toContain("Config variable ${X} is not defined");
  });

  it("has a section per tree scenario in the Markdown report, and none without trees", () => {
    const markdown = renderMarkdownReport(withTree());
    expect(markdown).toContain("### Configuration trees: what the harness changed and made");
    expect(markdown).toContain("| mods-enabled/authz\\_default.load:1 | `LoadModule authz_core_module /usr/local/apache2/modules/mod_authz_core.so` | 2.4 has no mod\\_authz\\_default |");
    expect(markdown).toContain("Stubs: certificate `/etc/ssl/certs/ssl-cert-snakeoil.pem`.");
    expect(renderMarkdownReport(sampleReport)).not.toContain("Configuration trees");
  });
});

describe("the terminal's tree notes", () => {
  it("count the changed lines, stubs and problems per side, and say nothing without trees", () => {
    expect(renderTreeNotes(withTree()).split("\n")[1]).toBe(`  ${sampleReport.scenarios[0]!.id}: candidate 2 lines changed, 1 stub`);
    expect(renderTreeNotes(sampleReport)).toBe("");
  });
});
