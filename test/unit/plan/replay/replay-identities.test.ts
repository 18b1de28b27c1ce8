// A logged client is sent by the identity the same access forms hold; a logged user becomes a probe user of
// every user file the config names.
import { describe, expect, it } from "vitest";
import { identityFor, identityResolver, replayIdentities, replayUsers, treeAccessForms } from "../../../../harness/plan/replay/replay-identities.ts";
import { PROBE_USER } from "../../../../harness/plan/probes/generate-probes.ts";
import { memoryTree } from "../../conf/memory-tree.ts";
import { configOf } from "./replay-config.ts";

const CONFIG = configOf([
  "Listen 80",
  "<Directory /usr/local/apache2/htdocs/admin>",
  "  Order deny,allow",
  "  Deny from all",
  "  Allow from 10.20.0.0/16 10.20.30.0/24 .corp.example 127.0.0.1",
  "  AuthType Basic",
  '  AuthName "admin"',
  "  AuthUserFile conf/admin.htpasswd",
  "  AuthGroupFile conf/admin.groups",
  "  Require valid-user",
  "  Satisfy Any",
  "</Directory>",
  "<Directory /usr/local/apache2/htdocs/dbm>",
  "  AuthDBMUserFile conf/users.dbm",
  "</Directory>",
]);

describe("identityFor", () => {
  const identities = replayIdentities([CONFIG]);

  it("sends a logged address from the client the same forms hold", () => {
    const id = (remote: string | null) => identityFor(identities, remote);
    expect(id("10.20.99.1")).toMatchObject({ range: "10.20.0.0/16" });
    // In both forms: the client of the narrower one is in both too.
    expect(id("10.20.30.40")).toMatchObject({ range: "10.20.30.0/24", address: "10.20.30.5" });
    expect(id("127.0.0.1")).toMatchObject({ id: "localhost" });
    expect(id("[127.0.0.1]")).toMatchObject({ id: "localhost" });
  });

  it("sends a logged name from the name form's client, and anyone no form holds, or no %h at all, from the outsider", () => {
    expect(identityFor(identities, "ws7.corp.example")).toMatchObject({ kind: "hostname", domain: ".corp.example" });
    expect(identityFor(identities, "198.51.100.200")).toMatchObject({ kind: "outsider" });
    expect(identityFor(identities, "client.isp.example")).toMatchObject({ kind: "outsider" });
    expect(identityFor(identities, "2001:db8::1")).toMatchObject({ kind: "outsider" });
    expect(identityFor(identities, null)).toMatchObject({ kind: "outsider" });
  });

  it("answers once per distinct client through the resolver", () => {
    const resolve = identityResolver(identities);
    expect(resolve("10.20.1.1")).toBe(resolve("10.20.1.1"));
    expect(resolve("10.20.1.1").range).toBe("10.20.0.0/16");
  });

  it("tells clients apart by the forms of .htaccess files too", () => {
    const tree = memoryTree({ "htdocs/private/.htaccess": "Order deny,allow\nDeny from all\nAllow from 192.168.5.0/24\n", "conf/httpd.conf": "" });
    expect(treeAccessForms(tree)).toEqual(["192.168.5.0/24"]);
    const withHtaccess = replayIdentities([CONFIG], treeAccessForms(tree));
    expect(identityFor(withHtaccess, "192.168.5.77")).toMatchObject({ range: "192.168.5.0/24" });
  });
});

describe("replayUsers", () => {
  it("makes each logged user, once, a world identity with the probe password (staged into every store of both sides)", () => {
    expect(replayUsers(["bob", "alice", "bob"])).toEqual([
      { name: "alice", password: PROBE_USER.password, groups: [], reason: "a user of the access log" },
      { name: "bob", password: PROBE_USER.password, groups: [], reason: "a user of the access log" },
    ]);
  });
});
