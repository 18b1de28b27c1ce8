// Pure: which requests go in one batch (one exec, clients/client-batch.ts): a run of consecutive requests of one
// client, each of which a batch can carry, at most `limit` long. Order is never changed: a request of another
// client, or one that must go alone (raw, exec, a keep-alive series, a client certificate, the host client), ends
// the run.
export function nextBatch<R extends { client: string }>(requests: readonly R[], start: number, canBatch: (request: R) => boolean, limit: number): R[] {
  const first = requests[start];
  const batch: R[] = [];
  if (first === undefined) return batch;
  for (let i = start; i < requests.length && batch.length < limit; i++) {
    const request = requests[i]!;
    if (request.client !== first.client || !canBatch(request)) break;
    batch.push(request);
  }
  return batch;
}
