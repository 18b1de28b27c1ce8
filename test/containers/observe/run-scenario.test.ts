// The scenario engine against real servers: the local 2.4 image on both sides, as CI has it.
import { describe, expect, it } from "vitest";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

const twoClients = `
id: two-clients
title: one client allowed by Require ip, another denied
seed: [M1, A1]
clients: [{ name: allowed }, { name: denied }]
server:
  modules: [authz_host]
  config: |
    <Directory "{{server.docroot}}">
        Require ip {{clients.allowed.ip}}
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: from-allowed, client: allowed, path: /, expect: { both: { status: 200, body: hello } } }
  - { name: from-denied, client: denied, path: /, expect: { both: { status: 403, errorLog: [{ code: AH01630 }] } } }
  - { name: from-host, path: /, expect: { both: { status: 403 } } }
`;

const expiredProxy = (logLevel: string): string => `
id: expired-proxy-${logLevel}
title: HTTPS reverse proxy to an origin whose certificate expired
seed: [D5, T2]
backends: [{ name: backend, kind: https-origin, certificate: expired, files: { index.html: "hello from backend\\n" } }]
server:
  modules: [ssl, proxy, proxy_http, socache_shmcb]
  logLevel: ${logLevel}
  config: |
    SSLProxyEngine On
    ProxyPass / https://{{backends.backend.host}}:{{backends.backend.port}}/
requests:
  - name: through-proxy
    path: /
    expect: { "2.4": { status: 500 } }
    guide: { "2.4": { status: 502 } }
`;

const raw = `
id: raw-requests
title: raw HTTP/1.0 requests from the host and from a client container
seed: [U1]
clients: [{ name: c1 }]
server:
  config: |
    <Directory "{{server.docroot}}">
        Require all granted
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: raw-host, raw: "GET / HTTP/1.0\\r\\n\\r\\n", expect: { both: { status: 200, body: hello } } }
  - { name: raw-container, client: c1, raw: "GET / HTTP/1.0\\r\\n\\r\\n", expect: { both: { status: 200, body: hello } } }
  - { name: garbage, raw: "BLAH\\r\\n\\r\\n", expect: { both: { status: 400 } } }
  - { name: http10-undici, path: /, http: "1.0", expect: { both: { status: 200 } } }
`;

const scgi = `
id: scgi-origin
title: the SCGI origin reports the CGI variables mod_proxy_scgi passes
seed: [S10]
backends: [{ name: app, kind: scgi-origin }]
server:
  modules: [proxy, proxy_scgi]
  config: |
    ProxyPass /scgi/ scgi://{{backends.app.host}}:{{backends.app.port}}/
requests:
  - { name: via-scgi, path: /scgi/extra/path, expect: { "2.4": { status: 200, body: "SCRIPT_NAME=/scgi/extra/path" } } }
`;

const fleetConfigWithLogFiles = `
id: fleet-config-log-files
title: a whole httpd.conf of the kind a fleet has, logging to files
seed: [A6]
server:
  base: none
  config: |
    ServerRoot "{{server.root}}"
    Listen 80
    LoadModule mpm_event_module modules/mod_mpm_event.so
    LoadModule unixd_module modules/mod_unixd.so
    LoadModule authz_core_module modules/mod_authz_core.so
    LoadModule authz_host_module modules/mod_authz_host.so
    LoadModule access_compat_module modules/mod_access_compat.so
    LoadModule log_config_module modules/mod_log_config.so
    LoadModule mime_module modules/mod_mime.so
    LoadModule dir_module modules/mod_dir.so
    User daemon
    Group daemon
    ServerName localhost
    ErrorLog logs/error_log
    LogFormat "%h %l %u %t \\"%r\\" %>s %b" common
    CustomLog logs/access_log common
    TypesConfig conf/mime.types
    DocumentRoot "{{server.docroot}}"
    <Directory "{{server.docroot}}">
        Order deny,allow
        Deny from all
    </Directory>
requests:
  - { name: denied, path: /index.html, expect: { "2.4": { status: 403, errorLog: [{ code: AH01797, message: "htdocs/index.html" }] } } }
  - { name: denied-again, path: /other.html, expect: { "2.4": { status: 403, errorLog: [{ code: AH01797, message: "htdocs/other.html" }] } } }
`;

describe("running scenarios on real servers", { timeout: 240_000 }, () => {
  it("answers 200 to the allowed client and 403 to the denied one, from their own addresses", async () => {
    const { reports } = await runYamlScenarios([twoClients]);
    const report = reports[0]!;
    expect(report.error).toBeNull();
    expect(report.expectations.candidate).toMatchObject({ ok: true, stated: true, failures: [] });
    const status = (name: string): number | null => report.requests.find((r) => r.name === name)!.candidate!.status;
    expect([status("from-allowed"), status("from-denied"), status("from-host")]).toEqual([200, 403, 403]);
    const denied = report.requests.find((r) => r.name === "from-denied")!.candidate!.errorLog;
    expect(denied).toEqual([expect.objectContaining({ code: "AH01630", module: "authz_core", level: "error" })]);
  });

  it("shows what 2.4 answers for an expired origin certificate, and at which LogLevel its reasons appear", async () => {
    const { reports } = await runYamlScenarios([expiredProxy("warn"), expiredProxy("info")]);
    const [warn, info] = reports;
    for (const report of [warn!, info!]) {
      expect(report.error).toBeNull();
      expect(report.requests[0]!.candidate!.status).toBe(500);
      expect(report.expectations.candidate.ok).toBe(true);
      // the guide says 502: the report keeps that it does not hold
      expect(report.guide.holds).toBe(false);
    }
    const codes = (r: typeof warn): Array<string | null> => r!.requests[0]!.candidate!.errorLog.map((l) => l.code);
    expect(codes(warn)).toEqual(expect.arrayContaining(["AH00898"]));
    expect(codes(warn)).not.toContain("AH02004");
    expect(codes(info)).toEqual(expect.arrayContaining(["AH02004", "AH00898"]));
    expect(info!.requests[0]!.candidate!.errorLog.find((l) => l.code === "AH02004")!.message).toContain("Peer certificate is expired");
  });

  it("sends raw requests undici refuses, from the host and from a client container", async () => {
    const { reports } = await runYamlScenarios([raw]);
    const report = reports[0]!;
    expect(report.expectations.candidate.failures).toEqual([]);
    expect(report.requests.map((r) => r.candidate!.status)).toEqual([200, 200, 400, 200]);
  });

  it("starts an SCGI origin that shows what 2.4 passes as SCRIPT_NAME and PATH_INFO", async () => {
    const { reports } = await runYamlScenarios([scgi]);
    const report = reports[0]!;
    expect(report.error).toBeNull();
    const body = report.requests[0]!.candidate!.body!;
    expect(body).toContain("REQUEST_URI=/scgi/extra/path");
    expect(body).not.toContain("PATH_INFO=");
    expect(report.expectations.candidate.failures).toEqual([]);
  });

  it("follows the log files a whole fleet config writes, so the server is seen starting and each request gets its own lines", async () => {
    const { reports } = await runYamlScenarios([fleetConfigWithLogFiles]);
    const report = reports[0]!;
    expect(report.error).toBeNull();
    // Started: its ready line was read from the followed log file (server/httpd-server.ts counts a server started only
    // once that line came, and not started when 30 s pass without it). No bound on the wall time, which a loaded
    // machine stretches.
    expect(report.servers.candidate).toMatchObject({ started: true });
    expect(report.servers.candidate!.startupLog.map((l) => l.code)).toContain("AH00489");
    expect(report.expectations.candidate.failures).toEqual([]);
    expect(report.requests.map((r) => r.candidate!.errorLog.map((l) => l.message))).toEqual([
      ["client denied by server configuration: /usr/local/apache2/htdocs/index.html"],
      ["client denied by server configuration: /usr/local/apache2/htdocs/other.html"],
    ]);
  });

  it("classifies nothing as a regression when both sides run the same image", async () => {
    const { reports } = await runYamlScenarios([twoClients], { learnNoise: true });
    const classes = reports[0]!.requests.flatMap((r) => r.differences.map((d) => d.class));
    expect(classes.filter((c) => c === "regression")).toEqual([]);
    expect(reports[0]!.verdict).not.toBe("regression");
  });
});
