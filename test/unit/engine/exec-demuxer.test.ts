// An exec's multiplexed stream split into stdout and stderr whatever the reads' boundaries, without joining
// frames.
import { describe, expect, it } from "vitest";
import { ExecDemuxer } from "../../../harness/engine/exec-demuxer.ts";

function frame(stream: 1 | 2, payload: string): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(Buffer.byteLength(payload), 4);
  return Buffer.concat([header, Buffer.from(payload)]);
}

describe("ExecDemuxer", () => {
  const wire = Buffer.concat([frame(1, "HTTP/1.1 200 OK\r\n"), frame(2, "warn"), frame(1, ""), frame(1, "body".repeat(100)), frame(2, "!")]);

  it("gives the same stdout and stderr whole and split at every size", () => {
    for (const size of [wire.length, 1, 3, 7, 8, 9, 64]) {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const demuxer = new ExecDemuxer(
        (c) => out.push(Buffer.from(c)),
        (c) => err.push(Buffer.from(c)),
      );
      for (let i = 0; i < wire.length; i += size) demuxer.push(wire.subarray(i, i + size));
      expect(Buffer.concat(out).toString()).toBe(`HTTP/1.1 200 OK\r\n${"body".repeat(100)}`);
      expect(Buffer.concat(err).toString()).toBe("warn!");
    }
  });

  it("hands a payload on in the pieces it came in (views, no joined frame)", () => {
    const big = frame(1, "x".repeat(100_000));
    const sizes: number[] = [];
    const demuxer = new ExecDemuxer((c) => sizes.push(c.length), () => undefined);
    for (let i = 0; i < big.length; i += 16_384) demuxer.push(big.subarray(i, i + 16_384));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16_384);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100_000);
  });
});
