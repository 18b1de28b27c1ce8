// The exec agent's output frames read back whatever the reads' boundaries: each job's bytes in order, empty
// frames, exits and the hello; and a line that is no frame is an error naming it.
import { describe, expect, it } from "vitest";
import { AgentFrameReader } from "../../../harness/engine/exec-agent.ts";

function data(id: number, kind: "o" | "e", bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id} ${kind} ${bytes.length}\n`), bytes]);
}

describe("AgentFrameReader", () => {
  const binary = Buffer.from([0, 10, 13, 255, 10, 48, 32, 111, 32, 53, 10]);
  const wire = Buffer.concat([
    Buffer.from("0 h 0\n"),
    data(1, "o", Buffer.from("HTTP/1.1 200 OK\r\n\r\n")),
    data(2, "o", binary),
    data(1, "e", Buffer.from("warn\n")),
    data(2, "o", Buffer.alloc(0)),
    Buffer.from("2 x 137\n"),
    data(1, "o", Buffer.from("body".repeat(50))),
    Buffer.from("1 x 0\n"),
  ]);

  function read(sizes: number): { out: Map<string, Buffer>; events: string[] } {
    const out = new Map<string, Buffer>();
    const events: string[] = [];
    const reader = new AgentFrameReader((id, kind, value, bytes) => {
      if (kind === "o" || kind === "e") out.set(`${id}${kind}`, Buffer.concat([out.get(`${id}${kind}`) ?? Buffer.alloc(0), bytes!]));
      else events.push(`${id} ${kind} ${value}`);
    });
    for (let i = 0; i < wire.length; i += sizes) reader.push(wire.subarray(i, i + sizes));
    return { out, events };
  }

  it("gives each job's stdout, stderr and status whole and split at every size", () => {
    for (const size of [wire.length, 1, 2, 3, 5, 7, 16, 64]) {
      const { out, events } = read(size);
      expect(out.get("1o")!.toString()).toBe("HTTP/1.1 200 OK\r\n\r\n" + "body".repeat(50));
      expect(out.get("2o")!.equals(binary)).toBe(true);
      expect(out.get("1e")!.toString()).toBe("warn\n");
      expect(events).toEqual(["0 h 0", "2 x 137", "1 x 0"]);
    }
  });

  it("refuses a line that is not a frame, quoting it", () => {
    const reader = new AgentFrameReader(() => undefined);
    expect(() => reader.push(Buffer.from("Traceback (most recent call last):\n"))).toThrow(/not a frame: "Traceback/);
  });
});
