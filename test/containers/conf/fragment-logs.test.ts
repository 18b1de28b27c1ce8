// A fragment (a site file on each image's stock httpd.conf) that logs to files of its own: its requests' error
// lines are followed there, besides the stock config's streams. Before, only the stock config's streams were
// followed, so a Debian-style site file with its own ErrorLog and CustomLog showed no error line for any request
// on either version, and a difference whose cause is in the error log (2.2's "attempt to invoke directory as
// script") went to the wrong cause. Real answers: 2.4.68 logs AH01797 "client denied by server configuration" for
// the denied document root, 2.2.34 "client denied by server configuration" (compared when HTTPD_BASELINE_IMAGE is
// given; the candidate alone otherwise). The error log is a Debian site file's, under ${APACHE_LOG_DIR}, which the
// harness sets as Debian's envvars do (without it neither version starts).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { runTrees } from "../../helpers/run-trees.ts";

const SITE = `<VirtualHost *:80>
    ServerName logs.example
    DocumentRoot /var/www/logs-site
    ErrorLog \${APACHE_LOG_DIR}/error.log
    CustomLog /var/log/site/access.log combined
    <Directory /var/www/logs-site>
        Order allow,deny
        Deny from all
    </Directory>
</VirtualHost>
`;

describe("a fragment's own log files", { timeout: 300_000 }, () => {
  let dir = "";
  let report: ReportScenario | undefined;

  beforeAll(async () => {
    process.env.HARNESS_SESSION = `test-fragment-logs-${randomBytes(4).toString("hex")}`;
    dir = await mkdtemp(join(tmpdir(), "fragment-logs-"));
    const site = join(dir, "logs.example.conf");
    await writeFile(site, SITE);
    report = [...(await runTrees([site])).values()][0];
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const sides = () => (inject("images").baseline ? (["baseline", "candidate"] as const) : (["candidate"] as const));

  it("are where Debian's envvars put them: the variable is set and listed as made up", () => {
    for (const side of sides()) {
      const tree = report!.servers[side]!.tree!;
      expect(tree.stubs, side).toContainEqual(expect.objectContaining({ kind: "variable", target: "APACHE_LOG_DIR=/var/log/apache2", line: 4 }));
    }
  });

  it("are followed: the denied request's error line is the request's, on each version", () => {
    const denied = report!.requests.find((r) => r.sent.startsWith("GET / "))!;
    for (const side of sides()) {
      const answer = denied[side]!;
      expect(answer.status, side).toBe(403);
      expect((answer.errorLog ?? []).map((line) => line.raw).join("\n"), side).toMatch(/client denied by server configuration/);
    }
  });
});
