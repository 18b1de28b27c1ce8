// lint and prove probe a tree alike: the options come from one place (rules/tree-probes.ts), so lint's probes of a
// tree are prove's probes of that tree proved against itself.
import { describe, expect, it } from "vitest";
import { proofProbes } from "../../../harness/judge/prove/proof-probes.ts";
import { lintContext } from "../../../harness/rules/lint-context.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { lintProbes, treeDefaultRoot, treeProbeOptions } from "../../../harness/rules/tree-probes.ts";
import { memoryTree } from "../conf/memory-tree.ts";

const FRAGMENT = "ScriptAlias /tool-cgi/ /srv/tool/cgi/\n<Directory /srv/tool/cgi>\n    Order deny,allow\n    Deny from all\n    Allow from 10.1.0.0/16\n</Directory>\n<Location /admin>\n    Require ip 192.0.2.7\n</Location>\n";

describe("tree probes", () => {
  it("a fragment is probed from the official image's document root and the stock config's port; its scripts and .htaccess files count", () => {
    const tree = memoryTree({ "site.conf": FRAGMENT, "cgi/run.sh": "#!/bin/sh\n", "docs/.htaccess": "Allow from 198.51.100.0/24\n" }, { layout: "fragment", mainFile: "site.conf" });
    const options = treeProbeOptions([tree]);
    expect(treeDefaultRoot([tree])).toBe("/usr/local/apache2/htdocs");
    expect(options.extraTargets).toEqual([{ host: null, port: 80, tls: false, client: "host" }]);
    expect(options.scripts?.some((path) => path.endsWith("/cgi/run.sh"))).toBe(true);
    expect(options.accessFiles?.map((file) => file.file)).toEqual(["docs/.htaccess"]);
    expect(options.extraForms).toContain("198.51.100.0/24");
  });

  it("lint's probes of a tree are the cells prove sends for the tree against itself", () => {
    const tree = memoryTree({ "site.conf": FRAGMENT }, { layout: "fragment", mainFile: "site.conf" });
    const lint = lintProbes(lintContext(tree, { defines: [], target: TARGET_PROFILES.official }));
    const prove = proofProbes(tree, tree, []).set;
    expect(lint.probes.length).toBeGreaterThan(0);
    expect(lint.probes.map((p) => p.cell)).toEqual(prove.probes.map((p) => p.cell));
    expect(lint.clients.map((c) => c.range)).toEqual(expect.arrayContaining(["10.1.0.0/16", "192.0.2.7", "outsider"]));
  });
});
