// D2: EnableSendfile defaults to Off on 2.4 (On on 2.2). Nothing shows in the answers: 2.2 sends static files
// with sendfile(), 2.4 with mmap and writev (fixtures case g1, strace). A lint finding only, where the tree
// does not set it.
import { defaultAnchor, setsAnywhere } from "./default-anchor.ts";
import { detection } from "./detection.ts";
import type { Rule } from "./rule.ts";

export const D2: Rule = {
  id: "D2",
  seed: ["D2"],
  title: "EnableSendfile defaults to Off on 2.4 (On on 2.2)",
  severity: "deprecated",
  detect: (context) => {
    if (setsAnywhere(context, "enablesendfile")) return [];
    const anchor = defaultAnchor(context);
    return anchor
      ? [detection(anchor, "the tree does not set EnableSendfile: 2.2 sent static files with sendfile(), 2.4 does not (default Off); answers are the same, the I/O path and its cost change", "EnableSendfile On")]
      : [];
  },
  fix: "Set EnableSendfile On to keep 2.2's behaviour (not on network file systems), or Off to state 2.4's default.",
  help: "Guide, changed defaults: EnableSendfile Off. Real servers: 2.2 calls sendfile() for a large file, 2.4 uses mmap + writev.",
  sample: { config: "DocumentRoot htdocs", on24: "starts" },
};
