import { describe, expect, it } from "vitest";
import { directivesNamed, inServerContext, sectionLabel, serverDirectives, serverSections, virtualHostSections, walkConfig } from "../../../../harness/conf/queries/walk-config.ts";
import type { EffectiveConfig } from "../../../../harness/conf/effective-config.ts";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../memory-tree.ts";
import { effectiveConfig } from "./build-effective-config.ts";

const CONFIG = effectiveConfig(`
Listen 80
<VirtualHost *:80>
  ServerName a.test
  <Directory "/srv/a">
    Require all granted
  </Directory>
</VirtualHost>
ServerName main.test
`);

describe("walkConfig", () => {
  it("lists directives in reading order with their enclosing sections, outermost first", () => {
    const walked = walkConfig(CONFIG);
    expect(walked.directives.map((entry) => [entry.directive.name, entry.sections.map(sectionLabel)])).toEqual([
      ["Listen", []],
      ["ServerName", ["<VirtualHost *:80>"]],
      ["Require", ["<VirtualHost *:80>", '<Directory "/srv/a">']],
      ["ServerName", []],
    ]);
    expect(walked.directives.map((entry) => entry.index)).toEqual([0, 2, 4, 5]);
    expect(walked.sections.map((entry) => entry.index)).toEqual([1, 3]);
  });

  it("tells server context from directory context", () => {
    const [, vhostName, require] = walkConfig(CONFIG).directives;
    expect(inServerContext(vhostName!.sections)).toBe(true);
    expect(inServerContext(require!.sections)).toBe(false);
  });

  it("gives a vhost the main server's sections and its own, in reading order, and no other vhost's", () => {
    const config = effectiveConfig(`
<Directory /a>
</Directory>
<VirtualHost *:80>
  <Location /one>
  </Location>
</VirtualHost>
<Location /b>
</Location>
<VirtualHost *:81>
  <Location /two>
  </Location>
</VirtualHost>
`);
    const [one, two] = virtualHostSections(config);
    const labels = (vhost: typeof one | null) => serverSections(config, vhost ?? null).map((entry) => sectionLabel(entry.section));
    expect(labels(null)).toEqual(["<Directory /a>", "<Location /b>"]);
    expect(labels(one)).toEqual(["<Directory /a>", "<Location /one>", "<Location /b>"]);
    expect(labels(two)).toEqual(["<Directory /a>", "<Location /b>", "<Location /two>"]);
  });

  it("finds a server's own directives: the main server's are not the vhost's", () => {
    const [vhost] = virtualHostSections(CONFIG);
    expect(serverDirectives(CONFIG, null, "servername").map((e) => e.directive.args)).toEqual([["main.test"]]);
    expect(serverDirectives(CONFIG, vhost!, "servername").map((e) => e.directive.args)).toEqual([["a.test"]]);
    expect(directivesNamed(CONFIG, "servername")).toHaveLength(2);
  });
});

describe("walkConfig of evaluated views", () => {
  const options = { defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "mod_version.c"] };
  // conf/one.conf is read twice: its directives are the same effective objects at two places of one walk.
  const tree = memoryTree({
    "conf/httpd.conf": [
      "Listen 80",
      "Include conf/one.conf",
      "<IfVersion >= 2.4>",
      "  ServerName only24.test",
      "</IfVersion>",
      "<VirtualHost *:80>",
      "  ServerName a.test",
      "  <Directory /srv/a>",
      "    Require all granted",
      "  </Directory>",
      "</VirtualHost>",
      "Include conf/one.conf",
      "",
    ].join("\n"),
    "conf/one.conf": "ServerAdmin ops@example.test\n",
  });
  const on22 = evaluateTree(tree, { ...options, version: httpdVersion("2.2.34") });
  const on24 = evaluateTree(tree, { ...options, version: httpdVersion("2.4.68") });
  const read = (config: EffectiveConfig) =>
    walkConfig(config).directives.map((entry) => [entry.directive.name, entry.directive.args, entry.sections.map(sectionLabel), entry.index]);

  it("gives every view's directives in reading order with their sections and increasing indexes, wherever the entries were made", () => {
    const first = read(on22);
    const second = read(on24);
    expect(first.map(([name, args, sections]) => [name, args, sections])).toEqual([
      ["Listen", ["80"], []],
      ["ServerAdmin", ["ops@example.test"], []],
      ["ServerName", ["a.test"], ["<VirtualHost *:80>"]],
      ["Require", ["all", "granted"], ["<VirtualHost *:80>", "<Directory /srv/a>"]],
      ["ServerAdmin", ["ops@example.test"], []],
    ]);
    expect(second.map(([name, args, sections]) => [name, args, sections])).toEqual([
      ["Listen", ["80"], []],
      ["ServerAdmin", ["ops@example.test"], []],
      ["ServerName", ["only24.test"], []],
      ["ServerName", ["a.test"], ["<VirtualHost *:80>"]],
      ["Require", ["all", "granted"], ["<VirtualHost *:80>", "<Directory /srv/a>"]],
      ["ServerAdmin", ["ops@example.test"], []],
    ]);
    for (const walked of [first, second]) {
      const indexes = walked.map(([, , , index]) => index as number);
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
      expect(new Set(indexes).size).toBe(indexes.length);
    }
  });

  it("makes a directive its first walk's entry itself, invisible to a spread and to JSON", () => {
    const [listen] = walkConfig(on22).directives;
    expect(listen!.directive).toBe(listen);
    expect(Object.keys({ ...listen!.directive })).not.toContain("sections");
    expect(JSON.stringify(listen!.directive)).not.toContain('"index"');
    // The file read twice: one effective object, two entries, the second one an entry of its own.
    const admins = directivesNamed(on22, "serveradmin");
    expect(admins[0]!.directive).toBe(admins[1]!.directive);
    expect(admins[0]).not.toBe(admins[1]);
    expect(admins[1]!.index).toBeGreaterThan(admins[0]!.index);
  });
});
