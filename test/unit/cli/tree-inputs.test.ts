import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTree } from "../../../harness/conf/read-tree.ts";
import { parseLayout, runInputs, treeScenarios } from "../../../harness/cli/tree-inputs.ts";
import { refusal } from "../../helpers/refusal.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/plan/tree/", import.meta.url));

describe("readTree refuses a tree the harness cannot read as given", () => {
  it("names an unclosed section with its file:line", async () => {
    const error = await refusal(readTree(`${FIXTURES}bad-unclosed`, null, []));
    expect(error.code).toBe("HARNESS_CONFIG_FILE");
    expect(error.message).toContain("(1 problem):\n  conf/httpd.conf:3:1: <Directory> was not closed before the end of the file");
    expect(error.position).toEqual({ file: "conf/httpd.conf", line: 3, column: 1 });
  });

  it("names an Include of a file the tree does not hold", async () => {
    const error = await refusal(readTree(`${FIXTURES}bad-missing-include`, null, []));
    expect(error.code).toBe("HARNESS_CONFIG_FILE");
    expect(error.message).toContain("conf/httpd.conf:3:1: Could not open configuration file /usr/local/apache2/conf/extra/not-here.conf");
  });

  it("names an Include cycle at the line that closes it", async () => {
    const error = await refusal(readTree(`${FIXTURES}bad-cycle`, null, []));
    expect(error.message).toContain("conf/b.conf:2:1: Include cycle: conf/a.conf → conf/b.conf → conf/a.conf");
    expect(error.position).toEqual({ file: "conf/b.conf", line: 2, column: 1 });
  });

  it("lists every problem at once, each once although both versions read the tree, the first as the position", async () => {
    const error = await refusal(readTree(`${FIXTURES}bad-several`, null, []));
    const listed = error.message.split("\n").slice(1);
    expect(error.message.split("\n")[0]).toMatch(/cannot be read as given \(3 problems\):$/);
    expect(listed.map((line) => line.replace(/^ {2}(\S+:\d+:\d+):.*$/, "$1"))).toEqual(["conf/httpd.conf:3:1", "conf/b.conf:1:1", "conf/open.conf:2:1"]);
    expect(error.position).toEqual({ file: "conf/httpd.conf", line: 3, column: 1 });
  });

  it("reads a sound tree without complaint", async () => {
    const tree = await readTree(`${FIXTURES}debian-22`, null, []);
    expect(tree.layout).toBe("debian");
  });

  it("refuses a path that does not exist", async () => {
    const error = await refusal(readTree(`${FIXTURES}no-such-tree`, null, []));
    expect(error.code).toBe("HARNESS_CONFIG_FILE");
  });
});

describe("readTree never reads the host outside the tree", () => {
  let root = "";
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "tree-inputs-"));
    await mkdir(join(root, "conf"));
    await writeFile(join(root, "conf/httpd.conf"), "Listen 80\nInclude /etc/shadow\nInclude conf/root/etc/passwd\n");
    // Made here, not committed: a link to / in the repository would lead every tool walking it into the host.
    await symlink("/", join(root, "conf/root"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("refuses /etc/shadow and a link to / as leading out of the tree, reading neither", async () => {
    const error = await refusal(readTree(root, null, []));
    expect(error.code).toBe("HARNESS_CONFIG_FILE");
    expect(error.message).toContain("(2 problems)");
    expect(error.message).toContain("conf/httpd.conf:2:1: Include: /etc/shadow leads out of the configuration tree (not under /usr/local/apache2); it was not read");
    expect(error.message).toContain("conf/httpd.conf:3:1: Include: /usr/local/apache2/conf/root/etc/passwd leads out of the configuration tree (link conf/root -> /); it was not read");
    // Were /etc/passwd read, its lines would show up as unknown directives.
    expect(error.message).not.toContain("root:x:");
  });
});

describe("treeScenarios", () => {
  it("refuses a --candidate-config count other than the --config count with HARNESS_USAGE", async () => {
    const error = await refusal(treeScenarios({ configs: [`${FIXTURES}debian-22`, `${FIXTURES}official-24`], candidateConfigs: [`${FIXTURES}official-24`], layout: undefined, defines: [] }));
    expect(error.code).toBe("HARNESS_USAGE");
    expect(error.message).toBe("1 --candidate-config for 2 --config");
  });

  it("pairs each --config with the --candidate-config at its position: the original as written, the port as 2.4", async () => {
    const { scenarios, trees } = await treeScenarios({ configs: [`${FIXTURES}debian-22`], candidateConfigs: [`${FIXTURES}official-24`], layout: undefined, defines: ["X"] });
    expect(scenarios).toHaveLength(1);
    const refs = scenarios[0]!.server.tree!;
    expect([refs.baseline.path, refs.baseline.writtenFor, refs.candidate.path, refs.candidate.writtenFor]).toEqual([`${FIXTURES}debian-22`, "2.2", `${FIXTURES}official-24`, "2.4"]);
    expect(refs.baseline.defines).toEqual(["X"]);
    expect([...trees.keys()]).toEqual([`${FIXTURES}debian-22`, `${FIXTURES}official-24`]);
  });

  it("runs a --config without a port against itself, as written (a 2.4 tree stays 2.4)", async () => {
    const { scenarios } = await treeScenarios({ configs: [`${FIXTURES}official-24`], candidateConfigs: [], layout: undefined, defines: [] });
    const refs = scenarios[0]!.server.tree!;
    expect(refs.candidate).toBe(refs.baseline);
    expect(refs.baseline.writtenFor).toBe("2.4");
    expect(scenarios[0]!.id).toBe("official-24");
  });

  it("reads a tree given twice once and gives the second scenario its own id", async () => {
    const { scenarios, trees } = await treeScenarios({ configs: [`${FIXTURES}debian-22`, `${FIXTURES}debian-22/`], candidateConfigs: [], layout: undefined, defines: [] });
    expect(scenarios.map((s) => s.id)).toEqual(["debian-22", "debian-22-2"]);
    expect(trees.size).toBe(1);
  });

  it("gives two trees of one name ids of the same spelling, spaces made dashes: my-site, my-site-2", async () => {
    const root = await mkdtemp(join(tmpdir(), "tree-ids-"));
    try {
      for (const dir of ["a/my site/conf", "b/my site/conf"]) {
        await mkdir(join(root, dir), { recursive: true });
        await writeFile(join(root, dir, "httpd.conf"), "Listen 80\n");
      }
      const { scenarios } = await treeScenarios({ configs: [join(root, "a/my site"), join(root, "b/my site")], candidateConfigs: [], layout: undefined, defines: [] });
      expect(scenarios.map((s) => s.id)).toEqual(["my-site", "my-site-2"]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("reads the tree with the --layout given", async () => {
    const { trees } = await treeScenarios({ configs: [`${FIXTURES}official-24/conf/httpd.conf`], candidateConfigs: [], layout: "fragment", defines: [] });
    expect([...trees.values()][0]!.layout).toBe("fragment");
  });
});

describe("parseLayout", () => {
  it("takes a layout the harness knows and refuses another with HARNESS_USAGE", () => {
    expect(parseLayout(undefined)).toBeNull();
    expect(parseLayout("rhel")).toBe("rhel");
    expect(() => parseLayout("suse")).toThrow(expect.objectContaining({ code: "HARNESS_USAGE" }));
  });
});

describe("runInputs", () => {
  it("runs only the --config trees when no scenario file is named", async () => {
    const { scenarios, trees } = await runInputs([], { config: [`${FIXTURES}debian-22`] });
    expect(scenarios.map((s) => s.id)).toEqual(["debian-22"]);
    expect(trees.size).toBe(1);
  });

  it("refuses a --candidate-config count mismatch with HARNESS_USAGE", async () => {
    const error = await refusal(runInputs([], { config: [`${FIXTURES}debian-22`], "candidate-config": [`${FIXTURES}official-24`, `${FIXTURES}official-24`] }));
    expect(error.code).toBe("HARNESS_USAGE");
  });

  it("says a --candidate-config needs a --config when none is given", async () => {
    const error = await refusal(runInputs([], { "candidate-config": [`${FIXTURES}official-24`] }));
    expect(error.code).toBe("HARNESS_USAGE");
    expect(error.message).toBe("--candidate-config needs a --config: the original the port is compared with");
  });

  it("stops on a bad tree with HARNESS_CONFIG_FILE before any scenario is read", async () => {
    const error = await refusal(runInputs([], { config: [`${FIXTURES}bad-cycle`] }));
    expect(error.code).toBe("HARNESS_CONFIG_FILE");
  });
});

describe("treeScenarios names", () => {
  it("names a lone .htaccess after itself without the leading dot", async () => {
    const dir = await mkdtemp(join(tmpdir(), "htaccess-"));
    await writeFile(join(dir, ".htaccess"), "Options -Indexes\n");
    const { scenarios } = await treeScenarios({ configs: [join(dir, ".htaccess")], candidateConfigs: [], layout: undefined, defines: [] });
    expect(scenarios[0]!.id).toBe("htaccess");
  });
});
