// Probes from both configurations: every access form gets a client inside it and the outsider none, realms get
// the four credential states, Limit methods are probed with one method outside, hidden files are asked for on
// purpose, and the same configs give the same probe set.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { addressMatches, hostMatches, isAddressForm } from "../../../../harness/access/address-match.ts";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { loadTree } from "../../../../harness/conf/load-tree.ts";
import { migrateTree } from "../../../../harness/migrate/migrate-tree.ts";
import { generateProbes } from "../../../../harness/plan/probes/generate-probes.ts";
import { accessForms, addressInside } from "../../../../harness/plan/probes/probe-clients.ts";
import { probeRequests } from "../../../../harness/plan/probes/probe-scenario.ts";
import { proofProbes } from "../../../../harness/judge/prove/proof-probes.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const CONFIGS = fileURLToPath(new URL("../../../../configs/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

async function configOf(conf: string) {
  const root = mkdtempSync(join(tmpdir(), "probes-"));
  const file = join(root, "conf/httpd.conf");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, ['ServerRoot "/usr/local/apache2"', "Listen 80", 'DocumentRoot "/usr/local/apache2/htdocs"', conf].join("\n"));
  const tree = await loadTree(root);
  return evaluateTree(tree, { version: httpdVersion("2.2.34"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "mod_alias.c", "mod_authz_host.c"] });
}

describe("generateProbes", () => {
  it("puts a client inside every address and name form, and an outsider in none", async () => {
    const config = await configOf([
      "<Directory /usr/local/apache2/htdocs/admin>", "  Order deny,allow", "  Deny from all",
      "  Allow from 10.20.0.0/16 192.168.7 172.16.0.0/255.240.0.0 2001:db8:5::/48 .corp.example 127.0.0.1", "</Directory>",
    ].join("\n"));
    const set = generateProbes([config], []);
    const forms = accessForms(config);
    for (const form of forms) {
      const inside = set.clients.find((c) => c.range === form);
      expect(inside, form).toBeDefined();
      if (isAddressForm(form)) expect(addressMatches(form, inside!.address!), form).toBe(true);
      else expect(hostMatches(form, `probe${inside!.domain!.startsWith(".") ? inside!.domain : `.${inside!.domain}`}`)).toBe(true);
    }
    expect(set.clients.find((c) => c.id === "localhost")?.range).toBe("127.0.0.1");
    const outsider = set.clients.find((c) => c.kind === "outsider")!;
    for (const form of forms.filter(isAddressForm)) expect(addressMatches(form, outsider.address!)).toBe(false);
    expect(addressInside("10.20.0.0/16")).toBe("10.20.0.5");
    // Every probe region of the Directory: inside it and just outside.
    expect(set.probes.map((p) => p.path)).toEqual(expect.arrayContaining(["/admin/", "/admin-outside/", "/.htaccess", "/index.html~"]));
  });

  it("asks a realm's region with no credentials, each valid identity it calls for, a wrong password and an unknown user", async () => {
    const config = await configOf([
      "<Location /private>", "  AuthType Basic", "  AuthName p", "  AuthUserFile /etc/pw", "  <Limit POST>", "    Require valid-user", "  </Limit>", "</Location>",
    ].join("\n"));
    const set = generateProbes([config], []);
    const inside = set.probes.filter((p) => p.path === "/private");
    expect(new Set(inside.map((p) => `${p.credentials}:${p.user}`))).toEqual(new Set(["none:null", "valid:probe-user", "wrong-password:probe-user", "other-realm:probe-stranger"]));
    expect(new Set(set.probes.map((p) => p.method))).toEqual(new Set(["GET", "POST", "DELETE"]));
    // No realm outside it: those regions are probed without credentials only.
    expect(new Set(set.probes.filter((p) => p.path === "/").map((p) => p.credentials))).toEqual(new Set(["none"]));
    expect(set.world.users).toEqual([{ name: "probe-user", password: expect.any(String), groups: [], reason: "a valid user no Require line names" }]);
    const { requests } = probeRequests(set, { file: "x", line: 1, column: 1 });
    const valid = requests.find((r) => r.name === inside.find((p) => p.credentials === "valid")!.id)!;
    expect(valid.auth).toEqual({ user: "probe-user", password: set.world.users[0]!.password, scheme: "basic" });
  });

  it("makes a user for each name a Require user line gives and a member for each group, both sides' lines together", async () => {
    const original = await configOf(["<Directory /usr/local/apache2/htdocs/team>", "  AuthType Basic", "  AuthName Team", "  AuthUserFile /srv/team.passwd", "  Require valid-user", "</Directory>"].join("\n"));
    const port = await configOf(["<Directory /usr/local/apache2/htdocs/team>", "  AuthType Basic", "  AuthName Team", "  AuthUserFile /srv/team.passwd", "  AuthGroupFile /srv/groups", "  Require user admin", "  Require group ops", "</Directory>"].join("\n"));
    const set = generateProbes([original], [port]);
    expect(set.world.users.map((u) => [u.name, u.groups])).toEqual([["admin", []], ["probe-in-ops", ["ops"]], ["probe-user", []]]);
    const team = set.cells.filter((c) => c.region === "<Directory /usr/local/apache2/htdocs/team>" && c.id.includes("|/team/|"));
    expect(new Set(team.map((c) => (c.credentials === "valid" ? `valid:${c.user}` : c.credentials)))).toEqual(new Set(["none", "valid:admin", "valid:probe-in-ops", "valid:probe-user", "wrong-password", "other-realm"]));
  });

  it("sends Digest credentials to a Digest realm, and puts its realm in the world", async () => {
    const config = await configOf(["<Location /lock>", "  AuthType Digest", "  AuthName staging", "  AuthUserFile /etc/htdigest", "  Require valid-user", "</Location>"].join("\n"));
    const set = generateProbes([config], []);
    const valid = set.probes.find((p) => p.path === "/lock" && p.credentials === "valid")!;
    expect(valid).toMatchObject({ scheme: "digest", realm: "staging", user: "probe-user" });
    expect(set.world.digestRealms).toEqual(["staging"]);
  });

  it("plants an object behind every path it asks for: a script where CGI runs, a parsed page where SSI does", async () => {
    const config = await configOf([
      'ScriptAlias /cgi-bin/ "/usr/local/apache2/cgi-bin/"',
      "AddHandler cgi-script .pl",
      "<Directory /usr/local/apache2/htdocs/app>", "  Options +ExecCGI +Includes", "  AddOutputFilter INCLUDES .shtm", "</Directory>",
    ].join("\n"));
    const set = generateProbes([config], []);
    const kinds = new Map(set.world.objects.map((o) => [o.url, o.kind]));
    expect(kinds.get("/cgi-bin/probe.cgi")).toBe("cgi");
    expect(kinds.get("/app/probe.pl")).toBe("cgi");
    expect(kinds.get("/app/probe.shtm")).toBe("ssi");
    expect(kinds.get("/app/")).toBe("index");
    expect(kinds.get("/.htaccess")).toBe("hidden");
    // Every probe's path has its object, with the marker of its URL.
    for (const probe of set.probes) expect(set.world.objects.some((o) => o.url === probe.path.split("?")[0] && o.marker === probe.object.marker), probe.path).toBe(true);
    expect(set.world.objects.find((o) => o.url === "/cgi-bin/probe.cgi")!.origin).toMatchObject({ text: 'ScriptAlias /cgi-bin/ /usr/local/apache2/cgi-bin/' });
  });

  it("asks a file and a URL that regular-expression sections match, inside the directory that holds a <FilesMatch>", async () => {
    const config = await configOf([
      '<FilesMatch "\\.(inc|sql|bak)$">', "  Order allow,deny", "  Deny from all", "</FilesMatch>",
      "<Directory /usr/local/apache2/htdocs/app>", '  <Files ~ "^\\.ht">', "    Deny from all", "  </Files>", "</Directory>",
      '<LocationMatch "^/(admin|login)">', "  Deny from all", "</LocationMatch>",
      '<LocationMatch "^/x/(?=y)">', "  Deny from all", "</LocationMatch>",
    ].join("\n"));
    const set = generateProbes([config], []);
    const regions = new Map(set.probes.map((p) => [p.path, p.region]));
    expect(regions.get("/probe.inc")).toBe("<FilesMatch ~ \\.(inc|sql|bak)$>");
    expect(regions.get("/app/.ht")).toBe("<Files ~ ^\\.ht>");
    expect(regions.get("/admin")).toBe("<LocationMatch ~ ^/(admin|login)>");
    // A pattern no example is made for asks nothing under it.
    expect([...regions.keys()].filter((path) => path.startsWith("/x/"))).toEqual([]);
    expect(set.world.objects.find((o) => o.url === "/probe.inc")?.kind).toBe("static");
  });

  it("names the cells it cannot probe and why", async () => {
    const config = await configOf([
      "<Location />", "  AuthType Basic", "  AuthName s", "  AuthBasicProvider ldap", "  Require valid-user", "  Deny from 2001:db8::/32", "</Location>",
      "<Location /form>", "  AuthType Form", "  Require valid-user", "</Location>",
    ].join("\n"));
    const set = generateProbes([config], [], { ipv6: false });
    const reasons = new Set(set.cells.filter((c) => c.probe === null).map((c) => c.unprobed));
    expect(reasons).toEqual(new Set([
      "the engine gives no IPv6 addresses",
      "AuthBasicProvider ldap: the harness can add a user to file and DBM stores only",
      "AuthType Form: the harness sends Basic and Digest credentials only",
    ]));
    // Without credentials the same regions are probed.
    expect(set.cells.some((c) => c.credentials === "none" && c.probe !== null && c.id.includes("|/form|"))).toBe(true);
    expect(set.cells.filter((c) => c.probe !== null).length).toBe(set.probes.length);
  });

  it("names the per-directory sections each probe's path meets: the <Directory> an Alias leads into, and no other", async () => {
    // A fragment is served from the image's document root; its Alias leads /docshelf/ into the tool's directory.
    const tree = await loadTree(`${CONFIGS}docshelf-rewrite`);
    const { set } = proofProbes(tree, tree, []);
    const shelf = { file: "etc/docshelf/apache.conf", line: 14, endLine: 37, label: "<Directory /usr/share/docshelf/www>" };
    const inside = set.probes.filter((p) => p.path.startsWith("/docshelf/"));
    expect(inside.length).toBeGreaterThan(0);
    for (const probe of inside) expect(probe.sections, probe.path).toContainEqual(shelf);
    const outside = set.probes.filter((p) => p.path === "/" || p.path.startsWith("/docshelf-outside"));
    expect(outside.length).toBeGreaterThan(0);
    for (const probe of outside) expect(probe.sections, probe.path).not.toContainEqual(shelf);
    // And the request carries them to the judge.
    const requests = probeRequests(set, { file: "x", line: 1, column: 1 }).requests;
    expect(requests.find((r) => r.path === "/docshelf/")?.probe?.sections).toContainEqual(shelf);
  });

  it("names the .htaccess files a probe's directory walk reads, unless AllowOverride None keeps httpd from reading them", async () => {
    const archive = { file: "usr/share/docshelf/www/archive/.htaccess", line: 1, endLine: 6, label: ".htaccess", accessFile: true };
    const { set } = proofProbes(await loadTree(`${CONFIGS}docshelf-rewrite`), await loadTree(`${CONFIGS}docshelf-rewrite`), []);
    const under = set.probes.filter((p) => p.path.startsWith("/docshelf/archive/"));
    expect(under.length).toBeGreaterThan(0);
    for (const probe of under) expect(probe.sections, probe.path).toContainEqual(archive);
    for (const probe of set.probes.filter((p) => !p.path.startsWith("/docshelf/archive/"))) expect(probe.sections, probe.path).not.toContainEqual(archive);
    // The same tree with AllowOverride None in its <Directory>: 2.2 never reads the file.
    const root = mkdtempSync(join(tmpdir(), "probes-override-"));
    const files: Record<string, string> = {
      "etc/docshelf/apache.conf": "Alias /docshelf /usr/share/docshelf/www\n<Directory /usr/share/docshelf/www>\n    AllowOverride None\n</Directory>\n",
      "usr/share/docshelf/www/archive/.htaccess": "RewriteEngine On\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const closed = proofProbes(await loadTree(root), await loadTree(root), []).set;
    expect(closed.probes.some((p) => p.path.startsWith("/docshelf/archive/"))).toBe(true);
    expect(closed.probes.flatMap((p) => p.sections).filter((s) => s.accessFile)).toEqual([]);
  });

  for (const sample of SAMPLES) {
    it(`${sample}: probes are generated, the same twice, one per probed cell`, async () => {
      const tree = await loadTree(`${CONFIGS}${sample}`);
      const port = migrateTree(tree, { defines: [], annotate: false, rollback: new Set() }).migrated;
      const first = proofProbes(tree, port, []).set;
      const second = proofProbes(tree, port, []).set;
      expect(first.probes.length).toBeGreaterThan(0);
      expect(second).toEqual(first);
      expect(new Set(first.probes.map((p) => p.cell)).size).toBe(first.probes.length);
      expect(first.clients.some((c) => c.kind === "outsider")).toBe(true);
    });
  }
});
