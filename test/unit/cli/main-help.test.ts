import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../harness/cli/main.ts";
import { EXIT } from "../../../harness/cli/exit-status.ts";

describe("--help after a command", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const written = () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
    const err: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (err.push(String(chunk)), true));
    return { out, err };
  };

  it.each([["run", "--help"], ["fleet", "configs/", "-h"], ["lint", "--format", "json", "--help"]])("prints the usage and exits 0 for %s %s", async (...argv) => {
    const { out, err } = written();
    expect(await main(argv)).toBe(EXIT.ok);
    expect(out.join("")).toContain("httpd-upgrade-harness run [SCENARIO_FILES_OR_DIRS...]");
    expect(err.join("")).toBe("");
  });

  it("takes --help after -- as an argument, not as a request for the usage", async () => {
    const { out, err } = written();
    expect(await main(["lint", "--", "--help"])).not.toBe(EXIT.ok);
    expect(out.join("")).not.toContain("httpd-upgrade-harness run [SCENARIO_FILES_OR_DIRS...]");
    expect(err.join("")).toMatch(/--help/);
  }, 30_000); // it loads lint's modules, seconds on a loaded machine
});
