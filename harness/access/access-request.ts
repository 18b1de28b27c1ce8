// Who asks, as both access models see a request: the client's address, the name its address has by reverse and
// forward lookup (null: none, or one that does not resolve back), the environment variables set for the request
// (SetEnvIf), the credentials sent and the method. Pure data, shared by model-22 and model-24.

export interface AccessClient {
  address: string;
  /** The double-reverse-checked name; null when the address has none. */
  hostname: string | null;
  env: ReadonlySet<string>;
}

/** none: no Authorization header; valid: a user of the realm's file with the right password; wrong-password: that
 * user, another password; unknown-user: a user the realm's file does not hold (one of another realm). */
export type AccessCredentials =
  | { state: "none" | "wrong-password" | "unknown-user" }
  | { state: "valid"; user: string; groups: readonly string[] };

export interface AccessRequest {
  client: AccessClient;
  credentials: AccessCredentials;
  method: string;
  /** The file the URL maps to (REQUEST_FILENAME), where the caller knows it: `Require expr` on it reads it. */
  filename?: string;
}

/** What the request gets: 200 (handed to the content handler), 401, 403, or 500 (a configuration error httpd
 * reports per request, such as Require without AuthType). */
export type AccessStatus = 200 | 401 | 403 | 500;
