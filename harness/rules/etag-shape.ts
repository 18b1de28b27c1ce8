// The ETag 2.4 sends by default: "size-mtime" where 2.2 sent "inode-size-mtime" (FileETag's default lost INode).
// Recorded in fixtures case f: 2.2 "216266-b-660d105d79f91", 2.4 "b-660d105d79f91" for one file.
import type { FieldDifference } from "./field-difference.ts";

// Weak (W/) when the file is younger than a second, as freshly prepared files are; both sides alike.
const ETAG_22 = /^(W\/)?"([0-9a-f]+)-([0-9a-f]+)-([0-9a-f]+)(-gzip)?"$/;
// 2.4's mod_deflate adds "-gzip" to the ETag of a compressed answer (DeflateAlterETag's default).
const ETAG_24 = /^(W\/)?"([0-9a-f]+)-([0-9a-f]+)(-gzip)?"$/;

/** Whether two ETags name the same size and mtime, 2.2's with the inode part and 2.4's without. */
export function etagWithoutInode(baseline: string | null, candidate: string | null): boolean {
  const old = baseline === null ? null : ETAG_22.exec(baseline);
  const next = candidate === null ? null : ETAG_24.exec(candidate);
  return old !== null && next !== null && old[1] === next[1] && old[3] === next[2] && old[4] === next[3];
}

export const ETAG_WITHOUT_INODE: FieldDifference = {
  id: "etag-without-inode",
  field: "header:etag",
  between: { baseline: "2.2", candidate: "2.4" },
  applies: (baseline, candidate) => etagWithoutInode(baseline, candidate),
  seed: ["D3"],
  reason: 'FileETag defaults to "MTime Size" on 2.4: the inode part is gone',
};
