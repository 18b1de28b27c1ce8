// A tree whose config test passes but whose httpd exits at start (mod_ssl refusing its ciphers) says why: the
// lines httpd wrote to the tree's own error-log files before exiting are read from the exited container.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runTrees } from "../../helpers/run-trees.ts";

const CONFIG = `ServerRoot "/usr/local/apache2"
Listen 80
Listen 443
LoadModule mpm_prefork_module modules/mod_mpm_prefork.so
LoadModule unixd_module modules/mod_unixd.so
LoadModule authz_core_module modules/mod_authz_core.so
LoadModule log_config_module modules/mod_log_config.so
LoadModule socache_shmcb_module modules/mod_socache_shmcb.so
LoadModule ssl_module modules/mod_ssl.so
User daemon
Group daemon
ServerName sf.example.test
DocumentRoot "/srv/sf"
ErrorLog logs/error_log
<VirtualHost *:443>
  ServerName sf.example.test
  SSLEngine on
  SSLCipherSuite NO-SUCH-CIPHER
  SSLCertificateFile conf/server.crt
  SSLCertificateKeyFile conf/server.key
  ErrorLog logs/ssl_error_log
</VirtualHost>
`;

describe("a tree that passes its config test and exits at start", { timeout: 120_000 }, () => {
  it("reports the reason httpd wrote to the tree's own error log", async () => {
    const root = mkdtempSync(join(tmpdir(), "start-failure-"));
    mkdirSync(join(root, "conf"));
    writeFileSync(join(root, "conf", "httpd.conf"), CONFIG);
    const images = inject("images");
    const [report] = (await runTrees([root], { baseline: images.candidate, concurrency: 1 })).values();
    const server = report!.servers.candidate!;
    expect(server.started).toBe(false);
    expect(server.startFailure?.logTail).toContainEqual(expect.stringContaining("AH01898: Unable to configure permitted SSL ciphers"));
    expect(server.startupLog.map((line) => line.raw).join("\n")).not.toContain("OCI runtime exec failed");
  });
});
