// bin/httpd-upgrade-harness.js runs the CLI from a bundle of the sources, which gives harness/repo-paths.ts its own
// checkout URL for `import.meta.url`: any other module reading its own URL would get that one instead, so none may.
// The bundle and the sources through tsx must answer alike, paths to the checkout's files included.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("the CLI's bundle", { timeout: 60_000 }, () => {
  it("leaves import.meta to harness/repo-paths.ts alone", () => {
    const harness = join(ROOT, "harness");
    const readers = readdirSync(harness, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => readFileSync(path, "utf8").includes("import.meta"))
      .map((path) => relative(ROOT, path));
    expect(readers).toEqual(["harness/repo-paths.ts"]);
  });

  it("answers as the sources through tsx do, with the checkout's own files (the catalogue, the version, a sample)", async () => {
    for (const args of [["catalogue"], ["lint", join(ROOT, "configs/tool-status-alias"), "--format", "json"], ["nonsense"]]) {
      const [bundled, sources] = await Promise.all([runCli(args), runCli(args, { env: { HARNESS_NO_BUNDLE: "1" } })]);
      expect(bundled, args.join(" ")).toEqual(sources);
    }
    const catalogue = await runCli(["catalogue"]);
    expect(catalogue.status).toBe(0);
    expect(catalogue.stdout).toMatch(/observable rows covered/);
  });
});
