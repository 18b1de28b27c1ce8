// D3: FileETag defaults to "MTime Size" on 2.4 (2.2: "INode MTime Size"), so every ETag of a static file
// changes shape: caches revalidate once after the upgrade. Benign; the finding marks a tree that leaves it unset.
import { defaultAnchor, setsAnywhere } from "./default-anchor.ts";
import { detection } from "./detection.ts";
import { ETAG_WITHOUT_INODE } from "./etag-shape.ts";
import { recogniseFieldDifference } from "./field-difference.ts";
import type { Rule } from "./rule.ts";

export const D3: Rule = {
  id: "D3",
  seed: ["D3"],
  title: 'FileETag defaults to "MTime Size" on 2.4: ETags lose their inode part',
  severity: "expected",
  detect: (context) => {
    if (setsAnywhere(context, "fileetag")) return [];
    const anchor = defaultAnchor(context);
    return anchor
      ? [detection(anchor, 'the tree does not set FileETag: 2.4 sends ETags without the inode part ("size-mtime"), so caches revalidate each file once after the upgrade', "FileETag MTime Size")]
      : [];
  },
  recognise: recogniseFieldDifference(ETAG_WITHOUT_INODE),
  fix: 'Nothing to do for most sites; "FileETag MTime Size" on 2.2 makes both versions send the same ETag.',
  help: 'Guide, changed defaults: FileETag "MTime Size" (without INode). Real servers, fixtures case f.',
  sample: { config: "DocumentRoot htdocs", on24: "starts", files: { "htdocs/f.txt": "hello etag\n" }, request: "/f.txt" },
};
