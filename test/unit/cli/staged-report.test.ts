// A report written in pieces is whole or absent: the pieces go to a temporary file beside the target, renamed into
// place at the end; a piece that fails to render, or a write the file system refuses, leaves the target as it was
// and no temporary file. A target that is not a regular file (/dev/null) is written in place, never replaced.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { runLintCommand } from "../../../harness/cli/lint-command.ts";
import { stageReport, writeChunks } from "../../../harness/cli/staged-report.ts";
import { isHarnessError } from "../../../harness/errors.ts";
import { DEBIAN_TREE, writeTree } from "./lint-trees.ts";

describe("stageReport", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the pieces to a temporary file and renames it into place on publish", () => {
    dir = mkdtempSync(join(tmpdir(), "staged-"));
    const target = join(dir, "report.json");
    const staged = stageReport({ format: "json", path: target }, ["{", '"a": ', "1}\n"]);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual([`report.json.${process.pid}.tmp`]);
    staged.publish();
    expect(readFileSync(target, "utf8")).toBe('{"a": 1}\n');
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("leaves an earlier report untouched and no temporary file when a piece fails to render", () => {
    dir = mkdtempSync(join(tmpdir(), "staged-"));
    const target = join(dir, "report.json");
    writeFileSync(target, "the earlier report\n");
    function* failing(): Generator<string> {
      yield "x".repeat(1 << 17);
      throw new Error("render failed");
    }
    expect(() => stageReport({ format: "json", path: target }, failing())).toThrow("render failed");
    expect(readFileSync(target, "utf8")).toBe("the earlier report\n");
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });

  it("writes in place to something that is not a regular file, and leaves it what it was", () => {
    stageReport({ format: "json", path: "/dev/null" }, ["x".repeat(1 << 17)]).publish();
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });
});

describe("writeChunks", () => {
  it("writes every piece, in order, waiting when the stream asks", async () => {
    const stream = new PassThrough({ highWaterMark: 16 });
    const read: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => read.push(chunk));
    const pieces = Array.from({ length: 3000 }, (_, index) => `${index},`);
    await writeChunks(stream, pieces);
    expect(Buffer.concat(read).toString()).toBe(pieces.join(""));
  });
});

describe("lint --output", () => {
  it("keeps the earlier report when the new one cannot be written, and says so with exit status 3's code", async () => {
    const root = writeTree(DEBIAN_TREE);
    // The target's directory is a file: nothing can be made beside the target.
    const blocker = join(root, "blocker");
    writeFileSync(blocker, "a file, not a directory\n");
    const error = await runLintCommand([root, "--format", "json", "--output", join(blocker, "lint.json")]).catch((caught: unknown) => caught);
    expect(isHarnessError(error) && error.code).toBe("HARNESS_REPORT_WRITE");
    expect((error as Error).message).toMatch(/^--output .*blocker\/lint\.json: /);
    expect(readFileSync(blocker, "utf8")).toBe("a file, not a directory\n");
  });
});
