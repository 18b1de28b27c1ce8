// curl --digest -i writes the challenge's head (its body skipped) before the answer to the retry: the head is
// dropped when another response follows, kept when the 401 is the answer, and bytes split anywhere give the same.
import { describe, expect, it } from "vitest";
import { DigestChallengeFilter } from "../../../harness/clients/digest-challenge.ts";
import { digestAuthorization, parseDigestChallenge } from "../../../harness/clients/digest-auth.ts";

const CHALLENGE = 'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Digest realm="dig", nonce="abc", algorithm=MD5, qop="auth"\r\nContent-Length: 421\r\n\r\n';
const OK = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndig\n";
const REFUSED = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"b\"\r\nContent-Length: 5\r\n\r\nnope\n";

function through(bytes: string, step: number): { out: string; dropped: boolean } {
  const filter = new DigestChallengeFilter();
  const parts: Buffer[] = [];
  const data = Buffer.from(bytes, "latin1");
  for (let i = 0; i < data.length; i += step) parts.push(...filter.push(data.subarray(i, i + step)));
  parts.push(...filter.finish());
  return { out: Buffer.concat(parts).toString("latin1"), dropped: filter.dropped };
}

describe("DigestChallengeFilter", () => {
  for (const step of [1, 3, 7, 1000]) {
    it(`drops the challenge's head before the retry's answer (chunks of ${step})`, () => {
      expect(through(CHALLENGE + OK, step)).toEqual({ out: OK, dropped: true });
    });
    it(`keeps a 401 that is the answer, and any answer without a Digest challenge (chunks of ${step})`, () => {
      expect(through(`${CHALLENGE}<html>401 page</html>`, step)).toEqual({ out: `${CHALLENGE}<html>401 page</html>`, dropped: false });
      expect(through(REFUSED, step)).toEqual({ out: REFUSED, dropped: false });
      expect(through(OK, step)).toEqual({ out: OK, dropped: false });
    });
  }
});

describe("digestAuthorization", () => {
  it("answers a qop=auth challenge as RFC 2617's worked example does", () => {
    // RFC 2617 section 3.5: Mufasa, "Circle Of Life", realm testrealm@host.com.
    const challenge = parseDigestChallenge('Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"')!;
    const value = digestAuthorization(challenge, { method: "GET", uri: "/dir/index.html", user: "Mufasa", password: "Circle Of Life" }, "0a4f113b");
    expect(value).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(value).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
    expect(parseDigestChallenge('Basic realm="x"')).toBeNull();
  });
});
