// Mutants of a port: one decision of one region the probes reach changed the way a careless port would, each with
// the line it changed and the probes that pass through the lines it changed; none where the change cannot show
// (a <Directory /> every URL of which another section decides, a `Require all granted` dropped where nothing else
// decides either).
import { describe, expect, it } from "vitest";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { generateProbes } from "../../../../harness/plan/probes/generate-probes.ts";
import { portMutants, replaceLine } from "../../../../harness/plan/mutants/port-mutants.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const PORT = [
  'ServerRoot "/usr/local/apache2"',
  "Listen 80",
  "LoadModule cgid_module modules/mod_cgid.so",
  'DocumentRoot "/usr/local/apache2/htdocs"',
  "<Directory />",
  "    Require all denied",
  "</Directory>",
  '<Directory "/usr/local/apache2/htdocs">',
  "    Require all granted",
  "</Directory>",
  '<Directory "/usr/local/apache2/htdocs/team">',
  "    Options +ExecCGI",
  "    AddHandler cgi-script .cgi",
  "    AuthType Basic",
  "    AuthName team",
  "    AuthUserFile /srv/team.passwd",
  "    Require valid-user",
  "</Directory>",
  "<Location /status>",
  "    Require ip 127.0.0.1",
  "</Location>",
].join("\n");

const tree = memoryTree({ "conf/httpd.conf": PORT });
const config = evaluateTree(tree, { version: httpdVersion("2.4.62"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "http_core.c"] });
const set = generateProbes([], [config]);
const mutants = portMutants(tree, config, set.probes);
const byChange = new Map(mutants.map((m) => [`${m.line} ${m.mutation}`, m]));

describe("portMutants", () => {
  it("changes each deciding line the ways a careless port would", () => {
    expect([...byChange.keys()]).toEqual([
      // The document root's grant dropped leaves <Directory />'s denial deciding.
      "9 drop `Require all granted`",
      "9 `Require all granted` → `Require all denied`",
      "17 drop `Require valid-user`",
      "17 `Require valid-user` → `Require user probe-nobody`",
      "17 add `Require all granted`",
      "12 drop ExecCGI",
      "20 drop `Require ip 127.0.0.1`",
      "20 add `Require all granted`",
      "3 leave cgi_module and cgid_module unloaded",
    ]);
  });

  it("makes none of <Directory />, which decides no URL another section does not, nor drops a grant that changes nothing", () => {
    expect(mutants.filter((m) => m.region === "<Directory />")).toEqual([]);
    // Without <Directory />'s denial, dropping the document root's only grant leaves no authz at all: 2.4 grants.
    const open = memoryTree({ "conf/httpd.conf": PORT.replace("<Directory />\n    Require all denied\n</Directory>\n", "") });
    const openConfig = evaluateTree(open, { version: httpdVersion("2.4.62"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "http_core.c"] });
    const openMutants = portMutants(open, openConfig, generateProbes([], [openConfig]).probes);
    expect(openMutants.some((m) => m.mutation === "drop `Require all granted`")).toBe(false);
    expect(openMutants.some((m) => m.mutation === "`Require all granted` → `Require all denied`")).toBe(true);
  });

  it("changes only its line, and sends only the probes its lines decide", () => {
    const narrow = byChange.get("17 `Require valid-user` → `Require user probe-nobody`")!;
    const text = narrow.tree.source.files.get("conf/httpd.conf")!.toString("utf8").split("\n");
    const original = PORT.split("\n");
    expect(text.filter((line, i) => line !== original[i])).toEqual(["    Require user probe-nobody"]);
    const paths = new Set(narrow.probes.map((id) => set.probes.find((p) => p.id === id)!.path));
    expect([...paths].every((p) => p.startsWith("/team/"))).toBe(true);
    const status = byChange.get("20 drop `Require ip 127.0.0.1`")!;
    // <Location /status> takes /status and below it, on a segment boundary: not /status-outside (real 2.2.34 and
    // 2.4.68: <Location /fz0> with Deny from all refuses /fz0/probe and serves /fz0-outside; the fuzzer's finding).
    expect(new Set(status.probes.map((id) => set.probes.find((p) => p.id === id)!.path))).toEqual(new Set(["/status", "/status/probe"]));
    // The port itself is left as it was.
    expect(tree.source.files.get("conf/httpd.conf")!.toString("utf8")).toBe(PORT);
  });

  it("drops ExecCGI only where a script runs without a ScriptAlias: mod_cgi runs an aliased script whatever Options says", () => {
    const aliased = memoryTree({
      "conf/httpd.conf": [
        ...PORT.split("\n").slice(0, 4),
        'ScriptAlias /cgi-bin/ "/usr/lib/cgi-bin/"',
        '<Directory "/usr/lib/cgi-bin">',
        "    Options +ExecCGI",
        "    Require all granted",
        "</Directory>",
      ].join("\n"),
    });
    const aliasedConfig = evaluateTree(aliased, { version: httpdVersion("2.4.62"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "http_core.c"] });
    const aliasedMutants = portMutants(aliased, aliasedConfig, generateProbes([], [aliasedConfig]).probes);
    expect(aliasedMutants.some((m) => m.mutation === "drop ExecCGI")).toBe(false);
    // The module left unloaded still reaches the aliased scripts.
    const unloaded = aliasedMutants.find((m) => m.mutation === "leave cgi_module and cgid_module unloaded");
    expect(unloaded?.probes.length).toBeGreaterThan(0);
  });

  it("replaces a line read through a link in the file it leads to, keeping its indent", () => {
    const linked = memoryTree({ "sites-available/a": "<Location />\n  Require all granted\n</Location>\n" }, { links: { "sites-enabled/a": "sites-available/a" } });
    const changed = replaceLine(linked, "sites-enabled/a", 2, "Require all denied");
    expect(changed.source.files.get("sites-available/a")!.toString("utf8")).toBe("<Location />\n  Require all denied\n</Location>\n");
  });
});
