import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatPosition, HarnessError } from "../../../harness/errors.ts";
import { loadFleetFile, parseFleetFile } from "../../../harness/fleet/fleet-file.ts";

const FILE = "/srv/fleet/fleet.yaml";

/** The refusal of a fleet file: its code, and its message at file:line:column. */
function refusal(text: string): { code: string; at: string; message: string } {
  try {
    parseFleetFile(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    const { code, position, message } = error as HarnessError;
    return { code, at: position ? formatPosition(position) : "", message };
  }
  throw new Error("the fleet file was accepted");
}

describe("parseFleetFile", () => {
  it("reads path and discover entries with their layout, defines, ignore file and name, and the exclude globs", () => {
    const text = [
      "# the web fleet",
      "configs:",
      "  - path: web-01/apache2",
      "    layout: debian",
      "    defines: [SSL, PHP]",
      "    ignore: web-01/ignore.yaml",
      "    name: web-01",
      "  - discover: sites/",
      "    layout: rhel",
      "  - path: ./single.conf",
      "exclude:",
      "  - sites/old/**",
      "  - '**/*.bak'",
      "",
    ].join("\n");
    expect(parseFleetFile(text, FILE)).toEqual({
      path: FILE,
      entries: [
        { path: "/srv/fleet/web-01/apache2", kind: "tree", layout: "debian", defines: ["SSL", "PHP"], ignoreFile: "/srv/fleet/web-01/ignore.yaml", name: "web-01", at: `${FILE}:3:5` },
        { path: "/srv/fleet/sites", kind: "discover", layout: "rhel", defines: [], ignoreFile: null, name: null, at: `${FILE}:8:5` },
        { path: "/srv/fleet/single.conf", kind: "tree", layout: null, defines: [], ignoreFile: null, name: null, at: `${FILE}:10:5` },
      ],
      exclude: ["sites/old/**", "**/*.bak"],
    });
  });

  it("accepts a path that goes down and up again but stays inside the fleet's directory", () => {
    expect(parseFleetFile("configs:\n  - path: a/../b\n", FILE).entries[0]!.path).toBe("/srv/fleet/b");
  });

  it.each([
    ["not YAML", "configs:\n  - path: [web\n", "3:1", /./],
    ["not a mapping", "- path: web\n", "1:1", /not a mapping with a `configs:` list/],
    ["no configs list", "exclude: []\n", "1:1", /no `configs:` list/],
    ["an empty configs list", "configs: []\n", "1:10", /no `configs:` list/],
    ["an unknown key at the top", "configs:\n  - path: web\nexlude:\n  - old/**\n", "3:1", /unknown key "exlude"/],
    ["an unknown key in an entry", "configs:\n  - path: web\n    layuot: debian\n", "3:5", /unknown key "layuot"/],
    ["an entry that is no mapping", "configs:\n  - web\n", "2:5", /an entry is not a mapping/],
    ["both path and discover", "configs:\n  - path: web\n  - path: db\n    discover: sites\n", "3:5", /exactly one of `path:`/],
    ["neither path nor discover", "configs:\n  - path: web\n  - layout: debian\n", "3:5", /exactly one of `path:`/],
    ["a layout the harness does not know", "configs:\n  - path: web\n    layout: suse\n", "3:13", /layout "suse" is not one the harness knows/],
    ["defines that are not a list", "configs:\n  - path: web\n    defines: SSL\n", "3:14", /`defines:` is not a list/],
    ["an absolute path", "configs:\n  - path: /etc/apache2\n", "2:11", /path "\/etc\/apache2" is absolute/],
    ["a path leading out with ..", "configs:\n  - path: web\n  - discover: ../other/sites\n", "3:15", /discover "\.\.\/other\/sites" leads out of the fleet's directory \/srv\/fleet/],
    ["an ignore file leading out with ..", "configs:\n  - path: web\n    ignore: web/../../ignore.yaml\n", "3:13", /ignore "web\/\.\.\/\.\.\/ignore\.yaml" leads out/],
    ["a name on a discover entry", "configs:\n  - discover: sites\n    name: sites\n", "3:11", /`name:` names one tree/],
    ["a name that is no id", "configs:\n  - path: web\n    name: web 01\n", "3:11", /name "web 01" is not an id/],
    ["a path that is not text", "configs:\n  - path: [a, b]\n", "2:11", /"path" needs a text value/],
    ["exclude that is not a list", "configs:\n  - path: web\nexclude: old/**\n", "3:10", /`exclude:` is not a list/],
  ])("refuses %s as HARNESS_FLEET_FILE at its line and column", (_what, text, at, message) => {
    const error = refusal(text);
    expect(error.code).toBe("HARNESS_FLEET_FILE");
    expect(error.at).toBe(`${FILE}:${at}`);
    expect(error.message).toMatch(message);
  });
});

describe("loadFleetFile", () => {
  it("reads the file, and refuses a missing one as HARNESS_FLEET_FILE naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-file-"));
    const file = join(dir, "fleet.yaml");
    writeFileSync(file, "configs:\n  - path: web\n");
    expect((await loadFleetFile(file)).entries.map((e) => e.path)).toEqual([join(dir, "web")]);
    const missing = (await loadFleetFile(join(dir, "nope.yaml")).then(
      () => null,
      (e: unknown) => e,
    )) as HarnessError;
    expect(missing).toBeInstanceOf(HarnessError);
    expect([missing.code, missing.message]).toEqual(["HARNESS_FLEET_FILE", `${join(dir, "nope.yaml")}: no such file`]);
  });
});
