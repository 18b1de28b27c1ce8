import { describe, expect, it } from "vitest";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { smokeRequests, smokeTargets } from "../../../../harness/plan/tree/smoke-requests.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const BUILTINS = ["core.c", "http_core.c", "mod_so.c", "mod_ssl.c"];

function configOf(main: string, version = "2.4.68") {
  return evaluateTree(memoryTree({ "conf/httpd.conf": main }), { version: httpdVersion(version), defines: [], environment: {}, builtinModules: BUILTINS });
}

describe("smokeTargets", () => {
  it("asks every virtual host by its name on its port, over TLS where it runs SSLEngine on, and the main server on a port no vhost claims", () => {
    const config = configOf(
      [
        "Listen 80",
        "Listen 443",
        "Listen 8080",
        "<VirtualHost *:80>",
        "ServerName www.example.test",
        "</VirtualHost>",
        "<VirtualHost *:80>",
        "ServerName blog.example.test",
        "</VirtualHost>",
        "<VirtualHost *:443>",
        "ServerName secure.example.test",
        "SSLEngine on",
        "</VirtualHost>",
        "",
      ].join("\n"),
    );
    expect(smokeTargets([config])).toEqual([
      { host: "blog.example.test", port: 80, tls: false, client: "host" },
      { host: "www.example.test", port: 80, tls: false, client: "host" },
      { host: "secure.example.test", port: 443, tls: true, client: "host" },
      { host: null, port: 8080, tls: false, client: "host" },
    ]);
  });

  it("asks a vhost with no ServerName by the client's default name", () => {
    expect(smokeTargets([configOf("Listen 81\n<VirtualHost *:81>\nDocumentRoot /srv\n</VirtualHost>\n")])).toEqual([{ host: null, port: 81, tls: false, client: "host" }]);
  });

  it("asks a vhost without a port on every port httpd listens on", () => {
    const targets = smokeTargets([configOf("Listen 80\nListen 81\n<VirtualHost *>\nServerName any.example.test\n</VirtualHost>\n")]);
    expect(targets).toEqual([
      { host: "any.example.test", port: 80, tls: false, client: "host" },
      { host: "any.example.test", port: 81, tls: false, client: "host" },
    ]);
  });

  it("asks the main server over TLS on a Listen given the https protocol", () => {
    expect(smokeTargets([configOf("Listen 8443 https\n")])).toEqual([{ host: null, port: 8443, tls: true, client: "host" }]);
  });

  it("merges the targets of several configs (both versions) without repeating one", () => {
    const v22 = configOf("Listen 80\n<IfVersion < 2.4>\nListen 8022\n</IfVersion>\n", "2.2.34");
    const v24 = configOf("Listen 80\n<IfVersion >= 2.4>\nListen 8024\n</IfVersion>\n");
    expect(smokeTargets([v22, v24]).map((t) => t.port)).toEqual([80, 8022, 8024]);
  });

  it("adds an extra target only on a port nothing else asks on", () => {
    const config = configOf("Listen 80\n");
    expect(smokeTargets([config], [{ host: "x", port: 80, tls: false, client: "host" }])).toEqual([{ host: null, port: 80, tls: false, client: "host" }]);
    expect(smokeTargets([], [{ host: null, port: 80, tls: false, client: "host" }])).toEqual([{ host: null, port: 80, tls: false, client: "host" }]);
  });

  it("sends from inside the server to a port httpd listens on at loopback addresses only", () => {
    const config = configOf("Listen 80\nListen 127.0.0.1:8080\nListen [::1]:8081\n<VirtualHost 127.0.0.1:8080>\nServerName admin.local\n</VirtualHost>\n");
    expect(smokeTargets([config]).map((t) => [t.port, t.client, t.host])).toEqual([
      [80, "host", null],
      [8080, "localhost", "admin.local"],
      [8081, "localhost6", null],
    ]);
    expect(smokeRequests([config], { file: "t", line: 1, column: 1 }).map((r) => r.name)).toContain("GET http://admin.local:8080/ from localhost");
  });
});

describe("smokeRequests", () => {
  it("makes one GET / per target from the host, named after its URL, sending the vhost's name as Host", () => {
    const at = { file: "t", line: 1, column: 1 };
    const requests = smokeRequests([configOf("Listen 443\n<VirtualHost *:443>\nServerName s.example.test\nSSLEngine on\n</VirtualHost>\n")], at);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ at, name: "GET https://s.example.test:443/", client: "host", method: "GET", path: "/", host: "s.example.test", port: 443, tls: true, expect: {} });
  });
});
