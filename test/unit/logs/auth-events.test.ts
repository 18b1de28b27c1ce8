// What a log line says of a request's credentials, on both versions: lines as real 2.2.34 and 2.4.68 wrote them
// (Basic and Digest stores, an authenticated user no Require granted, a store httpd could not open).
import { describe, expect, it } from "vitest";
import { authEvent } from "../../../harness/logs/auth-events.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";

const at22 = "[Mon Dec 07 10:57:17 2026] [error] [client 127.0.0.1] ";
const at24 = (module: string) => `[Mon Dec 07 10:50:10.665538 2026] [${module}:error] [pid 18:tid 23] [client 127.0.0.1:47718] `;

describe("authEvent", () => {
  it.each([
    [`${at22}user nobody not found: /team/`, "2.2", { kind: "unknown-user", user: "nobody" }],
    [`${at22}user bob: authentication failure for "/team/": Password Mismatch`, "2.2", { kind: "password-mismatch", user: "bob" }],
    [`${at22}access to /team/ failed, reason: user 'bob' does not meet 'require'ments for user/valid-user to be allowed access`, "2.2", { kind: "authz-denied", user: "bob" }],
    [`${at22}Authorization of user bob to access /grp/ failed, reason: user doesn't appear in group file (/srv/groups).`, "2.2", { kind: "authz-denied", user: "bob" }],
    [`${at22}Digest: user \`zed' in realm \`dig' not found: /dig/`, "2.2", { kind: "unknown-user", user: "zed" }],
    [`${at22}Digest: user bob: password mismatch: /dig/`, "2.2", { kind: "password-mismatch", user: "bob" }],
    [`${at22}(13)Permission denied: Could not open password file: /srv/team.passwd`, "2.2", { kind: "store-unreadable", user: null }],
    [`${at24("auth_basic")}AH01618: user nobody not found: /team/`, "2.4", { kind: "unknown-user", user: "nobody" }],
    [`${at24("authz_core")}AH01631: user bob: authorization failure for "/team/": `, "2.4", { kind: "authz-denied", user: "bob" }],
    [`${at24("auth_digest")}AH01794: user bob: password mismatch: /dig/`, "2.4", { kind: "password-mismatch", user: "bob" }],
    [`${at24("auth_digest")}AH01790: user \`zed' in realm \`dig' not found: /dig/`, "2.4", { kind: "unknown-user", user: "zed" }],
  ] as const)("%s", (line, family, event) => {
    expect(authEvent(parseErrorLogLine(line, family))).toEqual(event);
  });

  it("says nothing of a line about something else", () => {
    expect(authEvent(parseErrorLogLine(`${at22}client denied by server configuration: /usr/local/apache2/htdocs/x`, "2.2"))).toBeNull();
  });
});
