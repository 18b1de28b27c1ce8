// A file's lines read a chunk at a time, each with its place (byte offset and length, without its newline): a fleet's
// journal is tens of MB at a thousand configs, and neither its reports nor a resumed run need it whole in memory. A
// last piece without its newline (a line a crash cut short) is not a line.
import { closeSync, openSync, readSync } from "node:fs";

const CHUNK = 1 << 20;

/** Where a line is in its file. */
export interface LinePlace {
  offset: number;
  length: number;
}

/** Every line of the file with its place, read a chunk at a time. */
export function* fileLines(path: string): Generator<{ line: string; place: LinePlace }> {
  const fd = openSync(path, "r");
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let offset = 0;
    const chunk = Buffer.alloc(CHUNK);
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK, null);
      if (read === 0) break;
      let start = 0;
      for (let end = chunk.indexOf(10, start); end >= 0 && end < read; end = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, end);
        const line = pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]);
        yield { line: line.toString("utf8"), place: { offset, length: line.length } };
        offset += line.length + 1;
        pending = [];
        pendingBytes = 0;
        start = end + 1;
      }
      if (start < read) {
        pending.push(Buffer.from(chunk.subarray(start, read)));
        pendingBytes += read - start;
      }
    }
  } finally {
    closeSync(fd);
  }
}

