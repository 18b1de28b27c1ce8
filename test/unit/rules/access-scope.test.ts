import { describe, expect, it } from "vitest";
import { walkConfig } from "../../../harness/conf/queries/walk-config.ts";
import { authTypeInScope, hasOwn, mayGovern, ownDirectives, protects, sectionsAbove, sectionsAboveWith, widening } from "../../../harness/rules/access-scope.ts";
import { contextOf, evidence, finding, fragment } from "./access-fixture.ts";

describe("access-scope", () => {
  it("finds authentication in the line's section, a Directory above it by path, or none", async () => {
    const { source } = await contextOf(fragment('<Directory /srv/a>\n    AuthType Basic\n</Directory>\n<Directory /srv/a/b>\n    Require ip 10.0.0.1\n</Directory>\n<Directory /srv/ab>\n    Require ip 10.0.0.2\n</Directory>\n'));
    const requires = walkConfig(source).byKey.get("require")!;
    expect(requires.map((entry) => authTypeInScope(source, entry))).toEqual([true, false]);
  });

  it("finds the sections above one by path, nearest last, for absolute, doubled-slash and relative paths", async () => {
    const { source } = await contextOf(
      fragment("<Directory />\n    Require all denied\n</Directory>\n<Directory /srv/a/b>\n</Directory>\n<Directory /srv>\n</Directory>\n<Directory htdocs>\n</Directory>\n<Directory /srv//a/b/c/>\n    Require all granted\n</Directory>\n<Location /srv/a>\n</Location>\n"),
    );
    const sections = walkConfig(source).sections.map((entry) => entry.section);
    const paths = (found: ReturnType<typeof sectionsAbove>) => found.map((entry) => entry.section.args[0]);
    const deepest = sections.find((section) => section.args[0] === "/srv//a/b/c/")!;
    expect(paths(sectionsAbove(source, deepest))).toEqual(["/", "/srv", "/srv/a/b"]);
    expect(paths(sectionsAbove(source, sections.find((section) => section.args[0] === "htdocs")!))).toEqual(["/"]);
    expect(paths(sectionsAbove(source, sections.find((section) => section.args[0] === "/srv/a/b")!))).toEqual(["/", "/srv"]);
    expect(paths(sectionsAboveWith(source, deepest, "require"))).toEqual(["/"]);
    expect(sectionsAbove(source, sections.find((section) => section.key === "location")!)).toEqual([]);
  });

  it("gives a section's own lines of several names in reading order, not those of a section inside it nor of another server", async () => {
    const { source } = await contextOf(
      fragment(
        "Order deny,allow\n<VirtualHost *:80>\n    Deny from all\n    <Directory /srv/a>\n        Allow from 10.0.0.1\n        Order allow,deny\n        <IfModule mod_authz_host.c>\n            Deny from 10.0.0.2\n        </IfModule>\n        <Files x>\n            Allow from 10.0.0.3\n        </Files>\n        Allow from 10.0.0.4\n    </Directory>\n</VirtualHost>\n",
      ),
    );
    const sections = walkConfig(source).sections.map((entry) => entry.section);
    const directory = sections.find((section) => section.key === "directory")!;
    const vhost = sections.find((section) => section.key === "virtualhost")!;
    const lines = (found: ReturnType<typeof ownDirectives>) => found.map((entry) => entry.directive.node.raw.trim());
    expect(lines(ownDirectives(source, directory, "order", "allow", "deny", "allow"))).toEqual(["Allow from 10.0.0.1", "Order allow,deny", "Deny from 10.0.0.2", "Allow from 10.0.0.4"]);
    expect(lines(ownDirectives(source, directory, "allow"))).toEqual(["Allow from 10.0.0.1", "Allow from 10.0.0.4"]);
    expect(lines(ownDirectives(source, vhost, "order", "deny"))).toEqual(["Deny from all"]);
    expect(lines(ownDirectives(source, null, "order", "deny"))).toEqual(["Order deny,allow"]);
    expect([hasOwn(source, directory, "order"), hasOwn(source, vhost, "order"), hasOwn(source, directory, "allow", (d) => d.args.includes("10.0.0.3"))]).toEqual([true, false, false]);
  });

  it("finds the sections above one by path with a directive of a name, in the main server and the line's own virtual host only", async () => {
    const { source } = await contextOf(
      fragment(
        "<Directory /srv>\n    Require all denied\n</Directory>\n<VirtualHost *:80>\n    <Directory /srv/a>\n        Require all granted\n    </Directory>\n    <Directory /srv/a/b>\n        Order allow,deny\n    </Directory>\n    <Directory /srv/a/b/c>\n    </Directory>\n</VirtualHost>\n<VirtualHost *:81>\n    <Directory /srv/a/b>\n        Require all granted\n    </Directory>\n    <Directory /srv/a/b/c>\n    </Directory>\n</VirtualHost>\n",
      ),
    );
    const sections = walkConfig(source).sections.map((entry) => entry.section);
    const lines = (found: ReturnType<typeof sectionsAbove>) => found.map((entry) => `${entry.section.args[0]}:${entry.section.span.line}`);
    const [first, second] = sections.filter((section) => section.args[0] === "/srv/a/b/c");
    expect(lines(sectionsAboveWith(source, first!, "require"))).toEqual(["/srv:1", "/srv/a:5"]);
    expect(lines(sectionsAboveWith(source, first!, "order"))).toEqual(["/srv/a/b:8"]);
    expect(lines(sectionsAboveWith(source, second!, "require"))).toEqual(["/srv:1", "/srv/a/b:15"]);
    expect(lines(sectionsAboveWith(source, second!, "order"))).toEqual([]);
    // Told the scope's <VirtualHost>, the same answer without the path index.
    const [port80, port81] = sections.filter((section) => section.key === "virtualhost");
    expect(lines(sectionsAboveWith(source, first!, "require", port80!))).toEqual(["/srv:1", "/srv/a:5"]);
    expect(lines(sectionsAboveWith(source, second!, "require", port81!))).toEqual(["/srv:1", "/srv/a/b:15"]);
  });

  it("tells protecting lines: host rules, authentication, refusing rewrites; not the lines that open (AuthType None, Require all granted, Allow from all, Satisfy Any) nor a redirect", async () => {
    const { source } = await contextOf(fragment("Deny from all\nAuthType None\nAuthType Basic\nRewriteRule ^/x - [F]\nRewriteRule ^/y /z [R=301,L]\nRewriteRule ^/g - [L,gone]\nOptions None\nRequire all granted\nAllow from all\nSatisfy Any\nRequire valid-user\nAllow from 10.0.0.1\n"));
    expect(walkConfig(source).directives.map((entry) => protects(entry.directive))).toEqual([true, false, true, true, false, true, false, false, false, false, true, true]);
  });

  it("ties a finding to a request by its Location (prefix or regex); a Directory finding may govern any path", () => {
    expect(mayGovern(finding("x", 1, ["<Location /admin>"]), "/admin/users?q=1")).toBe(true);
    expect(mayGovern(finding("x", 1, ["<Location /admin>"]), "/administrator")).toBe(false);
    expect(mayGovern(finding("x", 1, ['<LocationMatch "^/api/v[0-9]+">']), "/api/v2/x")).toBe(true);
    expect(mayGovern(finding("x", 1, ['<LocationMatch "^/api/v[0-9]+">']), "/web")).toBe(false);
    expect(mayGovern(finding("x", 1, ["<Directory /srv/x>"]), "/anything")).toBe(true);
  });

  it("calls 401 -> 2xx (or a 404: access was granted, the file is not there) a password widening and 403 -> 2xx a refusal widening; nothing else", () => {
    expect(widening(evidence())).toBe("password");
    expect(widening(evidence({ status: { baseline: 403, candidate: 302 } }))).toBe("refusal");
    expect(widening(evidence({ status: { baseline: 200, candidate: 200 } }))).toBeNull();
    expect(widening(evidence({ status: { baseline: 401, candidate: 404 } }))).toBe("password");
    expect(widening(evidence({ status: { baseline: 401, candidate: 403 } }))).toBeNull();
    expect(widening(evidence({ status: { baseline: 403, candidate: 500 } }))).toBeNull();
    expect(widening(evidence({ field: "body" }))).toBeNull();
  });
});
