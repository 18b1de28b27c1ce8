import { describe, expect, it } from "vitest";
import { requestPath, requestSections, requestVhost, sectionsAt, serverIndex } from "../../../../harness/conf/queries/request-sections.ts";
import { effectiveConfig } from "./build-effective-config.ts";

const site = `
ServerRoot /srv/httpd
DocumentRoot /srv/www
Alias /static /srv/assets
Alias /static/img /srv/images
Alias /static/img /srv/later
<Directory />
  Require all denied
</Directory>
<Directory /srv/www/app>
  Require all granted
</Directory>
<Directory /srv/*>
  Require all granted
</Directory>
<DirectoryMatch "^/srv/www/app/(priv|keep)">
  Require all denied
</DirectoryMatch>
<Directory ~ "(">
  Require all denied
</Directory>
<Directory /srv/www/app>
  <Files "*.ini">
    Require all denied
  </Files>
</Directory>
<Directory /srv/other>
  <Files "secret.txt">
    Require all denied
  </Files>
</Directory>
<FilesMatch "\\.php$">
  Require all denied
</FilesMatch>
<Location /app>
  Require all granted
</Location>
<LocationMatch "^/app/a+">
  Require all granted
</LocationMatch>
<VirtualHost *:80>
  ServerName v.example.test
  DocumentRoot /srv/vhost
  Alias /only /srv/only
  <Location /app/x>
    Require all denied
  </Location>
</VirtualHost>
`;

/** Where a section was written: its line in the test's text. */
const lines = (sections: { span: { line: number } }[]) => sections.map((s) => s.span.line);

describe("requestPath", () => {
  it("maps through the longest Alias that takes the path on a segment boundary, the first of equal ones, else the DocumentRoot", () => {
    const config = effectiveConfig(site);
    expect(requestPath(config, null, "/static/img/a.png?x=1")).toBe("/srv/images/a.png");
    expect(requestPath(config, null, "/static/css/a.css")).toBe("/srv/assets/css/a.css");
    expect(requestPath(config, null, "/staticx/a")).toBe("/srv/www/staticx/a");
    expect(requestPath(config, null, "/only/a")).toBe("/srv/www/only/a");
  });

  it("takes a vhost's own Alias and DocumentRoot besides the main server's Aliases", () => {
    const config = effectiveConfig(site);
    const vhost = requestVhost(config, { host: "v.example.test", port: 80, tls: false });
    expect(requestPath(config, vhost, "/only/a")).toBe("/srv/only/a");
    expect(requestPath(config, vhost, "/static/a")).toBe("/srv/assets/a");
    expect(requestPath(config, vhost, "/a")).toBe("/srv/vhost/a");
  });

  it("falls back to the default root only when the config sets no DocumentRoot", () => {
    const config = effectiveConfig("Listen 80");
    expect(requestPath(config, null, "/a")).toBeNull();
    expect(requestPath(config, null, "/a", "/usr/local/apache2/htdocs")).toBe("/usr/local/apache2/htdocs/a");
  });
});

describe("sectionsAt", () => {
  it("orders plain Directory sections shortest first, then the regex ones, Files inside applying Directories, then Locations", () => {
    const config = effectiveConfig(site);
    const sections = sectionsAt(config, null, "/app/aa/keep/x.ini?q", "/srv/www/app/keep/x.ini");
    // / (6), /srv/* (12), /srv/www/app twice in reading order (9, 21), the DirectoryMatch (15); an invalid regex
    // takes nothing; Files *.ini inside the applying /srv/www/app (22), not secret.txt's; both Locations.
    expect(lines(sections)).toEqual([6, 12, 9, 21, 15, 22, 34, 37]);
  });

  it("leaves out Files sections whose Directory does not apply, and every Directory when no file is known", () => {
    const config = effectiveConfig(site);
    expect(lines(sectionsAt(config, null, "/x.ini", null))).toEqual([]);
    expect(lines(sectionsAt(config, null, "/x.php", null))).toEqual([31]);
    expect(lines(sectionsAt(config, null, "/a/secret.txt", "/srv/www/a/secret.txt"))).toEqual([6, 12]);
  });

  it("adds a vhost's own sections in reading order with the main server's", () => {
    const config = effectiveConfig(site);
    const vhost = requestVhost(config, { host: "v.example.test", port: 80, tls: false });
    expect(lines(requestSections(config, { host: "v.example.test", port: 80, tls: false }, "/app/x/y"))).toEqual([6, 12, 34, 44]);
    expect(lines(sectionsAt(config, vhost, "/app/b", null))).toEqual([34]);
  });

  it("gives the same sections when asked again, from one index per config and server", () => {
    const config = effectiveConfig(site);
    const first = sectionsAt(config, null, "/app/aa/keep/x.ini", "/srv/www/app/keep/x.ini");
    expect(serverIndex(config, null)).toBe(serverIndex(config, null));
    expect(sectionsAt(config, null, "/app/aa/keep/x.ini", "/srv/www/app/keep/x.ini")).toEqual(first);
    expect(serverIndex(config, null).plainDirs.map((d) => d.components)).toEqual([[], ["srv", "*"], ["srv", "other"], ["srv", "www", "app"], ["srv", "www", "app"]]);
  });
});

describe("requestPath, asked again", () => {
  it("keeps a URL's answer apart per default root, an empty root apart from none", () => {
    const config = effectiveConfig("Listen 80");
    expect(requestPath(config, null, "/a")).toBeNull();
    expect(requestPath(config, null, "/a", "")).toBe("/a");
    expect(requestPath(config, null, "/a", "/srv")).toBe("/srv/a");
    expect(requestPath(config, null, "/a")).toBeNull();
  });
});
