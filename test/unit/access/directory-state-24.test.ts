// The 2.4 access state at a path from <Directory> sections, and who model-24 lets through there.
import { describe, expect, it } from "vitest";
import { admission24, stateAt24, type DirectoryAccess24 } from "../../../harness/access/directory-state-24.ts";
import { parseAuthz } from "../../../harness/access/model-24.ts";

const section = (path: string, lines: string[], extra: Partial<DirectoryAccess24> = {}): DirectoryAccess24 => ({ path, authz: parseAuthz(lines), compat: null, satisfy: null, authType: false, ...extra });

describe("stateAt24 and admission24", () => {
  const tree = [section("/", ["Require all denied"]), section("/srv/open", ["Require all granted"]), section("/srv/open/ip", ["Require ip 10.0.0.0/8"]), section("/srv/team", ["Require valid-user"], { authType: true })];

  it("lets the nearest section with Require lines decide (AuthMerging Off), shortest path first", () => {
    expect(admission24(stateAt24(tree, "/srv/open/cgi/"))).toEqual({ anyone: true, clients: [], users: true });
    expect(admission24(stateAt24(tree, "/srv/other"))).toEqual({ anyone: false, clients: [], users: false });
    expect(admission24(stateAt24(tree, "/srv/open/ip/x"))).toEqual({ anyone: false, clients: ["10.0.0.1"], users: true });
  });

  it("admits an authenticated user where the section asks for one, and nobody without AuthType (500)", () => {
    expect(admission24(stateAt24(tree, "/srv/team/x"))).toEqual({ anyone: false, clients: [], users: true });
    expect(admission24(stateAt24([section("/srv", ["Require valid-user"])], "/srv"))).toEqual({ anyone: false, clients: [], users: false });
  });

  it("asks the model as the user the lines name: Require user admin admits admin", () => {
    expect(admission24(stateAt24([section("/srv", ["Require user admin"], { authType: true })], "/srv")).users).toBe(true);
  });

  it("combines mod_access_compat's host lines through Satisfy", () => {
    const compat = { order: "deny,allow" as const, allow: ["127.0.0.1"], deny: ["all"] };
    expect(admission24(stateAt24([section("/srv", ["Require valid-user"], { authType: true, compat, satisfy: "any" })], "/srv"))).toEqual({ anyone: false, clients: ["127.0.0.1"], users: true });
    expect(admission24(stateAt24([section("/srv", ["Require valid-user"], { authType: true, compat })], "/srv"))).toEqual({ anyone: false, clients: [], users: true });
  });
});
