// Pure: the batches a variant's requests (prove's mutants, observe-side.ts observeVariants) are sent in. A variant's
// requests come in the probes' order, each probe's clients one after another (localhost, localhost6, outsider,
// localhost, ...), so batches of one client's consecutive requests (request-batches.ts) hold one request each, and
// every request paid a round trip to its client. Here a batch takes every later request of the same sender that
// may go before the requests it passes:
// - a sender is the client container that sends (localhost and localhost6 are both the local client's); a request
//   no batch can carry (raw, exec, the host's, a client certificate) goes alone, and nothing passes it;
// - a request never passes one for the same resource (its scheme and its path without the query, case folded;
//   method, host and port aside: UseCanonicalName can make one URL of several), so whatever an earlier request can
//   leave behind for the same URL (a cached answer: mod_cache's key holds the scheme) is there as before; requests
//   for other resources do not see each other's answers;
// - batches go one after another, never at once: the server sees one request at a time, as before, so a
//   scoreboard or a balancer's turn never sees two of them in flight.
// No answer is attributed by order or by the log here: each batch record names its request (clients/client-batch.ts).

export function variantBatches<R>(
  requests: readonly R[],
  /** Who sends it in a batch; null: it goes alone. */
  senderOf: (request: R) => string | null,
  /** What it asks for: requests for the same resource keep their order. */
  resourceOf: (request: R) => string,
  limit: number,
): R[][] {
  const batches: R[][] = [];
  let remaining = requests.map((request) => ({ request, sender: senderOf(request), resource: resourceOf(request) }));
  while (remaining.length > 0) {
    const first = remaining[0]!;
    if (first.sender === null) {
      batches.push([first.request]);
      remaining = remaining.slice(1);
      continue;
    }
    const taken = new Set([0]);
    // Resources of the requests left behind so far: a later request for one of them stays behind it.
    const passed = new Set<string>();
    for (let i = 1; i < remaining.length && taken.size < limit; i++) {
      const next = remaining[i]!;
      if (next.sender === null) break;
      if (next.sender === first.sender && !passed.has(next.resource)) taken.add(i);
      else passed.add(next.resource);
    }
    batches.push([...taken].map((i) => remaining[i]!.request));
    remaining = remaining.filter((_, i) => !taken.has(i));
  }
  return batches;
}

/** Pure: a request's resource for variantBatches: its scheme and its path without the query, case folded (a server
 * may fold it). */
export function requestResource(request: { tls: boolean; path: string }): string {
  const query = request.path.indexOf("?");
  return `${request.tls ? "https" : "http"} ${(query < 0 ? request.path : request.path.slice(0, query)).toLowerCase()}`;
}
