// The probe world staged on one side, through the real side plan: identities in every store the config names (the
// operator's own file keeps its users and gains the world's, replacing a same-named line; a missing store is
// made), an object with its URL's marker behind every path where the tree holds none, the tree's own files known
// by digest, and every addition listed. The tree itself is never changed.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ConfigTree } from "../../../../harness/conf/load-tree.ts";
import { proofProbes } from "../../../../harness/judge/prove/proof-probes.ts";
import { withProbes } from "../../../../harness/plan/probes/probe-scenario.ts";
import { markerOf } from "../../../../harness/plan/probes/world-content.ts";
import type { PlannedFile, SidePlan } from "../../../../harness/plan/scenario-plan.ts";
import { BASELINE, CANDIDATE } from "../../../../harness/plan/side.ts";
import { planTreeSide } from "../../../../harness/plan/tree/plan-tree-side.ts";
import { treeScenario } from "../../../../harness/plan/tree/tree-scenario.ts";
import { WORLD_MISSING } from "../../../../harness/plan/tree/world-staging.ts";
import type { TreeRef } from "../../../../harness/scenario/scenario.ts";
import { officialDefaults } from "../../../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const OFFLINE = { "2.2": officialDefaults("httpd:2.2.34", httpdVersion("2.2.34")), "2.4": officialDefaults("httpd:2.4", httpdVersion("2.4.68")) };
const sha1 = (text: string) => createHash("sha1").update(text).digest("base64");

function plan(tree: ConfigTree, family: "2.2" | "2.4"): SidePlan {
  const ref: TreeRef = { at: { file: "t", line: 1, column: 1 }, path: "/t", layout: null, defines: [], writtenFor: "2.2" };
  const base = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref } });
  const scenario = withProbes(base, proofProbes(tree, tree, []).set);
  return { ...planTreeSide(scenario, { side: family === "2.2" ? BASELINE : CANDIDATE, inspection: OFFLINE[family], ref, tree }), requests: [], variants: [] };
}

function text(files: readonly PlannedFile[], path: string): string | undefined {
  const content = files.find((f) => f.path === path)?.content;
  return content && "text" in content ? content.text : undefined;
}

const HEAD = ['ServerRoot "/usr/local/apache2"', "Listen 80", 'DocumentRoot "/usr/local/apache2/htdocs"', "LoadModule cgi_module modules/mod_cgi.so"];

describe("stageWorld through planTreeSide", () => {
  const tree = memoryTree({
    "conf/httpd.conf": [
      ...HEAD,
      "<Directory /usr/local/apache2/htdocs/team>",
      "  AuthType Basic", "  AuthName Team", "  AuthUserFile conf/team.passwd", "  Require user alice",
      "</Directory>",
      "<Directory /usr/local/apache2/htdocs/dig>",
      "  AuthType Digest", "  AuthName dig", "  AuthUserFile /srv/dig.passwd", "  AuthGroupFile /srv/groups", "  Require group ops",
      "</Directory>",
      'ScriptAlias /cgi-bin/ "/usr/local/apache2/cgi-bin/"',
      "<Directory /usr/local/apache2/htdocs/plain>", "  DirectoryIndex disabled", "</Directory>",
    ].join("\n"),
    "conf/team.passwd": "alice:$apr1$real$hash\nbob:$apr1$real$bob\n",
    "htdocs/team/index.html": "<p>the team's own page</p>\n",
  });

  for (const family of ["2.2", "2.4"] as const) {
    const side = plan(tree, family);

    it(`${family}: the operator's password file keeps its users and gains the world's, the world's name first checked`, () => {
      const staged = text(side.files, "/usr/local/apache2/conf/team.passwd")!.split("\n");
      expect(staged).toContain("bob:$apr1$real$bob");
      // The first alice line httpd reads is the world's: the operator's own is gone from the staged copy.
      expect(staged.find((l) => l.startsWith("alice:"))).toBe(`alice:{SHA}${sha1("probe-pass-7Kq")}`);
      expect(staged).not.toContain("alice:$apr1$real$hash");
      expect(staged).toContain(`probe-user:{SHA}${sha1("probe-pass-7Kq")}`);
      // The Digest realm's lines are in every user store, after the htpasswd ones.
      expect(staged.some((l) => l.startsWith("probe-user:dig:"))).toBe(true);
      expect(side.tree!.adaptations).toContainEqual(expect.objectContaining({ kind: "probe-identity", file: "conf/httpd.conf", line: 8 }));
      expect(side.tree!.adaptations.find((a) => a.kind === "probe-identity")!.reason).toMatch(/replacing the file's own line for alice/);
      // The tree read from disk is as it was.
      expect(tree.source.files.get("conf/team.passwd")!.toString("utf8")).toBe("alice:$apr1$real$hash\nbob:$apr1$real$bob\n");
    });

    it(`${family}: a store the tree lacks is made with the world's users, a group store with their groups, both listed`, () => {
      const digest = text(side.files, "/srv/dig.passwd")!;
      const line = `probe-in-ops:dig:${createHash("md5").update("probe-in-ops:dig:probe-pass-7Kq").digest("hex")}`;
      expect(digest.split("\n")).toContain(line);
      expect(text(side.files, "/srv/groups")).toBe("ops: probe-in-ops\n");
      expect(side.tree!.stubs.filter((s) => s.kind === "password-file" || s.kind === "group-file").map((s) => s.target).sort()).toEqual(["/srv/dig.passwd", "/srv/groups"]);
      expect(side.world!.stores.map((s) => `${s.path} ${s.format} ${s.held}`).sort()).toEqual(["/srv/dig.passwd file made", "/srv/groups group made", "/usr/local/apache2/conf/team.passwd file tree"]);
    });

    it(`${family}: every path asked for has an object: planted with its URL's marker, or the tree's own known by digest`, () => {
      const script = side.world!.objects.find((o) => o.url === "/cgi-bin/probe.cgi")!;
      expect(script).toMatchObject({ path: "/usr/local/apache2/cgi-bin/probe.cgi", held: "planted", kind: "cgi", marker: markerOf("/cgi-bin/probe.cgi") });
      const planted = side.files.find((f) => f.path === script.path!)!;
      expect(planted.mode).toBe(0o755);
      expect(text(side.files, script.path!)).toMatch(/^#!\/bin\/sh\n/);
      const team = side.world!.objects.find((o) => o.url === "/team/")!;
      expect(team).toMatchObject({ path: "/usr/local/apache2/htdocs/team/index.html", held: "tree", sha256: createHash("sha256").update("<p>the team's own page</p>\n").digest("hex") });
      expect(side.world!.objects.find((o) => o.url === "/plain/")).toMatchObject({ held: "none", reason: expect.stringMatching(/DirectoryIndex disabled/) });
      // An index page in a ScriptAlias directory would run as a script: a difference the harness made.
      expect(side.world!.objects.find((o) => o.url === "/cgi-bin/")).toMatchObject({ held: "none", reason: expect.stringMatching(/run as CGI scripts/) });
      expect(side.tree!.stubs).toContainEqual(expect.objectContaining({ kind: "probe-object", target: script.path, line: 18 }));
      // The start script checks that what was planted is there.
      expect(side.setup.at(-1)).toContain(WORLD_MISSING);
      expect(side.setup.at(-1)).toContain("'/usr/local/apache2/cgi-bin/probe.cgi'");
    });
  }

  it("plants nothing behind a URL a ProxyPass takes: the backend answers it, and the object says so", () => {
    const proxied = memoryTree({
      "conf/httpd.conf": [
        ...HEAD,
        "LoadModule proxy_module modules/mod_proxy.so",
        "LoadModule proxy_http_module modules/mod_proxy_http.so",
        "ProxyPass /status !",
        "ProxyPass / http://origin.internal/",
        "<Location /status>", "  Require ip 127.0.0.1", "</Location>",
      ].join("\n"),
    });
    const side = plan(proxied, "2.4");
    const objects = side.world!.objects;
    // /status stays with the file system (the `!` line); /status-outside does not: `!` matches whole segments.
    expect(objects.find((o) => o.url === "/status")).toMatchObject({ held: "planted" });
    expect(objects.find((o) => o.url === "/status-outside")).toMatchObject({ held: "none", path: null, reason: expect.stringMatching(/^proxied to http:\/\/origin\.internal\/ \(conf\/httpd\.conf:8\)/) });
    expect(objects.filter((o) => o.held === "planted").every((o) => o.url.startsWith("/status/") || o.url === "/status")).toBe(true);
    expect(side.tree!.stubs.filter((s) => s.kind === "probe-object").every((s) => s.target.startsWith("/usr/local/apache2/htdocs/status"))).toBe(true);
  });

  it("fills a DBM store with htdbm in the container, with the user's groups as its comment", () => {
    const dbm = memoryTree({
      "conf/httpd.conf": [...HEAD, "<Location /db>", "  AuthType Basic", "  AuthName db", "  AuthBasicProvider dbm", "  AuthDBMUserFile /srv/users.db", "  AuthDBMGroupFile /srv/users.db", "  Require group admins", "</Location>"].join("\n"),
    });
    const side = plan(dbm, "2.4");
    const lines = side.setup.filter((l) => l.includes("htdbm"));
    expect(lines).toHaveLength(2);
    expect(lines.join("\n")).toContain("htdbm -b $c -t '/srv/users.db' 'probe-in-admins' 'probe-pass-7Kq' 'admins'");
    expect(side.world!.stores).toEqual([{ path: "/srv/users.db", directive: "AuthDBMUserFile", format: "dbm-user", held: "made" }]);
  });
});
