import { describe, expect, it } from "vitest";
import { configDocument, mergeProblems } from "../../../../harness/conf/queries/config-document.ts";
import type { ConfProblem } from "../../../../harness/conf/syntax-tree.ts";
import { effectiveConfig } from "./build-effective-config.ts";

const BUILTIN_24 = ["core.c", "mod_so.c", "http_core.c"];

describe("configDocument", () => {
  const config = effectiveConfig(`
LoadModule mpm_prefork_module modules/mod_mpm_prefork.so
Listen 443
<VirtualHost 192.0.2.7:80 [::1]:*>
  ServerName www.example.test
  ServerAlias alt.example.test
  <Directory /srv/www>
    <RequireAny>
      Require ip 192.0.2.0/24
    </RequireAny>
  </Directory>
</VirtualHost>
`);

  it("gives one vhost entry per address, with names, port and TLS", () => {
    expect(configDocument(config, BUILTIN_24, []).vhosts).toEqual([
      { names: ["www.example.test", "alt.example.test"], address: "192.0.2.7", port: 80, tls: false, file: "conf/httpd.conf", line: 3 },
      { names: ["www.example.test", "alt.example.test"], address: "[::1]", port: null, tls: false, file: "conf/httpd.conf", line: 3 },
    ]);
  });

  it("lists directives only, each with the sections around it as written", () => {
    const document = configDocument(config, BUILTIN_24, []);
    expect(document.directives.map((d) => [d.name, d.line, d.column, d.context])).toEqual([
      ["LoadModule", 1, 1, []],
      ["Listen", 2, 1, []],
      ["ServerName", 4, 3, ["<VirtualHost 192.0.2.7:80 [::1]:*>"]],
      ["ServerAlias", 5, 3, ["<VirtualHost 192.0.2.7:80 [::1]:*>"]],
      ["Require", 8, 7, ["<VirtualHost 192.0.2.7:80 [::1]:*>", "<Directory /srv/www>", "<RequireAny>"]],
    ]);
  });

  it("names the version, layout, files, modules and MPM", () => {
    const document = configDocument(config, BUILTIN_24, []);
    expect(document).toMatchObject({
      schemaVersion: "1.0", version: "2.4.62", layout: "official", files: ["conf/httpd.conf"],
      modules: ["core_module", "so_module", "http_module", "mpm_prefork_module"], mpm: "prefork",
    });
  });

  it("writes a problem's hint only when it has one", () => {
    const problems: ConfProblem[] = [
      { severity: "warning", file: "a.conf", line: 1, column: 2, message: "w" },
      { severity: "error", file: "a.conf", line: 3, column: 1, message: "e", hint: "fix it" },
    ];
    expect(configDocument(config, BUILTIN_24, problems).problems).toEqual([
      { file: "a.conf", line: 1, column: 2, message: "w", severity: "warning" },
      { file: "a.conf", line: 3, column: 1, message: "e", severity: "error", hint: "fix it" },
    ]);
  });
});

describe("mergeProblems", () => {
  it("keeps each problem once, in the order found", () => {
    const a: ConfProblem = { severity: "error", file: "x", line: 1, column: 1, message: "m" };
    const b: ConfProblem = { severity: "warning", file: "x", line: 2, column: 1, message: "n" };
    expect(mergeProblems([a, b], [{ ...a }, b])).toEqual([a, b]);
  });
});
