// `migrate --out DIR`: the migrated tree written whole, or not at all. It goes into a temporary directory beside
// DIR and is renamed into place, so an interrupted write never leaves half a tree; a DIR that exists and is not
// empty is refused (exit 2) rather than mixed with what is there.
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { SourceTree } from "../conf/source-tree.ts";
import { HarnessError } from "../errors.ts";

export function writeTree(source: SourceTree, out: string): void {
  const target = resolve(out);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new HarnessError("HARNESS_USAGE", `--out ${out} exists and is not empty`, { hint: "Give a new or empty directory; migrate never writes over files." });
  }
  const temporary = `${target}.migrate-${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  try {
    mkdirSync(temporary, { recursive: true });
    for (const dir of source.directories) mkdirSync(join(temporary, dir), { recursive: true });
    for (const [path, bytes] of source.files) {
      const file = join(temporary, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
      const mode = source.modes.get(path);
      if (mode !== undefined) chmodSync(file, mode & 0o7777);
    }
    for (const [path, resolved] of source.links) {
      const link = join(temporary, path);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(relative(dirname(link), join(temporary, resolved)), link);
    }
    if (existsSync(target)) rmSync(target, { recursive: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    if (error instanceof HarnessError) throw error;
    throw new HarnessError("HARNESS_REPORT_WRITE", `could not write the migrated tree to ${out}: ${(error as Error).message}`, { cause: error });
  }
}
