// Probe users written into a tree's own user files: appended, and with `replace` the user's own line dropped
// first, since httpd checks the first line of a name (mod_authn_file).
import { describe, expect, it } from "vitest";
import { withProbeUsers } from "../../../../harness/plan/probes/probe-scenario.ts";
import type { ProbeUser } from "../../../../harness/plan/probes/probe.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const TREE = memoryTree({ "conf/httpd.conf": "", "conf/users": "alice:$apr1$old$hash\nbob:$apr1$keep$hash\n" });
const alice: ProbeUser = { file: "/usr/local/apache2/conf/users", kind: "basic", realm: null, user: "alice", password: "probe-pass-7Kq" };
const SHA = "alice:{SHA}";

describe("withProbeUsers", () => {
  it("appends the probe user, leaving a line the file has for the same name first", () => {
    const lines = withProbeUsers(TREE, [alice]).source.files.get("conf/users")!.toString("utf8").split("\n");
    expect(lines[0]).toBe("alice:$apr1$old$hash");
    expect(lines[1]).toBe("bob:$apr1$keep$hash");
    expect(lines[2]!.startsWith(SHA)).toBe(true);
  });

  it("with replace, drops the user's own line so the probe password is the one checked, and keeps the others", () => {
    const text = withProbeUsers(TREE, [alice], { replace: true }).source.files.get("conf/users")!.toString("utf8");
    const lines = text.split("\n");
    expect(lines[0]).toBe("bob:$apr1$keep$hash");
    expect(lines[1]!.startsWith(SHA)).toBe(true);
    expect(lines.filter((l) => l.startsWith("alice:"))).toHaveLength(1);
  });
});
