import { describe, expect, it } from "vitest";
import {
  buildRawRequest,
  finalStatusLine,
  parseRawResponse,
  requestMethodOf,
  responseKeepsConnection,
  scanRawResponse,
} from "../../../harness/clients/parse-raw-response.ts";
import { plan } from "./servers.ts";

const bytes = (text: string) => Buffer.from(text, "latin1");

describe("parseRawResponse", () => {
  it("parses status, version, reason, headers in order with duplicates and case, and a Content-Length body", () => {
    const parsed = parseRawResponse(bytes("HTTP/1.1 404 Not Found\r\nX-B: 1\r\nx-a:2 \r\nX-B:\t3\r\nContent-Length: 4\r\n\r\nnopeEXTRA"));
    expect(parsed).toEqual({
      status: 404,
      httpVersion: "1.1",
      reason: "Not Found",
      headers: [
        ["X-B", "1"],
        ["x-a", "2"],
        ["X-B", "3"],
        ["Content-Length", "4"],
      ],
      body: Buffer.from("nope"),
      complete: true,
      interim: [],
    });
  });

  it("de-chunks, ignoring extensions and trailers", () => {
    const parsed = parseRawResponse(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;a=b\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: t\r\n\r\n"));
    expect(parsed?.body.toString()).toBe("Wikipedia in\r\n\r\nchunks.");
    expect(parsed?.complete).toBe(true);
    expect(parsed?.headers).toEqual([["Transfer-Encoding", "chunked"]]);
  });

  it("skips 1xx interim responses (100 Continue, 102, 103) and keeps the final one", () => {
    const parsed = parseRawResponse(
      bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"),
    );
    expect(parsed?.status).toBe(201);
    expect(parsed?.interim).toEqual([100, 103]);
    expect(parsed?.headers).toEqual([["Content-Length", "2"]]);
    expect(parsed?.body.toString()).toBe("ok");
  });

  it("reads a body without length to the end of the bytes", () => {
    const parsed = parseRawResponse(bytes("HTTP/1.0 200 OK\r\nServer: x\r\n\r\nall of it"));
    expect(parsed?.httpVersion).toBe("1.0");
    expect(parsed?.body.toString()).toBe("all of it");
    expect(parsed?.complete).toBe(true);
  });

  it("has no body for HEAD, 204 and 304", () => {
    expect(parseRawResponse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"), { requestMethod: "HEAD" })?.complete).toBe(true);
    expect(parseRawResponse(bytes("HTTP/1.1 204 No Content\r\n\r\n"))?.body.length).toBe(0);
    expect(parseRawResponse(bytes("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"))?.complete).toBe(true);
  });

  it("returns a body cut short with complete: false", () => {
    const parsed = parseRawResponse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
    expect(parsed?.complete).toBe(false);
    expect(parsed?.body.toString()).toBe("abc");
    const chunked = parseRawResponse(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n"));
    expect(chunked?.complete).toBe(false);
    expect(chunked?.body.toString()).toBe("abc");
  });

  it("accepts bare LF line ends and folded header lines", () => {
    const parsed = parseRawResponse(bytes("HTTP/1.1 200 OK\nX-Long: one\n  two\nContent-Length: 1\n\nz"));
    expect(parsed?.headers).toEqual([
      ["X-Long", "one two"],
      ["Content-Length", "1"],
    ]);
    expect(parsed?.body.toString()).toBe("z");
  });

  it("is null for bytes that are not an HTTP response head", () => {
    expect(parseRawResponse(bytes("<html>HTTP/0.9 style</html>"))).toBeNull();
    expect(parseRawResponse(bytes("HTTP/1.1 200 OK\r\nNo-End"))).toBeNull();
    expect(parseRawResponse(Buffer.alloc(0))).toBeNull();
  });
});

describe("scanRawResponse", () => {
  it("is incomplete until the framing says the response is complete, with the end offset", () => {
    const full = bytes("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcNEXT");
    expect(scanRawResponse(full.subarray(0, 10)).state).toBe("incomplete");
    const partial = scanRawResponse(full.subarray(0, 40));
    expect(partial).toMatchObject({ state: "incomplete", needBytes: 41 });
    const complete = scanRawResponse(full);
    expect(complete).toMatchObject({ state: "complete", end: 41 });
  });

  it("needs the server's close to end a body without length", () => {
    const head = bytes("HTTP/1.1 200 OK\r\n\r\nsome");
    expect(scanRawResponse(head).state).toBe("incomplete");
    expect(scanRawResponse(head, { eof: true }).state).toBe("complete");
  });

  it("gives llhttp-style codes for invalid bytes, as soon as they are seen", () => {
    const code = (text: string) => {
      const scan = scanRawResponse(bytes(text));
      return scan.state === "invalid" ? scan.code : scan.state;
    };
    expect(code("garbage")).toBe("HPE_INVALID_CONSTANT");
    expect(code("HTTP/1.1 2x0 OK\r\n")).toBe("HPE_INVALID_STATUS");
    expect(code("HTTP/one 200 OK\r\n")).toBe("HPE_INVALID_VERSION");
    expect(code("HTTP/1.1 200 OK\r\nBad Name: v\r\n")).toBe("HPE_INVALID_HEADER_TOKEN");
    expect(code("HTTP/1.1 200 OK\r\nNoColon\r\n")).toBe("HPE_INVALID_HEADER_TOKEN");
    expect(code("HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n")).toBe("HPE_INVALID_CONTENT_LENGTH");
    expect(code("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")).toBe("HPE_UNEXPECTED_CONTENT_LENGTH");
    expect(code("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")).toBe("HPE_INVALID_CHUNK_SIZE");
    expect(code("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc")).toBe("HPE_INVALID_CHUNK_SIZE");
    expect(code("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx")).toBe("complete");
  });
});

describe("finalStatusLine", () => {
  it("finds the final status line after interim ones, whatever the headers", () => {
    expect(finalStatusLine(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\nBad Header: x\r\n\r\n"))).toEqual({ httpVersion: "1.0", status: 200 });
    expect(finalStatusLine(bytes("HTTP/1.1 103 Early\r\nLink: x\r\n"))).toBeNull();
    expect(finalStatusLine(bytes("nope\r\n"))).toBeNull();
  });
});

describe("responseKeepsConnection", () => {
  it("follows Connection and the version", () => {
    expect(responseKeepsConnection({ httpVersion: "1.1", headers: [] })).toBe(true);
    expect(responseKeepsConnection({ httpVersion: "1.1", headers: [["Connection", "Close"]] })).toBe(false);
    expect(responseKeepsConnection({ httpVersion: "1.0", headers: [] })).toBe(false);
    expect(responseKeepsConnection({ httpVersion: "1.0", headers: [["connection", "Keep-Alive"]] })).toBe(true);
  });
});

describe("buildRawRequest", () => {
  it("builds what undici would send, with the plan's headers in order", () => {
    const request = buildRawRequest(
      plan(8080, {
        method: "POST",
        path: "/p?q",
        auth: { user: "u", password: "p" },
        headers: [
          ["X-Two", "2"],
          ["x-one", "1"],
          ["X-Two", "3"],
        ],
        body: "é",
      }),
    );
    expect(request.toString("utf8")).toBe(
      "POST /p?q HTTP/1.1\r\nhost: 127.0.0.1:8080\r\nconnection: keep-alive\r\nauthorization: Basic dTpw\r\nX-Two: 2\r\nx-one: 1\r\nX-Two: 3\r\ncontent-length: 2\r\n\r\né",
    );
  });

  it("HTTP/1.0 has no connection header unless keep-alive is wanted; Host override; plan framing headers win", () => {
    expect(buildRawRequest(plan(80, { httpVersion: "1.0", hostHeader: "v.test" })).toString()).toBe("GET / HTTP/1.0\r\nhost: v.test\r\n\r\n");
    expect(buildRawRequest(plan(80, { httpVersion: "1.0", keepAliveRequests: 2 })).toString()).toBe(
      "GET / HTTP/1.0\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n",
    );
    expect(
      buildRawRequest(plan(81, { method: "PUT", headers: [["Transfer-Encoding", "chunked"], ["Host", "h"], ["Connection", "close"]], body: "0\r\n\r\n" })).toString(),
    ).toBe("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: h\r\nConnection: close\r\n\r\n0\r\n\r\n");
  });

  it("sends content-length: 0 for PUT/POST without a body, nothing for GET", () => {
    expect(buildRawRequest(plan(80, { method: "POST" })).toString()).toContain("content-length: 0\r\n");
    expect(buildRawRequest(plan(80, { method: "GET", body: "" })).toString()).not.toContain("content-length");
  });

  it("uses brackets for an IPv6 target in the default Host", () => {
    expect(buildRawRequest(plan(8443, { target: { host: "::1", port: 8443, tls: true } })).toString()).toContain("host: [::1]:8443\r\n");
  });
});

describe("requestMethodOf", () => {
  it("reads the first token", () => {
    expect(requestMethodOf(Buffer.from("HEAD / HTTP/1.1\r\n"))).toBe("HEAD");
    expect(requestMethodOf(Buffer.from("\r\n"))).toBe("GET");
  });
});
