// Pure: the client connection an error-log line names, for placing the line on the request that opened it
// (observe/send-attribution.ts, observe/batch-attribution.ts). Only 2.4 writes one: `[client 172.18.0.1:45410]`,
// an IPv6 address without brackets (`[client 2001:db8:77::5:40001]`, `[client ::1:39312]`), the port always
// appended, on request and connection lines alike. 2.2 writes `[client 172.17.0.1]` and `[client ::1]` with no
// port: a line of its dialect names no connection, whatever its last group looks like (`::5` is no port 5).
// `[remote ...]` is not the client's: 2.4 writes it for a connection without a scoreboard handle, mod_proxy's
// backend connection, whose address and port are the backend's.
import type { ErrorLogDialect } from "./error-log-record.ts";

export interface ClientConnection {
  /** As the server wrote it, without brackets, an IPv4-mapped IPv6 address as its IPv4 one. */
  address: string;
  port: number;
}

const CLIENT_PART = /\[client ([^\]\s]+)\]/;

/** The client address and port a line names; null for a line with no `[client ...]` or without a port. */
export function clientConnectionOf(line: string, dialect: ErrorLogDialect): ClientConnection | null {
  if (dialect !== "2.4") return null;
  const value = CLIENT_PART.exec(line)?.[1];
  if (value === undefined) return null;
  const parts = /^\[([^\]]+)\]:(\d+)$/.exec(value) ?? /^(.*[^:]):(\d+)$/.exec(value);
  if (parts === null) return null;
  const port = Number(parts[2]);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return null;
  return { address: sameAddress(parts[1]!), port };
}

/** An address as a line names it and as the harness knows a client's: without brackets, lower case, an IPv4-mapped
 * IPv6 address (`::ffff:10.0.0.5`) as its IPv4 one. */
export function sameAddress(address: string): string {
  const plain = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  return mapped?.[1] ?? plain;
}
