// Once per test run, for every project: the tests' temporary trees (mkdtemp under os.tmpdir()) go into one
// directory of this run, removed when the run ends, so that a test run leaves nothing in /tmp. Workers and the
// CLIs the tests start inherit TMPDIR; os.tmpdir() reads it on each call.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const OWNED = "HARNESS_TEST_TMPDIR";

export default function setup(): () => void {
  // Projects share one directory: the first project's set-up makes it, the others find it.
  if (process.env[OWNED] !== undefined) return () => {};
  const root = mkdtempSync(join(tmpdir(), "harness-test-run-"));
  process.env[OWNED] = root;
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
