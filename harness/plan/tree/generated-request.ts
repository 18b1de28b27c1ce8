// A plain HTTP request the harness makes up for a config tree (smoke requests, probes): no scenario file wrote
// it, so it states no expectation and takes every optional part at its default.
import type { RequestSpec } from "../../scenario/scenario.ts";

export type GeneratedRequestFields = Pick<RequestSpec, "at" | "name" | "client" | "method" | "path" | "host" | "port" | "tls" | "timeoutMs" | "repeat">
  & Partial<Pick<RequestSpec, "auth" | "body">>;

export function generatedRequest(fields: GeneratedRequestFields): RequestSpec {
  return {
    mode: "http",
    headers: [],
    body: null,
    auth: null,
    clientCertificate: null,
    httpVersion: "1.1",
    raw: null,
    trickleMs: null,
    exec: null,
    keepAliveRequests: 1,
    expect: {},
    guide: {},
    ...fields,
  };
}
