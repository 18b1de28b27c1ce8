// The per-cell prediction on small fragments whose real answers the differential fuzzer recorded (real 2.2.34 and
// 2.4.68 on each image's stock config): the stock sections around a fragment, a <Location> on a segment boundary,
// an AuthType whose module the target does not load, a handler whose module is missing, and "unpredicted" (never a
// guess) for the harness's own client where the answer depends on its address.
import { describe, expect, it } from "vitest";
import { proofProbes } from "../../../harness/judge/prove/proof-probes.ts";
import { lintContext } from "../../../harness/rules/lint-context.ts";
import { type CellPrediction, predictCells } from "../../../harness/rules/predict-cells.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { memoryTree } from "../conf/memory-tree.ts";

function predict(text: string): CellPrediction[] {
  const tree = memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
  const { set } = proofProbes(tree, tree, []);
  return predictCells(lintContext(tree, { defines: [], target: TARGET_PROFILES.official }), set, { defaultRoot: "/usr/local/apache2/htdocs" });
}

/** A fragment whose files sit at their absolute paths (mounted at /), the first one included into the stock config
 * of `target`'s 2.4 image; its 2.2 side always on the official 2.2 image. */
function predictFiles(files: Record<string, string>, target: "official" | "debian" | "rhel" = "official"): CellPrediction[] {
  const tree = memoryTree(files, { layout: "fragment", mainFile: Object.keys(files)[0]!, mount: "/" });
  const { set } = proofProbes(tree, tree, []);
  return predictCells(lintContext(tree, { defines: [], target: TARGET_PROFILES[target] }), set, { defaultRoot: "/usr/local/apache2/htdocs" });
}

function at(predictions: CellPrediction[], path: string, client: string, credentials = "none"): CellPrediction {
  const found = predictions.find((p) => p.cell.split("|")[1] === path && p.cell.split("|")[2] === client && p.cell.split("|")[3] === credentials);
  if (found === undefined) throw new Error(`no cell ${path} ${client} ${credentials} in ${predictions.map((p) => p.cell).join(", ")}`);
  return found;
}

describe("predicted outcomes per cell", () => {
  it("a 2.2 host rule: denied on both versions (mod_access_compat ANDed with the stock Require all granted)", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    Order Deny,Allow\n    Deny from all\n    Allow from 10.9.0.0/16\n</Directory>\n");
    expect(at(p, "/fz0/", "10.9.0.0/16")["2.2"].outcome).toBe("served");
    expect(at(p, "/fz0/", "10.9.0.0/16")["2.4"].outcome).toBe("served");
    expect(at(p, "/fz0/", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/fz0/", "outsider")["2.4"].outcome).toBe("denied");
  });

  it("a <Location /fz0> takes /fz0/probe, not /fz0-outside", () => {
    const p = predict("<Location /fz0>\n    Order Allow,Deny\n    Allow from 127.0.0.1\n</Location>\n");
    expect(at(p, "/fz0/probe", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/fz0-outside", "outsider")["2.2"].outcome).toBe("served");
  });

  it("a 2.2-only branch with no 2.4 branch: 2.2 denies, 2.4 serves", () => {
    const p = predict("<Location /fz0>\n    <IfModule !mod_authz_core.c>\n        Order Deny,Allow\n        Deny from all\n    </IfModule>\n</Location>\n");
    expect(at(p, "/fz0/probe", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/fz0/probe", "outsider")["2.4"].outcome).toBe("served");
  });

  it("AuthType Digest where 2.4 does not load mod_auth_digest: 401 on 2.2, 500 on 2.4", () => {
    const p = predict('<Directory /usr/local/apache2/htdocs/fz0>\n    AuthType Digest\n    AuthName "fz0 realm"\n    AuthUserFile /usr/local/apache2/conf/fuzz.digest\n    Require valid-user\n</Directory>\n');
    expect(at(p, "/fz0/", "outsider")["2.2"].outcome).toBe("auth-required");
    expect(at(p, "/fz0/", "outsider")["2.4"].outcome).toBe("error");
  });

  it("a CGI script: run on 2.2, its source sent on 2.4, whose stock config loads no CGI module", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    Options +ExecCGI\n    AddHandler cgi-script .cgi\n</Directory>\n");
    const script = p.find((c) => /\|\/fz0\/[^|]*\.cgi\|/.test(c.cell));
    expect(script?.["2.2"].outcome).toBe("executed");
    expect(script?.["2.4"].outcome).toBe("source-served");
  });

  it("a CGI script with ExecCGI off: 403 where the handler runs", () => {
    const p = predict("<IfModule !mod_cgi.c>\n    LoadModule cgid_module modules/mod_cgid.so\n</IfModule>\n<Directory /usr/local/apache2/htdocs/fz0>\n    Options -ExecCGI\n    SetHandler cgi-script\n</Directory>\n");
    const script = p.find((c) => /\|\/fz0\/[^|]*\.cgi\|/.test(c.cell));
    expect(script?.["2.2"].outcome).toBe("denied");
    expect(script?.["2.4"].outcome).toBe("denied");
  });

  it("says unpredicted, with the reason, where access depends on the method (<Limit>)", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    <Limit POST>\n        Order Deny,Allow\n        Deny from all\n    </Limit>\n</Directory>\n");
    const inside = p.filter((c) => c.cell.split("|")[1] === "/fz0/");
    expect(inside.length).toBeGreaterThan(0);
    for (const cell of inside) {
      expect(cell["2.2"].outcome).toBe("unpredicted");
      expect(cell["2.2"].why).toMatch(/Limit/);
    }
  });

  // configs/tool-status-alias on real 2.4: its localhost-only `Alias /statgraph-status` (2.2 Order/Allow) is 403 from
  // 127.0.0.1 on the official 2.4.68 image (<Directory /> Require all denied, ANDed with the compat lines) and 200
  // on Debian's apache2 2.4.71, whose apache2.conf grants <Directory /usr/share>.
  it("a fragment's directory under /usr/share: denied on the official 2.4 image and RHEL's, granted on Debian's", () => {
    const files = { "etc/fz/apache.conf": "Alias /fz0 /usr/share/fz0\n<Directory /usr/share/fz0>\n    Order deny,allow\n    Deny from all\n    Allow from 127.0.0.1\n</Directory>\n" };
    expect(at(predictFiles(files, "official"), "/fz0/", "127.0.0.1")["2.4"].outcome).toBe("denied");
    expect(at(predictFiles(files, "debian"), "/fz0/", "127.0.0.1")["2.4"].outcome).toBe("served");
    expect(at(predictFiles(files, "debian"), "/fz0/", "outsider")["2.4"].outcome).toBe("denied");
    expect(at(predictFiles(files, "rhel"), "/fz0/", "127.0.0.1")["2.4"].outcome).toBe("denied");
    // The 2.2 side is the official 2.2 image whatever the 2.4 target: its document root, not Debian's; the 2.4 side
    // maps the URL to the target's own (/var/www/html, granted by Debian's <Directory /var/www/>).
    expect(at(predictFiles(files, "debian"), "/", "127.0.0.1")["2.2"].outcome).toBe("served");
    expect(at(predictFiles(files, "debian"), "/", "127.0.0.1")["2.4"]).toMatchObject({ outcome: "served", why: expect.stringMatching(/<Directory \/var\/www\/> \(stock/) });
    // Debian's <FilesMatch "^\.ht"> and RHEL's <Files ".ht*"> deny the dotfiles.
    expect(at(predictFiles(files, "debian"), "/fz0/.htaccess", "127.0.0.1")["2.4"].outcome).toBe("denied");
    expect(at(predictFiles(files, "rhel"), "/fz0/.htpasswd", "127.0.0.1")["2.4"].outcome).toBe("denied");
  });

  it("an httpd -M file as the target names no stock config: a fragment's 2.4 cells are unpredicted, with the reason", () => {
    const tree = memoryTree({ "fuzz.conf": "<Directory /usr/local/apache2/htdocs/fz0>\n    Order allow,deny\n    Allow from all\n</Directory>\n" }, { layout: "fragment", mainFile: "fuzz.conf" });
    const { set } = proofProbes(tree, tree, []);
    const p = predictCells(lintContext(tree, { defines: [], target: { name: "/tmp/modules.txt", compiledIn: ["core.c"], stock: [] } }), set, { defaultRoot: "/usr/local/apache2/htdocs" });
    expect(at(p, "/fz0/", "outsider")["2.4"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/stock config is not known/) });
    expect(at(p, "/fz0/", "outsider")["2.2"].outcome).toBe("served");
  });

  // configs/https-origin-proxy and rhel-balancer on real servers: a URL ProxyPass takes is answered by the backend
  // (502 on 2.2.34, 500 on 2.4.68 for an origin that is not there), whatever the file system's sections say.
  it("a URL a ProxyPass takes is unpredicted; a ProxyPass ! exclusion leaves it to the file system", () => {
    const p = predict("ProxyPass /fz0/static !\nProxyPass /fz0 http://backend.invalid/\n<Directory /usr/local/apache2/htdocs/fz0>\n    Order allow,deny\n    Allow from all\n</Directory>\n");
    expect(at(p, "/fz0/", "outsider")["2.2"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/ProxyPass \/fz0 http:\/\/backend.invalid\/.*backend answers/) });
    expect(at(p, "/fz0-outside/", "outsider")["2.2"].outcome).toBe("served");
  });

  // configs/name-vhosts on real servers: www.example.org's vhost redirects every other Host to it (RewriteCond
  // %{HTTP_HOST} !^www\.example\.org$ [NC]); asked as www.example.org, `/` is 200 on 2.2.34 and on 2.4.68.
  it("a RewriteRule whose Host conditions fail for the probe's Host leaves the request to the file system", () => {
    const vhost = (conds: string) => `<VirtualHost *:80>\n    ServerName www.example.org\n    DocumentRoot /usr/local/apache2/htdocs\n    RewriteEngine On\n${conds}    RewriteRule ^/(.*)$ http://www.example.org/$1 [R=301,L]\n</VirtualHost>\n`;
    const fails = predict(vhost("    RewriteCond %{HTTP_HOST} !^www\\.example\\.org$ [NC]\n"));
    expect(fails.find((c) => c.cell.startsWith("http://www.example.org:80|/|"))?.["2.2"].outcome).toBe("served");
    const holds = predict(vhost(""));
    expect(holds.find((c) => c.cell.startsWith("http://www.example.org:80|/|"))?.["2.2"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/mod_rewrite/) });
  });

  // configs/app-htaccess: its .htaccess files (AllowOverride All) deny, rewrite and redirect; the model does not
  // read per-directory files, so a cell below one says so. Under AllowOverride None httpd does not read the file.
  it("a cell below a tree's .htaccess is unpredicted where AllowOverride lets httpd read it, predicted where None", () => {
    const p = predictFiles({
      "etc/fz/apache.conf": "Alias /fz0 /srv/fz0\nAlias /fz1 /srv/fz1\n<Directory /srv/fz0>\n    AllowOverride All\n    Order allow,deny\n    Allow from all\n</Directory>\n<Directory /srv/fz1>\n    AllowOverride None\n    Order allow,deny\n    Allow from all\n</Directory>\n",
      "srv/fz0/.htaccess": "Deny from all\n",
      "srv/fz1/.htaccess": "Deny from all\n",
    });
    expect(at(p, "/fz0/index.html", "outsider")["2.2"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/\/srv\/fz0\/ holds a per-directory file.*AllowOverride all/) });
    expect(at(p, "/fz1/index.html", "outsider")["2.2"].outcome).toBe("served");
  });

  // configs/queuewatch-cgi on real 2.2.34: `DirectoryIndex index.cgi` makes `/` run the tree's index.cgi (200, the
  // dashboard), not the probe world's index.html.
  it("a directory whose DirectoryIndex does not start with index.html: unpredicted", () => {
    const p = predict("<Directory /usr/local/apache2/htdocs/fz0>\n    DirectoryIndex index.cgi\n    Options +ExecCGI\n    AddHandler cgi-script .cgi\n</Directory>\n");
    expect(at(p, "/fz0/", "outsider")["2.2"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/DirectoryIndex index.cgi/) });
    expect(at(p, "/fz0-outside/", "outsider")["2.2"].outcome).toBe("served");
  });

  // configs/debian-ssl, official-stock, staging-lock on real 2.2.34 and 2.4.68: GET /cgi-bin/ (the ScriptAlias'd
  // directory itself) is 403 where a CGI module runs it.
  it("a ScriptAlias'd directory's own URL is denied where a CGI module is loaded, unpredicted where none is", () => {
    const p = predict("ScriptAlias /fz0/ /usr/local/apache2/fz0/\n<Directory /usr/local/apache2/fz0>\n    Order allow,deny\n    Allow from all\n</Directory>\n");
    expect(at(p, "/fz0/", "outsider")["2.2"].outcome).toBe("denied");
    const loaded = predict("LoadModule cgid_module modules/mod_cgid.so\nScriptAlias /fz0/ /usr/local/apache2/fz0/\n<Directory /usr/local/apache2/fz0>\n    Require all granted\n</Directory>\n");
    expect(at(loaded, "/fz0/", "outsider")["2.4"].outcome).toBe("denied");
  });

  // configs/staging-lock's port on real 2.4.68: migrate keeps 2.2's .ht* denial under a <Location /> Require with
  // `Require expr "!(%{REQUEST_FILENAME} =~ m#/\.ht[^/]*$#)"`; GET / is 401 without credentials, 200 with them.
  it("Require expr on REQUEST_FILENAME: read against the file the URL maps to; another expression is unpredicted", () => {
    const location = (expr: string) => `<Location /fz0>\n    AuthType Basic\n    AuthName fz0\n    AuthUserFile /usr/local/apache2/conf/fuzz.htpasswd\n    <RequireAll>\n        Require expr ${expr}\n        Require valid-user\n    </RequireAll>\n</Location>\n`;
    const p = predict(location('"!(%{REQUEST_FILENAME} =~ m#/\\.ht[^/]*$#)"'));
    expect(at(p, "/fz0/probe", "outsider")["2.4"].outcome).toBe("auth-required");
    expect(at(p, "/fz0/probe", "outsider", "valid:probe-user")["2.4"].outcome).toBe("served");
    const other = predict(location('"%{REMOTE_ADDR} -ipmatch \'10.0.0.0/8\'"'));
    expect(at(other, "/fz0/probe", "outsider")["2.4"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/Require expr.*not modelled/) });
  });

  it("a <FilesMatch> with a pattern JavaScript reads as PCRE does is matched; one it may not is unpredicted", () => {
    const p = predict('<FilesMatch "\\.(bak|old)$">\n    Order allow,deny\n    Deny from all\n</FilesMatch>\n');
    expect(at(p, "/index.html.bak", "outsider")["2.2"].outcome).toBe("denied");
    expect(at(p, "/index.html.bak", "outsider")["2.4"].outcome).toBe("denied");
    expect(at(p, "/index.html~", "outsider")["2.4"].outcome).toBe("served");
    const lookbehind = predict('<FilesMatch "(?<!x)\\.bak$">\n    Order allow,deny\n    Deny from all\n</FilesMatch>\n');
    expect(at(lookbehind, "/index.html.bak", "outsider")["2.2"]).toMatchObject({ outcome: "unpredicted", why: expect.stringMatching(/regex sections are matched approximately/) });
  });
});
