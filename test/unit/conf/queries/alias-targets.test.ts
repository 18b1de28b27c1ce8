import { describe, expect, it } from "vitest";
import { aliasTargets } from "../../../../harness/conf/queries/alias-targets.ts";
import { effectiveConfig } from "./build-effective-config.ts";

describe("aliasTargets", () => {
  it("lists Alias, AliasMatch, ScriptAlias and ScriptAliasMatch with URL, target and resolved path", () => {
    const config = effectiveConfig(`
ServerRoot /srv/httpd
Alias /icons/ "icons/"
ScriptAlias /cgi-bin/ /srv/cgi/
AliasMatch ^/docs/(.*)$ $1
<VirtualHost *:80>
  ScriptAliasMatch ^/app/(\\w+)$ /srv/app/$1.cgi
</VirtualHost>
<Location /files>
  Alias /srv/files
</Location>
`);
    expect(aliasTargets(config).map(({ span, vhost, ...rest }) => ({ ...rest, line: span.line, vhost: vhost?.args[0] ?? null }))).toEqual([
      { directive: "Alias", url: "/icons/", regex: false, cgi: false, target: "icons/", path: "/srv/httpd/icons/", line: 2, vhost: null },
      { directive: "ScriptAlias", url: "/cgi-bin/", regex: false, cgi: true, target: "/srv/cgi/", path: "/srv/cgi/", line: 3, vhost: null },
      { directive: "AliasMatch", url: "^/docs/(.*)$", regex: true, cgi: false, target: "$1", path: null, line: 4, vhost: null },
      { directive: "ScriptAliasMatch", url: "^/app/(\\w+)$", regex: true, cgi: true, target: "/srv/app/$1.cgi", path: "/srv/app/$1.cgi", line: 6, vhost: "*:80" },
      { directive: "Alias", url: "/files", regex: false, cgi: false, target: "/srv/files", path: "/srv/files", line: 9, vhost: null },
    ]);
  });

  it("takes the one-argument form inside <Location> on 2.4 only, and never outside one", () => {
    const text = `
<Location /files>
  Alias /srv/files
</Location>
Alias /nowhere
`;
    expect(aliasTargets(effectiveConfig(text)).map((alias) => [alias.url, alias.target])).toEqual([["/files", "/srv/files"]]);
    expect(aliasTargets(effectiveConfig(text, { version: "2.2.34" }))).toEqual([]);
  });
});
