// The fuzzer's generator makes valid 2.2 configuration: every batch it can make reads with harness/conf for 2.2
// and 2.4 without a problem, keeps each fragment under its own prefix, and never nests what httpd refuses to nest
// (<Files> or <Directory> in <Location>, <Directory> in <Directory>).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkTree } from "../../../harness/conf/read-tree.ts";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { walkConfig } from "../../../harness/conf/queries/walk-config.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { batchArbitrary, fragmentArbitrary, renderBatch, renderFragment } from "../../fuzz/fragment-generator.ts";
import { memoryTree } from "../conf/memory-tree.ts";

function fragmentTree(text: string) {
  return memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
}

describe("the fuzzer's fragment generator", () => {
  it("makes batches that 2.2 and 2.4 read without a problem", () => {
    fc.assert(
      fc.property(batchArbitrary(4), (batch) => {
        const text = renderBatch(batch);
        expect(() => checkTree(fragmentTree(text), "fuzz.conf", [])).not.toThrow();
      }),
      { numRuns: 200, seed: 32 },
    );
  });

  it("never nests a section where httpd refuses it", () => {
    fc.assert(
      fc.property(batchArbitrary(3), (batch) => {
        const config = evaluateTree(fragmentTree(renderBatch(batch)), { version: httpdVersion("2.2.34"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "http_core.c"] });
        for (const { section, sections } of walkConfig(config).sections) {
          const enclosing = sections.filter((s) => s !== section).map((s) => s.key);
          if (section.key === "directory") expect(enclosing.filter((k) => ["directory", "location", "files", "filesmatch"].includes(k))).toEqual([]);
          if (section.key === "files" || section.key === "filesmatch") expect(enclosing).not.toContain("location");
        }
      }),
      { numRuns: 200, seed: 33 },
    );
  });

  it("keeps every path a fragment names under its own prefix", () => {
    fc.assert(
      fc.property(fragmentArbitrary, (fragment) => {
        for (const line of renderFragment(fragment, "fz7")) {
          const path = /^(?:<Directory|<Location|ScriptAlias)\s+(\S+)/.exec(line.trim())?.[1];
          if (path !== undefined) expect(path.replace(/>$/, "")).toMatch(/^\/(usr\/local\/apache2\/(htdocs\/)?)?fz7(-cgi)?(\/|$)/);
        }
      }),
      { numRuns: 300, seed: 34 },
    );
  });
});
