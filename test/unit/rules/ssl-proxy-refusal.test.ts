import { describe, expect, it } from "vitest";
import { D4 } from "../../../harness/rules/d4-ssl-proxy-check-peer-cn.ts";
import { D5 } from "../../../harness/rules/d5-ssl-proxy-check-peer-expire.ts";
import { evidence, linesOf, records } from "./rule-harness.ts";

const ssl = "LoadModule ssl_module modules/mod_ssl.so\nLoadModule proxy_module modules/mod_proxy.so\nProxyPass /b/ https://backend.test/\n";

describe("D4 SSLProxyCheckPeerCN and D5 SSLProxyCheckPeerExpire", () => {
  it("find SSLProxyEngine on where the check is left at its 2.4 default", () => {
    const text = `${ssl}SSLProxyEngine on\n<VirtualHost *:443>\n    SSLProxyEngine on\n    SSLProxyCheckPeerCN off\n</VirtualHost>\n`;
    expect(linesOf(D4, text)).toEqual([{ line: 4, severity: "behaviour" }]);
    expect(linesOf(D5, text)).toEqual([{ line: 4, severity: "behaviour" }, { line: 6, severity: "behaviour" }]);
  });

  it("let a vhost inherit the main server's check off, and ignore SSLProxyEngine off", () => {
    const text = `${ssl}SSLProxyCheckPeerExpire off\n<VirtualHost *:443>\n    SSLProxyEngine on\n</VirtualHost>\nSSLProxyEngine off\n`;
    expect(linesOf(D5, text)).toEqual([]);
    expect(linesOf(D4, text)).toEqual([{ line: 6, severity: "behaviour" }]);
  });

  it("find nothing where the check is set On (2.2 checked too, or the tree chose 2.4's check), or D4's 2.4 name check SSLProxyCheckPeerName is set either way", () => {
    const on = `${ssl}<VirtualHost *:443>\n    SSLProxyEngine on\n    SSLProxyCheckPeerExpire On\n    SSLProxyCheckPeerCN On\n</VirtualHost>\n`;
    expect(linesOf(D5, on)).toEqual([]);
    expect(linesOf(D4, on)).toEqual([]);
    for (const value of ["On", "Off"]) {
      const name = `${ssl}SSLProxyCheckPeerName ${value}\n<VirtualHost *:443>\n    SSLProxyEngine on\n</VirtualHost>\n`;
      expect(linesOf(D4, name)).toEqual([]);
      expect(linesOf(D5, name)).toEqual([{ line: 6, severity: "behaviour" }]);
    }
  });

  it("find nothing in a tree that proxies to no HTTPS backend", () => {
    expect(linesOf(D4, "LoadModule ssl_module modules/mod_ssl.so\nSSLProxyEngine on\nProxyPass /b/ http://backend.test/\n")).toEqual([]);
  });

  // Fixtures case c1 at LogLevel warn (2.4.62): only mod_proxy's lines, 500 to the client.
  const warnLog = records(
    "2.4",
    "[Sat Nov 21 22:50:01.000001 2026] [proxy:error] [pid 9:tid 9] (20014)Internal error (specific information not available): [client 172.20.0.1:4000] AH01084: pass request body failed to 172.20.0.2:443 (backend)",
    "[Sat Nov 21 22:50:01.000002 2026] [proxy:error] [pid 9:tid 9] [client 172.20.0.1:4000] AH00898: Error during SSL Handshake with remote server returned by /expired/",
    "[Sat Nov 21 22:50:01.000003 2026] [proxy_http:error] [pid 9:tid 9] [client 172.20.0.1:4000] AH01097: pass request body failed to 172.20.0.2:443 (backend) from 172.20.0.1 ()",
  );
  const refused = (log = warnLog) => evidence({ field: "status", baseline: "200", candidate: "500", status: { baseline: 200, candidate: 500 }, log: { baseline: [], candidate: log } });
  const info = (line: string) => [...records("2.4", line), ...warnLog];

  it("both claim a refusal whose reason is not logged, each naming the other row", () => {
    expect(D4.recognise!(refused())?.summary).toContain("LogLevel info");
    expect(D5.recognise!(refused())?.summary).toContain("LogLevel info");
  });

  it("split the refusal by mod_ssl's reason at LogLevel info: AH02004 is D5's, AH02411 is D4's", () => {
    const expired = refused(info("[Sat Nov 21 22:50:01.000000 2026] [ssl:info] [pid 9:tid 9] [remote 172.20.0.2:443] AH02004: SSL Proxy: Peer certificate is expired"));
    const name = refused(info("[Sat Nov 21 22:50:01.000000 2026] [ssl:info] [pid 9:tid 9] [remote 172.20.0.2:443] AH02411: SSL Proxy: Peer certificate CN mismatch; does not match for hostname wrongname"));
    expect([D4.recognise!(expired), D5.recognise!(expired)?.summary.includes("AH02004")]).toEqual([null, true]);
    expect([D4.recognise!(name)?.summary.includes("another host"), D5.recognise!(name)]).toEqual([true, null]);
  });

  it("claim nothing when the statuses agree or nothing was refused", () => {
    expect(D5.recognise!({ ...refused(), status: { baseline: 500, candidate: 500 } })).toBeNull();
    expect(D5.recognise!(refused([]))).toBeNull();
    // A backend that is down: AH01084 without a handshake failure.
    expect(D4.recognise!(refused(warnLog.slice(0, 1)))).toBeNull();
  });
});
