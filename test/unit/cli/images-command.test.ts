// Which recipes `images --build [ID...]` builds: set-up's call (no ids) builds what runs need, never the harness's
// own image; named ids build exactly those.
import { describe, expect, it } from "vitest";
import { recipesToBuild } from "../../../harness/cli/images-command.ts";

describe("images --build", () => {
  it("builds every recipe on a parent but those built only when named, when no id is given", () => {
    expect(recipesToBuild([]).map((recipe) => recipe.id)).toEqual(["httpd-2.4", "httpd-2.4.67", "httpd-2.4-debian", "tools"]);
  });

  it("builds the named recipes, the harness image among them", () => {
    expect(recipesToBuild(["harness"]).map((recipe) => recipe.id)).toEqual(["harness"]);
    expect(recipesToBuild(["tools", "base"]).map((recipe) => recipe.id)).toEqual(["tools", "base"]);
  });

  it("refuses an unknown id with HARNESS_USAGE, listing the known ones", () => {
    expect(() => recipesToBuild(["harnes"])).toThrow(
      expect.objectContaining({ code: "HARNESS_USAGE", message: 'images --build: no recipe "harnes"; known: base, httpd-2.4, httpd-2.4.67, httpd-2.4-debian, tools, harness' }),
    );
  });
});
