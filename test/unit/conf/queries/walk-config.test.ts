import { describe, expect, it } from "vitest";
import { directivesNamed, inServerContext, sectionLabel, serverDirectives, serverSections, virtualHostSections, walkConfig } from "../../../../harness/conf/queries/walk-config.ts";
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
