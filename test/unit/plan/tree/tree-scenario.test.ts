import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadTree } from "../../../../harness/conf/load-tree.ts";
import { smokeRequestsFor, treeScenario, writtenFor } from "../../../../harness/plan/tree/tree-scenario.ts";
import type { TreeRef } from "../../../../harness/scenario/scenario.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/plan/tree/", import.meta.url));
const AT = { file: "t", line: 1, column: 1 };

function ref(path: string, writtenFor: "2.2" | "2.4" = "2.2", defines: string[] = []): TreeRef {
  return { at: AT, path, layout: null, defines, writtenFor };
}

describe("writtenFor", () => {
  it("says 2.2 for a Debian tree loading 2.2's modules (authz_default, mem_cache)", async () => {
    expect(writtenFor(await loadTree(`${FIXTURES}debian-22`), [])).toBe("2.2");
  });

  it("says 2.4 for a tree loading its MPM and mod_authz_core", async () => {
    expect(writtenFor(await loadTree(`${FIXTURES}official-24`), [])).toBe("2.4");
  });

  it.each(["authz_core", "unixd", "mpm_prefork", "mpm_event", "mpm_worker", "access_compat"])("says 2.4 for a tree loading only mod_%s of 2.4's own modules", (name) => {
    const tree = memoryTree({ "conf/httpd.conf": `Listen 80\nLoadModule ${name}_module modules/mod_${name}.so\n` });
    expect(writtenFor(tree, [])).toBe("2.4");
  });

  it("says 2.2 for a tree loading no module at all", () => {
    expect(writtenFor(memoryTree({ "conf/httpd.conf": "Listen 80\n" }), [])).toBe("2.2");
  });

  it("reads the tree as 2.4 with the -D names given: a 2.4 module inside <IfDefine> counts only when defined", () => {
    const tree = memoryTree({ "conf/httpd.conf": "Listen 80\n<IfDefine NEW>\nLoadModule unixd_module modules/mod_unixd.so\n</IfDefine>\n" });
    expect(writtenFor(tree, [])).toBe("2.2");
    expect(writtenFor(tree, ["NEW"])).toBe("2.4");
  });

  it("reads a tree written for both lines with <IfVersion> as 2.4 when its 2.4 branch loads 2.4's modules", () => {
    const tree = memoryTree({
      "conf/httpd.conf": "Listen 80\nLoadModule version_module modules/mod_version.so\n<IfVersion >= 2.4>\nLoadModule authz_core_module modules/mod_authz_core.so\n</IfVersion>\n",
    });
    expect(writtenFor(tree, [])).toBe("2.4");
  });
});

describe("treeScenario", () => {
  const tree = memoryTree({ "conf/httpd.conf": "Listen 80\n<VirtualHost *:80>\nServerName a.example.test\n</VirtualHost>\n" });

  it("is a scenario with no expectations whose server is the tree on both sides, asked GET / per vhost", () => {
    const baseline = { tree, ref: ref("/trees/site") };
    const scenario = treeScenario({ id: "site", baseline, candidate: baseline });
    expect(scenario).toMatchObject({ id: "site", file: "/trees/site", title: "official tree /trees/site", expect: {}, backends: [], clients: [] });
    expect(scenario.server.tree).toEqual({ baseline: baseline.ref, candidate: baseline.ref });
    expect(scenario.server.base).toBe("none");
    expect(scenario.requests.map((r) => r.name)).toEqual(["GET http://a.example.test:80/"]);
  });

  it("names the port in the title and asks the hosts of both trees when the candidate is the operator's port", () => {
    const ported = memoryTree({ "conf/httpd.conf": "Listen 80\n<VirtualHost *:80>\nServerName b.example.test\n</VirtualHost>\n" });
    const scenario = treeScenario({ id: "site", baseline: { tree, ref: ref("/trees/old") }, candidate: { tree: ported, ref: ref("/trees/new", "2.4") } });
    expect(scenario.title).toBe("official tree /trees/old, ported as /trees/new");
    expect(scenario.requests.map((r) => r.host)).toEqual(["a.example.test", "b.example.test"]);
  });
});

describe("smokeRequestsFor", () => {
  it("asks a fragment on the image's own port 80, where the stock config listens", () => {
    const fragment = memoryTree({ "site.conf": "Alias /x /srv/x\n" }, { layout: "fragment", mainFile: "site.conf" });
    expect(smokeRequestsFor([{ tree: fragment, ref: ref("/site.conf") }], AT).map((r) => [r.host, r.port, r.tls])).toEqual([[null, 80, false]]);
  });

  it("asks the ports the tree listens on with its -D names", () => {
    const tree = memoryTree({ "conf/httpd.conf": "Listen 80\n<IfDefine !X>\nListen 81\n</IfDefine>\n" });
    expect(smokeRequestsFor([{ tree, ref: ref("/t") }], AT).map((r) => r.port)).toEqual([80, 81]);
    expect(smokeRequestsFor([{ tree, ref: ref("/t", "2.2", ["X"]) }], AT).map((r) => r.port)).toEqual([80]);
  });
});
