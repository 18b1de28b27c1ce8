// The incremental response parser: any split of the bytes gives what the whole gives, and each byte is looked
// at once (no re-scan from byte 0 as bytes arrive), with only an unfinished line held.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ResponseParser } from "../../../harness/clients/response-parser.ts";

const bytes = (text: string) => Buffer.from(text, "latin1");

/** A small deterministic generator, so that a failing split can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function splits(data: Buffer, next: () => number, maxPart: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; ) {
    const size = 1 + Math.floor(next() * maxPart);
    parts.push(data.subarray(i, i + size));
    i += size;
  }
  return parts;
}

function parse(parts: Buffer[], options: { requestMethod?: string; eof?: boolean } = {}) {
  const body: Buffer[] = [];
  const parser = new ResponseParser({ requestMethod: options.requestMethod ?? "GET", onBody: (chunk) => body.push(Buffer.from(chunk)) });
  for (const part of parts) parser.push(part);
  if (options.eof) parser.finish();
  const error = parser.error;
  return {
    head: parser.head,
    body: Buffer.concat(body).toString("latin1"),
    complete: parser.complete,
    end: parser.end,
    error: error && { code: error.code, offset: error.offset },
    needBytes: parser.needBytes,
  };
}

const samples: Array<{ name: string; text: string; method?: string; eof?: boolean }> = [
  { name: "content-length with extra bytes after", text: "HTTP/1.1 404 Not Found\r\nX-B: 1\r\nx-a:2 \r\nX-B:\t3\r\nContent-Length: 4\r\n\r\nnopeEXTRA" },
  {
    name: "chunked with extensions and trailers",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;a=b\r\nWiki\r\n5;x;y=\"q\"\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0;last\r\nX-Trailer: t\r\nY: u\r\n\r\nNEXT",
  },
  { name: "chunked with bare LF", text: "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n" },
  { name: "interim answers", text: "\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok" },
  { name: "until close", text: "HTTP/1.0 200 OK\r\nServer: x\r\n\r\nall of it", eof: true },
  { name: "until close, not yet closed", text: "HTTP/1.0 200 OK\r\nServer: x\r\n\r\nall of it" },
  { name: "HEAD", text: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", method: "HEAD" },
  { name: "folded header", text: "HTTP/1.1 200 OK\nX-Long: one\n  two\nContent-Length: 1\n\nz" },
  { name: "cut short", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n" },
  { name: "invalid header", text: "HTTP/1.1 200 OK\r\nBad Name: v\r\n\r\n" },
  { name: "invalid chunk end", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc" },
  { name: "invalid chunk end after CR", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\rX" },
  { name: "conflicting lengths", text: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n" },
  { name: "not HTTP", text: "garbage" },
];

describe("ResponseParser", () => {
  for (const sample of samples) {
    it(`gives the same result whole, byte by byte and in random splits: ${sample.name}`, () => {
      const data = bytes(sample.text);
      const options = { requestMethod: sample.method ?? "GET", eof: sample.eof ?? false };
      const whole = parse([data], options);
      expect(parse(splits(data, () => 0, 1), options)).toEqual(whole);
      const next = random(sample.text.length);
      for (let round = 0; round < 50; round++) expect(parse(splits(data, next, 8), options)).toEqual(whole);
    });
  }

  it("de-chunks, skipping extensions and trailers, and ends where the response ends", () => {
    const sample = samples[1]!;
    const result = parse([bytes(sample.text)]);
    expect(result.body).toBe("Wikipedia in\r\n\r\nchunks.");
    expect(result.complete).toBe(true);
    expect(result.end).toBe(sample.text.length - "NEXT".length);
    expect(result.head?.headers).toEqual([["Transfer-Encoding", "chunked"]]);
  });

  it("looks at each byte once and holds no more than a line, however a large chunked body is split", () => {
    // 20 MiB of body in chunks of varied sizes, with extensions, fed in pieces of 1 byte to 64 KiB.
    const next = random(7);
    const frames: Buffer[] = [bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")];
    const hash = createHash("sha256");
    let bodyBytes = 0;
    while (bodyBytes < 20 * 1024 * 1024) {
      const size = 1 + Math.floor(next() * 200_000);
      const data = Buffer.alloc(size, bodyBytes % 251);
      hash.update(data);
      bodyBytes += size;
      frames.push(bytes(`${size.toString(16)};n=${size}\r\n`), data, bytes("\r\n"));
    }
    frames.push(bytes("0\r\nTrailer: x\r\n\r\n"));
    const wire = Buffer.concat(frames);

    const got = createHash("sha256");
    const parser = new ResponseParser({ onBody: (chunk) => got.update(chunk) });
    let pushed = 0;
    let maxBuffered = 0;
    let pieces = 0;
    for (let i = 0; i < wire.length; ) {
      // Mostly large pieces, with runs of tiny ones (a slow network) in between.
      const max = next() < 0.1 ? 16 : 64 * 1024;
      const piece = wire.subarray(i, i + 1 + Math.floor(next() * max));
      parser.push(piece);
      i += piece.length;
      pushed += piece.length;
      pieces++;
      maxBuffered = Math.max(maxBuffered, parser.bufferedBytes);
      // Never more bytes looked at than were pushed: nothing is looked at twice.
      expect(parser.examined).toBeLessThanOrEqual(pushed);
    }
    expect(pieces).toBeGreaterThan(300);
    expect(parser.complete).toBe(true);
    expect(parser.end).toBe(wire.length);
    expect(parser.examined).toBe(wire.length);
    expect(parser.bodyBytes).toBe(bodyBytes);
    expect(got.digest("hex")).toBe(hash.digest("hex"));
    // An unfinished chunk-size line and the first bytes of the head: far below the body's size.
    expect(maxBuffered).toBeLessThan(1024);
  });

  it("holds a Content-Length body nowhere: it goes to onBody as views of the pushed chunks", () => {
    const head = bytes("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n");
    const parser = new ResponseParser({});
    parser.push(head);
    for (let i = 0; i < 1000; i++) parser.push(Buffer.alloc(1000, 1));
    expect(parser.complete).toBe(true);
    expect(parser.bodyBytes).toBe(1_000_000);
    expect(parser.bufferedBytes).toBeLessThan(1024);
    expect(parser.examined).toBe(head.length + 1_000_000);
  });

  it("refuses a head or a chunk-size line that grows without end instead of holding it", () => {
    const parser = new ResponseParser({});
    parser.push(bytes("HTTP/1.1 200 OK\r\nX: "));
    for (let i = 0; i < 300 && !parser.error; i++) parser.push(Buffer.alloc(1024, 0x61));
    expect(parser.error?.code).toBe("HPE_HEADER_OVERFLOW");
    expect(parser.bufferedBytes).toBeLessThan(300 * 1024);

    const chunked = new ResponseParser({});
    chunked.push(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;"));
    for (let i = 0; i < 300 && !chunked.error; i++) chunked.push(Buffer.alloc(1024, 0x61));
    expect(chunked.error?.code).toBe("HPE_INVALID_CHUNK_SIZE");
  });
});
