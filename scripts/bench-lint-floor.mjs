// The floor of the 10,000-vhost lint (scripts/bench-lint.ts): a Node process that reads every file of the tree
// and splits it into lines and words, the least any lint of it must do. Prints the counts, so that the work is
// not optimised away.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let lines = 0;
let words = 0;
for (const entry of readdirSync(process.argv[2], { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const text = readFileSync(join(entry.parentPath ?? entry.path, entry.name), "utf8");
  for (const line of text.split("\n")) {
    lines++;
    for (const word of line.split(/\s+/)) if (word !== "") words++;
  }
}
process.stdout.write(`${JSON.stringify({ lines, words })}\n`);
