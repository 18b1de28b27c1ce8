import { describe, expect, it } from "vitest";
import { findKnownDifference, type KnownDifferenceContext } from "../../../harness/judge/known-differences.ts";
import { BACKEND_BODY, ETAGS, F_TXT_HEADERS, PROXY_ERROR_BODY_24, forbiddenBody } from "../../fixtures/observations/recorded.ts";

/** A 2.2 baseline against a 2.4 candidate with these statuses. */
const statuses = (baselineStatus: number | null, candidateStatus: number | null = baselineStatus): KnownDifferenceContext => ({
  baselineStatus,
  candidateStatus,
  baselineFamily: "2.2",
  candidateFamily: "2.4",
});

/** The rule that covers a difference, as id, class and seed; null when none does. */
function known(field: string, baseline: string | null, candidate: string | null, context = statuses(200)) {
  const rule = findKnownDifference(field, baseline, candidate, context);
  return rule ? { id: rule.id, class: rule.class, seed: rule.seed } : null;
}

describe("the recorded bodies these rules are checked on", () => {
  it("have the byte lengths the recorded access logs give", () => {
    expect({
      forbidden22x: Buffer.byteLength(forbiddenBody("2.2", "/x")),
      forbidden22status: Buffer.byteLength(forbiddenBody("2.2", "/server-status")),
      forbidden24: Buffer.byteLength(forbiddenBody("2.4", "/server-status")),
      proxyError24: Buffer.byteLength(PROXY_ERROR_BODY_24),
      backend: Buffer.byteLength(BACKEND_BODY),
    }).toEqual({ forbidden22x: 203, forbidden22status: 215, forbidden24: 199, proxyError24: 273, backend: 19 });
  });
});

describe("findKnownDifference", () => {
  it("takes weak ETags of the D3 shape on both sides (files younger than a second) for D3, but not strong against weak", () => {
    expect(known("header:etag", 'W/"216266-b-660d105d79f91"', 'W/"b-660d105d79f91"')).toEqual({ id: "etag-without-inode", class: "expected-change", seed: ["D3"] });
    expect(known("header:etag", '"216266-b-660d105d79f91"', 'W/"b-660d105d79f91"')).toBeNull();
  });

  it("takes the Date and Server headers for noise whatever their values", () => {
    const [date22, server22] = F_TXT_HEADERS["2.2"];
    const [date24, server24] = F_TXT_HEADERS["2.4"];
    expect([known("header:date", date22![1], date24![1]), known("header:server", server22![1], server24![1]), known("header:server", "Apache", null)]).toEqual([
      { id: "clock", class: "noise", seed: [] },
      { id: "version-banner", class: "noise", seed: [] },
      { id: "version-banner", class: "noise", seed: [] },
    ]);
  });

  it("takes the ETag without the inode part, same size and mtime, for the D3 change (case f)", () => {
    expect([known("header:etag", ETAGS.fTxt22, ETAGS.fTxt24), known("header:etag", ETAGS.index22, ETAGS.index24)]).toEqual([
      { id: "etag-without-inode", class: "expected-change", seed: ["D3"] },
      { id: "etag-without-inode", class: "expected-change", seed: ["D3"] },
    ]);
  });

  it("applies the ETag rule only from a 2.2 baseline to a 2.4 candidate, not between two 2.4 sides or back to 2.2", () => {
    const between = (baselineFamily: "2.2" | "2.4", candidateFamily: "2.2" | "2.4") => ({ ...statuses(200), baselineFamily, candidateFamily });
    expect([
      known("header:etag", ETAGS.fTxt22, ETAGS.fTxt24, between("2.2", "2.4")),
      known("header:etag", ETAGS.fTxt22, ETAGS.fTxt24, between("2.4", "2.4")),
      known("header:etag", ETAGS.fTxt22, ETAGS.fTxt24, between("2.2", "2.2")),
      known("header:etag", ETAGS.fTxt22, ETAGS.fTxt24, between("2.4", "2.2")),
    ]).toEqual([{ id: "etag-without-inode", class: "expected-change", seed: ["D3"] }, null, null, null]);
  });

  it("applies the rules without a `between` whatever the families (Date, Server, error documents)", () => {
    const same24 = { ...statuses(403), baselineFamily: "2.4" as const, candidateFamily: "2.4" as const };
    expect([
      known("header:date", "a", "b", same24)?.id,
      known("header:server", "Apache/2.4.62", "Apache/2.4.68", same24)?.id,
      known("body", forbiddenBody("2.4", "/x").replace("this resource", "it"), forbiddenBody("2.4", "/x"), same24)?.id,
    ]).toEqual(["clock", "version-banner", "error-document-wording"]);
  });

  it("takes the same config-test messages worded each version's way for noise (AH00558, the guessed address), not a new message", () => {
    const ctx = { baselineStatus: null, candidateStatus: null, baselineFamily: "2.2" as const, candidateFamily: "2.4" as const };
    const old = "ok\nhttpd: Could not reliably determine the server's fully qualified domain name, using 192.168.0.3 for ServerName\nSyntax OK";
    const next = "ok\nAH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 192.168.0.2. Set the 'ServerName' directive globally to suppress this message\nSyntax OK";
    expect(findKnownDifference("configTest", old, next, ctx)?.id).toBe("config-test-wording");
    expect(findKnownDifference("configTest", old, next.replace("Syntax OK", "AH00117: Ignoring deprecated use of DefaultType\nSyntax OK"), ctx)).toBeUndefined();
    expect(findKnownDifference("configTest", old, next.replace("ok\n", "failed\n"), ctx)).toBeUndefined();
  });

  it("takes a redirect to each side's own published port for noise, not one to another path", () => {
    const ctx = { baselineStatus: 301, candidateStatus: 301, baselineFamily: "2.2" as const, candidateFamily: "2.4" as const };
    expect(findKnownDifference("header:location", "http://127.0.0.1:33904/index.html", "http://127.0.0.1:33903/index.html", ctx)?.id).toBe("published-port");
    expect(findKnownDifference("header:location", "http://127.0.0.1:33904/a", "http://127.0.0.1:33903/b", ctx)).toBeUndefined();
    expect(findKnownDifference("header:location", "http://example.test:81/a", "http://example.test:82/a", ctx)).toBeUndefined();
  });

  it("accepts 2.4's -gzip suffix on the ETag of a compressed answer", () => {
    expect(known("header:etag", ETAGS.fTxt22, '"b-660d105d79f91-gzip"')).toEqual({ id: "etag-without-inode", class: "expected-change", seed: ["D3"] });
  });

  it("covers no other ETag difference: another size or mtime, a weak tag, the inode still there, one side without ETag", () => {
    expect([
      known("header:etag", ETAGS.fTxt22, ETAGS.index24), // another file's size
      known("header:etag", ETAGS.fTxt22, '"b-660d105d79f92"'), // another mtime
      known("header:etag", ETAGS.fTxt22, 'W/"b-660d105d79f91"'),
      known("header:etag", ETAGS.fTxt22, '"216267-b-660d105d79f91"'), // FileETag All on 2.4, another inode
      known("header:etag", ETAGS.fTxt22, null),
      known("header:etag", null, ETAGS.fTxt24),
      known("header:etag", ETAGS.fTxt24, ETAGS.fTxt22), // the other way round
    ]).toEqual([null, null, null, null, null, null, null]);
  });

  it("takes the reworded built-in error or redirect document for noise when both sides answer the same status", () => {
    const rule = { id: "error-document-wording", class: "noise", seed: [] };
    expect(known("body", forbiddenBody("2.2", "/server-status"), forbiddenBody("2.4", "/server-status"), statuses(403))).toEqual(rule);
    const found22 = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>302 Found</title>\n</head><body>\n<h1>Found</h1>\n<p>The document has moved <a href="http://localhost/b">here</a>.</p>\n<hr>\n<address>Apache/2.2.34 (Unix) Server at localhost Port 80</address>\n</body></html>\n';
    const found24 = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>302 Found</title>\n</head><body>\n<h1>Found</h1>\n<p>The document has moved <a href="http://localhost/b">here</a>.</p>\n</body></html>\n';
    expect(known("body", found22, found24, statuses(302))).toEqual(rule);
  });

  it("does not cover a body difference when the statuses differ, are not errors, or a body is not an error document", () => {
    expect([
      known("body", forbiddenBody("2.2", "/x"), forbiddenBody("2.4", "/x"), statuses(403, 500)),
      known("body", forbiddenBody("2.2", "/x"), forbiddenBody("2.4", "/x"), statuses(200)),
      known("body", forbiddenBody("2.2", "/x"), forbiddenBody("2.4", "/x"), statuses(null)),
      // Case c1: 200 with the backend's body vs the proxy's 500 document.
      known("body", BACKEND_BODY, PROXY_ERROR_BODY_24, statuses(500)),
      known("body", "<h1>custom denied page</h1>", forbiddenBody("2.4", "/x"), statuses(403)),
    ]).toEqual([null, null, null, null, null]);
  });

  it("matches fields exactly, so a rule for one header covers no other", () => {
    expect([known("header:etag-extra", ETAGS.fTxt22, ETAGS.fTxt24), known("header:dates", "a", "b"), known("status", "200", "500")]).toEqual([null, null, null]);
  });
});
