import { describe, expect, test } from "vitest";
import { CONF_TRAITS } from "../../../harness/conf/conf-traits.ts";
import { expandInclude, indexTree, statTreePath, treePathOf } from "../../../harness/conf/include-paths.ts";
import { memoryTree, type MemoryTreeOptions } from "./memory-tree.ts";

function expand(files: Record<string, string>, argument: string, options: { family?: "2.2" | "2.4"; optional?: boolean; tree?: MemoryTreeOptions } = {}) {
  const index = indexTree(memoryTree(files, options.tree).source);
  return expandInclude({ index, traits: CONF_TRAITS[options.family ?? "2.4"], serverRoot: "/usr/local/apache2", argument, optional: options.optional ?? false, directive: "Include" }).map(
    (step) => (step.kind === "file" ? step.path : `${step.severity}: ${step.message}`),
  );
}

describe("expandInclude", () => {
  test("2.4 takes wildcards in inner components, only real directories matching there", () => {
    const files = { "sites/a/conf/x.conf": "", "sites/b/conf/y.conf": "", "sites/c.conf": "", "real/conf/z.conf": "" };
    expect(expand(files, "sites/*/conf/*.conf", { tree: { links: { "sites/l": "real" } } })).toEqual(["sites/a/conf/x.conf", "sites/b/conf/y.conf"]);
  });

  test("a wildcard last component matching a directory reads it recursively", () => {
    expect(expand({ "conf.d/a/1.conf": "", "conf.d/a/2/3.conf": "", "conf.d/b.conf": "" }, "conf.d/*")).toEqual(["conf.d/a/1.conf", "conf.d/a/2/3.conf", "conf.d/b.conf"]);
  });

  test("matches are sorted by bytes, upper case before lower case", () => {
    expect(expand({ "c/b.conf": "", "c/B.conf": "", "c/a.conf": "", "c/_.conf": "" }, "c/*.conf")).toEqual(["c/B.conf", "c/_.conf", "c/a.conf", "c/b.conf"]);
  });

  test("2.2: a directory that does not exist under a wildcard is refused; 2.4 refuses too, IncludeOptional does not", () => {
    expect(expand({}, "nodir/*.conf", { family: "2.2" })).toEqual(["refusal: Include directory '/usr/local/apache2/nodir' not found"]);
    expect(expand({}, "nodir/*.conf")).toEqual(["refusal: Include: Could not open directory /usr/local/apache2/nodir: No such file or directory"]);
    expect(expand({}, "nodir/*.conf", { optional: true })).toEqual([]);
  });

  test("a link that loops ends as missing rather than hanging", () => {
    expect(expand({}, "loop/x.conf", { tree: { links: { loop: "loop" } } })).toEqual([
      "error: Could not open configuration file /usr/local/apache2/loop/x.conf: No such file or directory",
    ]);
  });
});

describe("paths", () => {
  test("treePathOf maps server paths under the mount and nothing else", () => {
    expect(treePathOf("/etc/apache2", "/etc/apache2/sites-enabled/x")).toBe("sites-enabled/x");
    expect(treePathOf("/etc/apache2", "/etc/apache2")).toBe("");
    expect(treePathOf("/etc/apache2", "/etc/apache2-other/x")).toBeNull();
    expect(treePathOf("/", "/etc/x")).toBe("etc/x");
  });

  test("statTreePath follows links through directories and stops at one leading out", () => {
    const index = indexTree(memoryTree({ "real/f.conf": "" }, { links: { alias: "real", out: "/etc" } }).source);
    expect(statTreePath(index, "alias/f.conf")).toEqual({ kind: "file", path: "real/f.conf" });
    expect(statTreePath(index, "alias")).toEqual({ kind: "directory", path: "real" });
    expect(statTreePath(index, "out/passwd")).toEqual({ kind: "outside", via: "out -> /etc" });
    expect(statTreePath(index, "../x")).toEqual({ kind: "outside", via: "../x" });
  });
});
