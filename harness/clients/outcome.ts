// What a client records of one exchange: an answer, or how the transport failed. Data only; judge/ decides what
// it means.

export interface HttpResponseOutcome {
  kind: "response";
  status: number;
  httpVersion: string;
  /** In the order received, names as sent, duplicates kept. */
  headers: Array<[string, string]>;
  /** The body as text (latin1 for binary), cut at the runner's limit. */
  body: string;
  bodyBytes: number;
  bodySha256: string;
  /** For keep-alive checks: whether this response came on a connection an earlier one of the entry used. */
  connectionReused?: boolean;
  /** A Digest request: the server challenged it first, so it went twice (and was logged twice). */
  challenged?: boolean;
  durationMs: number;
}

export interface TransportFailureOutcome {
  kind: "transport-error";
  /** ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT, TIMEOUT, HPE_INVALID_CONSTANT ... */
  code: string;
  message: string;
  durationMs: number;
}
