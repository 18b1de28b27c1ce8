import { describe, expect, it } from "vitest";
import { documentRoots } from "../../../../harness/conf/queries/document-roots.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("documentRoots", () => {
  it("gives the main server's and each vhost's, the last line winning, relative ones resolved while reading", () => {
    const config = effectiveConfig(`
ServerRoot /srv/httpd
DocumentRoot htdocs/old
DocumentRoot htdocs
<VirtualHost *:80>
  DocumentRoot /srv/site
</VirtualHost>
<VirtualHost *:81>
</VirtualHost>
`);
    expect(documentRoots(config).map(({ vhost, documentRoot }) => [vhost?.args[0] ?? "main", documentRoot?.path, documentRoot?.inherited, documentRoot?.span.line])).toEqual([
      ["main", "/srv/httpd/htdocs", false, 3],
      ["*:80", "/srv/site", false, 5],
      ["*:81", "/srv/httpd/htdocs", true, 3],
    ]);
  });

  it("is null when nothing sets one (httpd's compiled-in default applies)", () => {
    expect(documentRoots(effectiveConfig("Listen 80"))).toEqual([{ vhost: null, documentRoot: null }]);
  });

  it("ignores a DocumentRoot line inside a Directory section", () => {
    const [main] = documentRoots(effectiveConfig(`
<Directory /srv>
DocumentRoot /nope
</Directory>
DocumentRoot /srv/yes
`));
    expect(main!.documentRoot).toMatchObject({ path: "/srv/yes", span: at("conf/httpd.conf", 4) });
  });
});
