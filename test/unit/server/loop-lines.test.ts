// A server host's stdout with the loop's lines in it (server/loop-lines.ts): they are taken out whole, and the
// config's own bytes pass on unchanged, however the stream is cut into chunks.
import { describe, expect, it } from "vitest";
import { LoopLines } from "../../../harness/server/loop-lines.ts";

const PREFIX = "@@harness load-";

function split(text: string, cuts: readonly number[]): { passed: string; lines: string[] } {
  const lines: string[] = [];
  const reader = new LoopLines(PREFIX, (line) => lines.push(line));
  const bytes = Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(reader.push(bytes.subarray(from, cut)));
    from = cut;
  }
  parts.push(reader.end());
  return { passed: Buffer.concat(parts).toString("utf8"), lines };
}

describe("the loop's lines in a config's stdout", () => {
  const config = "GET / 200\n@@ not the loop's\n@@harness other marker\n@@\nlast ünïcode line without its end";
  const stream = `GET / 200\n${PREFIX}out U3ludGF4IE9LCg==\n@@ not the loop's\n@@harness other marker\n@@\n${PREFIX}end 0\nlast ünïcode line without its end`;

  it("takes the loop's lines out and passes the rest byte for byte", () => {
    const { passed, lines } = split(stream, []);
    expect(lines).toEqual([`${PREFIX}out U3ludGF4IE9LCg==`, `${PREFIX}end 0`]);
    expect(passed).toBe(config);
  });

  it("does the same wherever the chunks are cut, in two or three pieces", () => {
    const length = Buffer.byteLength(stream);
    for (let a = 0; a <= length; a++) {
      for (const b of [a, Math.min(length, a + 1), Math.min(length, a + 7)]) {
        const { passed, lines } = split(stream, [a, b]);
        expect(lines).toEqual([`${PREFIX}out U3ludGF4IE9LCg==`, `${PREFIX}end 0`]);
        expect(passed).toBe(config);
      }
    }
  });

  it("passes a line's start on at once when it cannot be the loop's, holding back only what may be", () => {
    const reader = new LoopLines(PREFIX, () => undefined);
    expect(reader.push(Buffer.from("GET /")).toString()).toBe("GET /");
    expect(reader.push(Buffer.from(" 200\n@@har")).toString()).toBe(" 200\n");
    expect(reader.push(Buffer.from("ness x\n")).toString()).toBe("@@harness x\n");
    // A stream that ends inside a line that looked like the loop's: that line was the config's.
    expect(reader.push(Buffer.from(`${PREFIX}en`)).toString()).toBe("");
    expect(reader.end().toString()).toBe(`${PREFIX}en`);
  });
});
