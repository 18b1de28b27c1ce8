// Pure: what an error-log line says about the credentials of its request, on 2.2 and 2.4 alike (the message map
// gives both the 2.4 event): the user is unknown to the store, its password did not match, or it was
// authenticated and then no Require granted it. The judge reads these as witnesses: a valid probe user refused as
// unknown means the store did not hold it, so an answer equal on both sides says nothing of the config.
import type { ErrorLogRecord } from "./error-log-record.ts";

export type AuthEventKind = "unknown-user" | "password-mismatch" | "authz-denied" | "store-unreadable";

export interface AuthEvent {
  kind: AuthEventKind;
  /** The user the line names; null when it names none (a store that cannot be read). */
  user: string | null;
}

const BY_EVENT: Record<string, { kind: AuthEventKind; user: RegExp | null }> = {
  // mod_auth_basic: "user %s not found: %s", "user %s: authentication failure for \"%s\": Password Mismatch".
  AH01618: { kind: "unknown-user", user: /^user (.*) not found: / },
  AH01617: { kind: "password-mismatch", user: /^user (.*?): authentication failure for / },
  // mod_auth_digest (2.2 "Digest: " in front): "user `%s' in realm `%s' not found", "user %s: password mismatch".
  AH01790: { kind: "unknown-user", user: /user `(.*)' in realm `.*' not found: / },
  AH01792: { kind: "password-mismatch", user: /user (.*?): password mismatch: / },
  AH01794: { kind: "password-mismatch", user: /user (.*?): password mismatch: / },
  // mod_authz_core 2.4 "user %s: authorization failure for \"%s\": "; 2.2 mod_authz_user and mod_authz_groupfile.
  AH01631: { kind: "authz-denied", user: /^(?:user (.*?): authorization failure for |access to .* failed, reason: user '(.*)' does not meet |Authorization of user (.*?) to access )/ },
  // mod_authn_file / mod_authz_groupfile: the store cannot be opened.
  AH01620: { kind: "store-unreadable", user: null },
  AH01665: { kind: "store-unreadable", user: null },
};

const UNREADABLE_22 = /(?:^|: )Could not open (?:password|group) file: /;

export function authEvent(record: ErrorLogRecord): AuthEvent | null {
  const known = record.event === null ? undefined : BY_EVENT[record.event];
  if (known === undefined) return UNREADABLE_22.test(record.message) ? { kind: "store-unreadable", user: null } : null;
  if (known.user === null) return { kind: known.kind, user: null };
  const match = known.user.exec(record.message);
  const user = match?.slice(1).find((group) => group !== undefined) ?? null;
  return { kind: known.kind, user };
}
