import { describe, expect, it } from "vitest";
import { hostNames, mainServer, parseServerName, serverHosts, virtualHosts } from "../../../../harness/conf/queries/virtual-hosts.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

const SITES = `
ServerName main.example.test
DocumentRoot /srv/main
Listen 80
Listen 443
#file conf/sites.conf
<VirtualHost *:80 192.0.2.7:8080>
  ServerName https://www.example.test:8443
  ServerAlias example.test
  ServerAlias *.example.test static.example.test
  DocumentRoot htdocs/www
</VirtualHost>
<VirtualHost *:443>
  SSLEngine on
</VirtualHost>
<VirtualHost 192.0.2.9:80>
</VirtualHost>
`;

describe("parseServerName", () => {
  it("takes the scheme and port off", () => {
    expect(parseServerName("https://www.example.test:8443")).toEqual({ host: "www.example.test", port: 8443 });
    expect(parseServerName("www.example.test")).toEqual({ host: "www.example.test", port: null });
  });
});

describe("virtualHosts", () => {
  const config = effectiveConfig(SITES);
  const [www, secure, bare] = virtualHosts(config);

  it("reads addresses, names and aliases of each <VirtualHost>, with their lines", () => {
    expect(www!.addresses.map((a) => [a.text, a.host, a.port])).toEqual([["*:80", "*", 80], ["192.0.2.7:8080", "192.0.2.7", 8080]]);
    expect(www!.span).toMatchObject(at("conf/sites.conf", 1));
    expect(www!.serverName).toMatchObject({ value: "https://www.example.test:8443", host: "www.example.test", port: 8443, inherited: false });
    expect(www!.serverName!.span).toMatchObject(at("conf/sites.conf", 2, 3));
    expect(hostNames(www!)).toEqual(["www.example.test", "example.test", "*.example.test", "static.example.test"]);
    expect(www!.aliases.map((alias) => alias.span.line)).toEqual([3, 4, 4]);
  });

  it("resolves a vhost's DocumentRoot against the ServerRoot and inherits the main server's otherwise", () => {
    expect(www!.documentRoot).toMatchObject({ value: "htdocs/www", path: "/usr/local/apache2/htdocs/www", inherited: false });
    expect(secure!.documentRoot).toMatchObject({ path: "/srv/main", inherited: true });
    expect(secure!.documentRoot!.span).toMatchObject(at("conf/httpd.conf", 2));
  });

  it("takes the main server's name for a wildcard vhost without ServerName, none for a named address", () => {
    expect(secure!.serverName).toMatchObject({ host: "main.example.test", inherited: true });
    expect(bare!.serverName).toBeNull();
  });

  it("says TLS for SSLEngine on, and not for a plain vhost", () => {
    expect(secure!.tls).toEqual({ on: true, because: "SSLEngine", span: expect.objectContaining(at("conf/sites.conf", 8, 3)) });
    expect(www!.tls.on).toBe(false);
  });
});

describe("TLS of a vhost", () => {
  const HTTPS_DEFAULT = `
Listen 443
<VirtualHost *:443>
  SSLCertificateFile conf/server.crt
</VirtualHost>
`;

  it("on 2.4 follows an https listener when SSLEngine is unset and a certificate is configured", () => {
    const [vhost] = virtualHosts(effectiveConfig(HTTPS_DEFAULT, { version: "2.4.62" }));
    expect(vhost!.tls).toEqual({ on: true, because: "https listener", span: expect.objectContaining(at("conf/httpd.conf", 1)) });
  });

  it("on 2.2 needs SSLEngine on", () => {
    const [vhost] = virtualHosts(effectiveConfig(HTTPS_DEFAULT, { version: "2.2.34" }));
    expect(vhost!.tls.on).toBe(false);
  });

  it("inherits the main server's SSLEngine (mod_ssl merges it), and SSLEngine off wins over the listener", () => {
    const [inherited, off] = virtualHosts(effectiveConfig(`
SSLEngine on
Listen 443
<VirtualHost *:80>
</VirtualHost>
<VirtualHost *:443>
  SSLEngine off
  SSLCertificateFile conf/server.crt
</VirtualHost>
`));
    expect(inherited!.tls).toMatchObject({ on: true, because: "SSLEngine", span: at("conf/httpd.conf", 1) });
    expect(off!.tls).toMatchObject({ on: false, because: "SSLEngine" });
  });
});

describe("mainServer and serverHosts", () => {
  it("describe the main server as a host without addresses, first", () => {
    const config = effectiveConfig(SITES);
    const main = mainServer(config);
    expect(main).toMatchObject({ kind: "main", span: null, addresses: [], aliases: [], tls: { on: false } });
    expect(hostNames(main)).toEqual(["main.example.test"]);
    expect(serverHosts(config).map((host) => host.kind)).toEqual(["main", "vhost", "vhost", "vhost"]);
  });
});
