import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { logTargets } from "../../../harness/conf/queries/log-targets.ts";
import { virtualHosts } from "../../../harness/conf/queries/virtual-hosts.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { writeBenchTree } from "../../../scripts/bench-conf-tree.ts";

describe("writeBenchTree", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes a Debian tree whose enabled sites hold as many vhosts as it says, each with its own name and logs, on 2.2 and 2.4", async () => {
    dir = mkdtempSync(join(tmpdir(), "bench-tree-"));
    const written = writeBenchTree(dir, { siteFiles: 10, vhostsPerFile: 10 });
    expect(written.vhosts).toBe(100);
    const tree = await loadTree(dir);
    expect(tree.layout).toBe("debian");
    for (const version of ["2.2.34", "2.4.68"]) {
      const config = evaluateTree(tree, { version: httpdVersion(version), defines: [], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c"] });
      expect(config.problems).toEqual([]);
      const hosts = virtualHosts(config);
      expect(hosts).toHaveLength(100);
      expect(new Set(hosts.map((host) => host.serverName?.host)).size).toBe(100);
      expect(hosts[0]!.aliases).toHaveLength(2);
      // ${APACHE_LOG_DIR} from envvars, each vhost its own error log.
      const logs = logTargets(config).slice(1);
      expect(logs.every((host) => host.errorLog?.path?.startsWith("/var/log/apache2/s00") && !host.errorLog.inherited)).toBe(true);
    }
  });
});
