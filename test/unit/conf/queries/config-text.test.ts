import { describe, expect, it } from "vitest";
import { renderConfigText } from "../../../../harness/conf/queries/config-text.ts";
import { effectiveConfig } from "./build-effective-config.ts";

describe("renderConfigText", () => {
  it("says that 2.4 refuses to start without an MPM, and 2.2 has one compiled in", () => {
    expect(renderConfigText(effectiveConfig("Listen 80"), ["core.c"], [])).toContain('Server MPM: (none loaded: httpd refuses to start, "No MPM loaded.")');
    const config22 = effectiveConfig("Listen 80", { version: "2.2.34" });
    expect(renderConfigText(config22, ["core.c", "prefork.c"], [])).toContain("Server MPM: prefork (compiled in)");
  });

  it("names a second MPM", () => {
    const text = renderConfigText(effectiveConfig(`
LoadModule mpm_event_module modules/mod_mpm_event.so
LoadModule mpm_worker_module modules/mod_mpm_worker.so
`), ["core.c"], []);
    expect(text).toContain('  also loaded: mpm_worker_module (conf/httpd.conf:2); httpd refuses to start, "More than one MPM loaded."');
  });

  it("groups name-based vhosts on 2.2 only where NameVirtualHost declares the address", () => {
    const text = renderConfigText(effectiveConfig(`
NameVirtualHost *:80
<VirtualHost *:80>
  ServerName a.test
  ServerAlias *.a.test
</VirtualHost>
<VirtualHost *:80>
  ServerName b.test
</VirtualHost>
<VirtualHost *:81>
  ServerName c.test
</VirtualHost>
<VirtualHost *:81>
  ServerName d.test
</VirtualHost>
`, { version: "2.2.34" }), ["core.c", "prefork.c"], []);
    // 2.2's dump_a_vhost prints no ServerAlias (vhost.c 2.2.34; httpd -S on 2.2.34 agrees).
    expect(text).toContain([
      "*:80                   is a NameVirtualHost",
      "         default server a.test (conf/httpd.conf:2)",
      "         port 80 namevhost a.test (conf/httpd.conf:2)",
      "         port 80 namevhost b.test (conf/httpd.conf:6)",
      "*:81                   c.test (conf/httpd.conf:9)",
      "*:81                   d.test (conf/httpd.conf:12)",
    ].join("\n"));
    expect(text).not.toContain("alias");
  });

  it("prints 2.4's aliases under a name-based vhost, plain ones first, then the wild ones", () => {
    const text = renderConfigText(effectiveConfig(`
<VirtualHost *:80>
  ServerName a.test
  ServerAlias *.a.test x.a.test
</VirtualHost>
<VirtualHost *:80>
  ServerName b.test
</VirtualHost>
`), ["core.c"], []);
    expect(text).toContain([
      "*:80                   is a NameVirtualHost",
      "         default server a.test (conf/httpd.conf:1)",
      "         port 80 namevhost a.test (conf/httpd.conf:1)",
      "                 alias x.a.test",
      "                 wild alias *.a.test",
      "         port 80 namevhost b.test (conf/httpd.conf:5)",
    ].join("\n"));
  });

  it("quotes arguments with spaces, indents by section and prints problems with their hints", () => {
    const text = renderConfigText(effectiveConfig(`
<Location /x>
  AuthName "Staff only"
</Location>
`), ["core.c"], [{ severity: "refusal", file: "conf/httpd.conf", line: 2, column: 3, message: "no", hint: "load it" }]);
    expect(text).toContain('conf/httpd.conf:1:1  <Location /x>\nconf/httpd.conf:2:3    AuthName "Staff only"\n');
    expect(text).toContain("Problems:\nconf/httpd.conf:2:3: refusal: no\n    load it\n");
  });

  it("shows the run settings httpd -S shows", () => {
    const text = renderConfigText(effectiveConfig(`
ServerRoot /srv/httpd
PidFile run/httpd.pid
Mutex file:run default
ErrorLog syslog:local1
`), ["core.c"], []);
    expect(text).toContain([
      'ServerRoot: "/srv/httpd"',
      "Main DocumentRoot: (the build's default)",
      'Main ErrorLog: "syslog:local1" syslog (conf/httpd.conf:4)',
      'Mutex default: path="/srv/httpd/run" mechanism=file (conf/httpd.conf:3)',
      'PidFile: "/srv/httpd/run/httpd.pid" (conf/httpd.conf:2)',
      "User: (not set)",
      "Group: (not set)",
    ].join("\n"));
  });
});
