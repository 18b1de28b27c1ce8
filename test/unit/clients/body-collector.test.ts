// The body collector: whatever the pieces' sizes (it gathers small ones before hashing), the count, the digest
// and the text kept are those of the whole body.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BODY_TEXT_LIMIT } from "../../../harness/clients/http-request.ts";
import { BodyCollector } from "../../../harness/clients/outcome-parts.ts";

describe("BodyCollector", () => {
  const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));

  it("gives the whole body's length and SHA-256, and its first BODY_TEXT_LIMIT bytes, for any split", () => {
    const whole = new BodyCollector();
    whole.push(body);
    const expected = whole.finish();
    expect(expected.bodyBytes).toBe(body.length);
    expect(expected.bodySha256).toBe(createHash("sha256").update(body).digest("hex"));
    expect(expected.body).toBe(body.subarray(0, BODY_TEXT_LIMIT).toString("latin1"));
    for (const sizes of [[1], [7, 8000], [8000], [32 * 1024 - 1, 32 * 1024, 70_000], [65_536, 3]]) {
      const collector = new BodyCollector();
      let n = 0;
      for (let i = 0; i < body.length; n++) {
        const size = sizes[n % sizes.length]!;
        collector.push(body.subarray(i, i + size));
        i += size;
      }
      expect(collector.finish()).toEqual(expected);
    }
  });

  it("keeps a copy of the text, not a view of a pushed chunk", () => {
    const chunk = Buffer.from("hello");
    const collector = new BodyCollector();
    collector.push(chunk);
    chunk.write("HELLO");
    expect(collector.finish().body).toBe("hello");
  });
});
