// An access-log record for the replay tests: every field unset (status 200) but those a test gives.
import type { AccessLogRecord } from "../../../../harness/logs/access-log-line.ts";

export function logRecord(fields: Partial<AccessLogRecord>): AccessLogRecord {
  return {
    fields: [],
    remoteHost: null,
    remoteUser: null,
    requestLine: null,
    method: null,
    urlPath: null,
    query: null,
    protocol: null,
    hostHeader: null,
    userAgent: null,
    serverName: null,
    canonicalName: null,
    port: null,
    status: 200,
    ...fields,
  };
}
