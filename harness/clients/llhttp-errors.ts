// undici 7.30 builds its HTTPParserError code from `constants.ERROR[ret]`, a name→number table, so the code comes
// out undefined; the llhttp reason survives in the message ("Response does not match the HTTP/1.1 protocol
// (<reason>)"). This maps llhttp's reasons (llhttp src/llhttp/http.ts) back to its HPE_* names.
const REASONS: Record<string, string> = {
  "Expected HTTP/, RTSP/ or ICE/": "HPE_INVALID_CONSTANT",
  "Expected HTTP/": "HPE_INVALID_CONSTANT",
  "Invalid word encountered": "HPE_INVALID_CONSTANT",
  "Invalid major version": "HPE_INVALID_VERSION",
  "Invalid minor version": "HPE_INVALID_VERSION",
  "Expected dot": "HPE_INVALID_VERSION",
  "Invalid HTTP version": "HPE_INVALID_VERSION",
  "Expected space after version": "HPE_INVALID_VERSION",
  "Invalid status code": "HPE_INVALID_STATUS",
  "Invalid response status": "HPE_INVALID_STATUS",
  "Unexpected space after start line": "HPE_UNEXPECTED_SPACE",
  "Invalid header field char": "HPE_INVALID_HEADER_TOKEN",
  "Invalid header token": "HPE_INVALID_HEADER_TOKEN",
  "Invalid header value char": "HPE_INVALID_HEADER_TOKEN",
  "Unexpected whitespace after header value": "HPE_INVALID_HEADER_TOKEN",
  "Missing expected LF after header value": "HPE_LF_EXPECTED",
  "Transfer-Encoding can't be present with Content-Length": "HPE_INVALID_TRANSFER_ENCODING",
  "Invalid `Transfer-Encoding` header value": "HPE_INVALID_TRANSFER_ENCODING",
  "Content-Length can't be present with Transfer-Encoding": "HPE_INVALID_CONTENT_LENGTH",
  "Empty Content-Length": "HPE_INVALID_CONTENT_LENGTH",
  "Content-Length overflow": "HPE_INVALID_CONTENT_LENGTH",
  "Invalid character in Content-Length": "HPE_INVALID_CONTENT_LENGTH",
  "Duplicate Content-Length": "HPE_UNEXPECTED_CONTENT_LENGTH",
  "Chunk size overflow": "HPE_INVALID_CHUNK_SIZE",
  "Invalid character in chunk size": "HPE_INVALID_CHUNK_SIZE",
  "Data after `Connection: close`": "HPE_CLOSED_CONNECTION",
  "Invalid EOF state": "HPE_INVALID_EOF_STATE",
};

/** llhttp's HPE_* name for an undici HTTPParserError message, or null when the reason is not known. */
export function llhttpCodeOfMessage(message: string): string | null {
  const reason = /\(([^]*)\)\s*$/.exec(message)?.[1];
  if (reason === undefined) return null;
  const known = REASONS[reason];
  if (known) return known;
  if (reason.startsWith("Missing expected CR")) return "HPE_CR_EXPECTED";
  if (reason.startsWith("Expected LF after") || reason.startsWith("Invalid character in chunk extensions") || reason.startsWith("Invalid quoted-pair")) {
    return "HPE_STRICT";
  }
  return null;
}
