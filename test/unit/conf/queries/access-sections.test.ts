import { describe, expect, it } from "vitest";
import { accessSections } from "../../../../harness/conf/queries/access-sections.ts";
import { effectiveConfig } from "./build-effective-config.ts";

const CONFIG = effectiveConfig(`
<Directory /srv/www>
  Options Indexes
  Order deny,allow
  Deny from all
  Allow from 192.0.2.0/24
  Satisfy any
  AuthType Basic
  AuthName "Staff only"
  AuthUserFile conf/staff.passwd
  AuthBasicProvider file
  Require valid-user
  <Files "*.cgi">
    Options +ExecCGI
    SetHandler cgi-script
  </Files>
</Directory>
<VirtualHost *:80>
  <Location ~ "^/admin">
    <RequireAny>
      Require ip 192.0.2.1
      AuthDBMUserFile conf/users.db
    </RequireAny>
    <Limit POST>
      Require all denied
    </Limit>
  </Location>
  <LocationMatch "^/app/">
    AddHandler fcgi-script .fcgi
    Action fcgi-script /fcgi-bin/run
    Options -ExecCGI
  </LocationMatch>
</VirtualHost>
<FilesMatch "\\.bak$">
  Require all denied
</FilesMatch>
`);

const lines = (entries: { name: string; args: string[]; within: string[] }[]) =>
  entries.map((line) => [line.name, line.args.join(" "), ...line.within]);

describe("accessSections", () => {
  const [www, cgi, admin, app, bak] = accessSections(CONFIG);

  it("lists every Directory/Location/Files section and its Match forms, with vhost and parents", () => {
    expect(accessSections(CONFIG).map((s) => [s.kind, s.pattern, s.regex, s.vhost?.args[0] ?? null, s.parents.length, s.span.line])).toEqual([
      ["Directory", "/srv/www", false, null, 0, 1],
      ["Files", "*.cgi", false, null, 1, 12],
      ["Location", "^/admin", true, "*:80", 0, 18],
      ["LocationMatch", "^/app/", true, "*:80", 0, 27],
      ["FilesMatch", "\\.bak$", true, null, 0, 33],
    ]);
  });

  it("sorts lines into access, auth and handlers; Options counts only when it names ExecCGI", () => {
    expect(lines(www!.access)).toEqual([
      ["Order", "deny,allow"], ["Deny", "from all"], ["Allow", "from 192.0.2.0/24"], ["Satisfy", "any"], ["Require", "valid-user"],
    ]);
    expect(lines(www!.auth)).toEqual([
      ["AuthType", "Basic"], ["AuthName", "Staff only"], ["AuthUserFile", "conf/staff.passwd"], ["AuthBasicProvider", "file"],
    ]);
    expect(www!.handlers).toEqual([]);
    expect(lines(cgi!.handlers)).toEqual([["Options", "+ExecCGI"], ["SetHandler", "cgi-script"]]);
    expect(lines(app!.handlers)).toEqual([["AddHandler", "fcgi-script .fcgi"], ["Action", "fcgi-script /fcgi-bin/run"], ["Options", "-ExecCGI"]]);
  });

  it("keeps Require* and Limit sections as context of the lines they hold", () => {
    expect(lines(admin!.access)).toEqual([
      ["RequireAny", ""],
      ["Require", "ip 192.0.2.1", "<RequireAny>"],
      ["Require", "all denied", "<Limit POST>"],
    ]);
    expect(lines(admin!.auth)).toEqual([["AuthDBMUserFile", "conf/users.db", "<RequireAny>"]]);
    expect(admin!.access[1]!.span.line).toBe(20);
    expect(lines(bak!.access)).toEqual([["Require", "all denied"]]);
  });
});
