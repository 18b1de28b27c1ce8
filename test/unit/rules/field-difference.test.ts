import { describe, expect, it } from "vitest";
import { ETAG_WITHOUT_INODE, etagWithoutInode } from "../../../harness/rules/etag-shape.ts";
import { fieldDifferenceHolds, recogniseFieldDifference } from "../../../harness/rules/field-difference.ts";
import { evidence } from "./rule-harness.ts";

const between = (baselineFamily: "2.2" | "2.4", candidateFamily: "2.2" | "2.4") => ({ baselineStatus: 200, candidateStatus: 200, baselineFamily, candidateFamily });

describe("a field difference", () => {
  it("holds on its own field, between its release lines, when its matcher applies", () => {
    expect(fieldDifferenceHolds(ETAG_WITHOUT_INODE, "header:etag", '"216266-b-660d105d79f91"', '"b-660d105d79f91"', between("2.2", "2.4"))).toBe(true);
    expect(fieldDifferenceHolds(ETAG_WITHOUT_INODE, "header:etag", '"216266-b-660d105d79f91"', '"b-660d105d79f91"', between("2.4", "2.4"))).toBe(false);
    expect(fieldDifferenceHolds(ETAG_WITHOUT_INODE, "header:etags", '"216266-b-660d105d79f91"', '"b-660d105d79f91"', between("2.2", "2.4"))).toBe(false);
    expect(fieldDifferenceHolds({ ...ETAG_WITHOUT_INODE, field: "header:*" }, "header:etag", '"216266-b-660d105d79f91"', '"b-660d105d79f91"', between("2.2", "2.4"))).toBe(true);
  });

  it("is a recognise face reading the evidence's field, values and families", () => {
    const recognise = recogniseFieldDifference(ETAG_WITHOUT_INODE);
    expect(recognise(evidence({ field: "header:etag", baseline: '"216266-b-660d105d79f91"', candidate: '"b-660d105d79f91-gzip"' }))?.summary).toContain("inode");
    expect(recognise(evidence({ field: "header:etag", baseline: '"216266-b-660d105d79f91"', candidate: '"c-660d105d79f91"' }))).toBeNull();
    expect(recognise(evidence({ field: "header:etag", baseline: '"216266-b-660d105d79f91"', candidate: '"b-660d105d79f91"', families: { baseline: "2.4", candidate: "2.4" } }))).toBeNull();
  });

  it("matches 2.2's inode-size-mtime ETag with 2.4's size-mtime one, weak with weak only", () => {
    expect([
      etagWithoutInode('W/"216266-b-660d105d79f91"', 'W/"b-660d105d79f91"'),
      etagWithoutInode('"216266-b-660d105d79f91"', 'W/"b-660d105d79f91"'),
      etagWithoutInode('"b-660d105d79f91"', '"216266-b-660d105d79f91"'),
      etagWithoutInode(null, '"b-660d105d79f91"'),
    ]).toEqual([true, false, false, false]);
  });
});
