import { describe, expect, it } from "vitest";
import { authUserFiles } from "../../../../harness/conf/queries/auth-user-files.ts";
import { effectiveConfig } from "./build-effective-config.ts";

describe("authUserFiles", () => {
  it("lists user and group files, plain and DBM, resolved against the ServerRoot of their line", () => {
    const config = effectiveConfig(`
ServerRoot /srv/httpd
<Directory /srv/private>
  AuthUserFile conf/private.passwd
  AuthGroupFile /etc/httpd-groups
</Directory>
<VirtualHost *:80>
  <Location /dbm>
    AuthDBMUserFile conf/users.dbm
    AuthDBMGroupFile conf/groups.dbm
  </Location>
</VirtualHost>
`);
    expect(authUserFiles(config).map((f) => [f.directive, f.kind, f.dbm, f.path, f.section?.args[0] ?? null, f.vhost?.args[0] ?? null, f.span.line])).toEqual([
      ["AuthUserFile", "users", false, "/srv/httpd/conf/private.passwd", "/srv/private", null, 3],
      ["AuthGroupFile", "groups", false, "/etc/httpd-groups", "/srv/private", null, 4],
      ["AuthDBMUserFile", "users", true, "/srv/httpd/conf/users.dbm", "/dbm", "*:80", 8],
      ["AuthDBMGroupFile", "groups", true, "/srv/httpd/conf/groups.dbm", "/dbm", "*:80", 9],
    ]);
  });
});
