// The batches a mutant's requests go in (observe/variant-batches.ts): as few per sender as the order allows, where no
// request passes another for the same resource, nor one that goes alone.
import { describe, expect, it } from "vitest";
import { requestResource, variantBatches } from "../../../harness/observe/variant-batches.ts";

interface R {
  name: string;
  sender: string | null;
  path: string;
  tls?: boolean;
}
const r = (name: string, sender: string | null, path: string, tls = false): R => ({ name, sender, path, tls });
const batches = (requests: readonly R[], limit = 100) =>
  variantBatches(requests, (q) => q.sender, (q) => requestResource({ tls: q.tls ?? false, path: q.path }), limit).map((batch) => batch.map((q) => q.name));

/** Whether every two requests for one resource are sent in their planned order. */
function keepsResourceOrder(requests: readonly R[], sent: readonly string[][]): boolean {
  const at = new Map(sent.flat().map((name, index) => [name, index]));
  return requests.every((a, i) => requests.slice(i + 1).every((b) => requestResource({ tls: a.tls ?? false, path: a.path }) !== requestResource({ tls: b.tls ?? false, path: b.path }) || at.get(a.name)! < at.get(b.name)!));
}

describe("a mutant's request batches", () => {
  it("gathers each sender's requests when the probes' clients take turns, every one sent once", () => {
    // A probe's clients one after another, probe after probe: the order the plan gives.
    const requests = [r("p1-lo", "local", "/a"), r("p1-lo6", "local", "/a"), r("p1-out", "outsider", "/a"), r("p2-lo", "local", "/b"), r("p2-lo6", "local", "/b"), r("p2-out", "outsider", "/b")];
    const sent = batches(requests);
    expect(sent).toEqual([["p1-lo", "p1-lo6", "p2-lo", "p2-lo6"], ["p1-out", "p2-out"]]);
    expect(keepsResourceOrder(requests, sent)).toBe(true);
  });

  it("never sends a request before an earlier one of another sender for the same resource", () => {
    // /a's outsider request came before the local client's second /a request: that one waits for it.
    const requests = [r("lo-a", "local", "/a"), r("out-a", "outsider", "/a"), r("lo-a2", "local", "/a?x=1"), r("lo-b", "local", "/b")];
    const sent = batches(requests);
    expect(sent).toEqual([["lo-a", "lo-b"], ["out-a"], ["lo-a2"]]);
    expect(keepsResourceOrder(requests, sent)).toBe(true);
  });

  it("tells resources apart by scheme and path, not by case or query", () => {
    expect(requestResource({ tls: false, path: "/Admin/x.cgi?q=1" })).toBe(requestResource({ tls: false, path: "/admin/X.CGI" }));
    expect(requestResource({ tls: true, path: "/a" })).not.toBe(requestResource({ tls: false, path: "/a" }));
    // The same path over https may pass the outsider's plain http request.
    expect(batches([r("lo", "local", "/a"), r("out", "outsider", "/a"), r("lo-tls", "local", "/a", true)])).toEqual([["lo", "lo-tls"], ["out"]]);
  });

  it("sends a request that goes alone on its own, and lets nothing pass it", () => {
    const requests = [r("lo-a", "local", "/a"), r("raw", null, "/raw"), r("lo-b", "local", "/b"), r("out-c", "outsider", "/c"), r("lo-d", "local", "/d")];
    expect(batches(requests)).toEqual([["lo-a"], ["raw"], ["lo-b", "lo-d"], ["out-c"]]);
  });

  it("keeps a batch to the limit and sends the rest in the next, in order", () => {
    const requests = Array.from({ length: 5 }, (_, i) => r(`lo-${i}`, "local", `/${i}`));
    expect(batches(requests, 2)).toEqual([["lo-0", "lo-1"], ["lo-2", "lo-3"], ["lo-4"]]);
  });

  it("keeps the order of same-resource requests in any mix of senders (every order of a small set)", () => {
    const senders = ["local", "outsider", null] as const;
    const paths = ["/a", "/b"];
    // Every sequence of 4 requests over 3 senders and 2 paths.
    for (let code = 0; code < 6 ** 4; code++) {
      const requests: R[] = [];
      let rest = code;
      for (let i = 0; i < 4; i++) {
        const pick = rest % 6;
        rest = Math.floor(rest / 6);
        requests.push(r(`q${i}`, senders[pick % 3]!, paths[Math.floor(pick / 3)]!));
      }
      const sent = batches(requests);
      expect(sent.flat().sort()).toEqual(requests.map((q) => q.name).sort());
      expect(keepsResourceOrder(requests, sent)).toBe(true);
      // One sender per batch; a request that goes alone is a batch of its own, in its place among the others.
      for (const batch of sent) expect(new Set(batch.map((name) => requests.find((q) => q.name === name)!.sender)).size).toBe(1);
      const order = sent.flat();
      requests.forEach((q, i) => {
        if (q.sender !== null) return;
        expect(order.indexOf(q.name)).toBe(i);
      });
    }
  });
});
