import { afterEach, describe, expect, it, vi } from "vitest";

// Changes one recipe file's content as recipeTag reads it, to see which tags follow. Nothing is built.
const edit = vi.hoisted(() => ({ file: null as string | null }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], options?: unknown) => {
    const content = fs.readFileSync(path, options as never);
    if (edit.file !== null && String(path).endsWith(edit.file)) {
      return Buffer.concat([Buffer.from(content as Buffer), Buffer.from("\n# edited\n")]);
    }
    return content;
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

// Recipes that exist only here, over the real httpd-2.4 recipe's directory, to see what its build args do.
vi.mock("../../../harness/engine/image-recipes.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../harness/engine/image-recipes.ts")>();
  const httpd = real.IMAGE_RECIPES.find((recipe) => recipe.id === "httpd-2.4")!;
  const variant = (id: string, buildArgs: Record<string, string>, tagPrefix = httpd.tagPrefix) => ({ ...httpd, id, buildArgs, tagPrefix });
  return {
    ...real,
    IMAGE_RECIPES: [
      ...real.IMAGE_RECIPES,
      variant("same-args", { ...httpd.buildArgs }),
      variant("same-args-other-order", Object.fromEntries(Object.entries(httpd.buildArgs!).reverse())),
      variant("other-suite", { ...httpd.buildArgs, APACHE2_SOURCE_SUITE: "bookworm-security" }),
      variant("older", { APACHE2_DEBIAN_VERSION: "2.4.62-1~deb11u1", APACHE2_SOURCE_SUITE: "bullseye" }, "2.4.62-"),
      variant("no-args", {}, ""),
    ],
  };
});

const { buildContext, recipeTag } = await import("../../../harness/engine/images.ts");
const { IMAGE_RECIPES } = await import("../../../harness/engine/image-recipes.ts");
const hashOf = (tag: string): string => tag.slice(-12);

afterEach(() => {
  edit.file = null;
});

describe("recipeTag", () => {
  it("has the documented shape: the repository, the httpd version for the httpd image, and 12 hex digits of the hash", () => {
    expect(recipeTag("httpd-2.4")).toMatch(/^harness-httpd:2\.4\.68-[0-9a-f]{12}$/);
    expect(recipeTag("base")).toMatch(/^harness-base:[0-9a-f]{12}$/);
    expect(recipeTag("tools")).toMatch(/^harness-tools:[0-9a-f]{12}$/);
    expect(recipeTag("harness")).toMatch(/^httpd-upgrade-harness:[0-9a-f]{12}$/);
  });

  it("is the same every time while the recipes are unchanged", () => {
    const first = [recipeTag("base"), recipeTag("httpd-2.4"), recipeTag("tools")];
    expect([recipeTag("base"), recipeTag("httpd-2.4"), recipeTag("tools")]).toEqual(first);
    expect(new Set(first.map((tag) => tag.slice(-12))).size).toBe(3);
  });

  it("changes the tag of a recipe whose file changes, and only that one when it has no children", () => {
    const before = { base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools") };
    edit.file = "httpd-2.4/httpd-foreground";
    const after = { base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools") };
    expect([after.base === before.base, after.httpd === before.httpd, after.tools === before.tools]).toEqual([true, false, true]);
    expect(after.httpd).toMatch(/^harness-httpd:2\.4\.68-[0-9a-f]{12}$/);
  });

  it("changes the children's tags when the parent recipe changes, so a new base rebuilds them", () => {
    const before = { base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools") };
    edit.file = "base/build-base.sh";
    const after = { base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools") };
    expect([after.base === before.base, after.httpd === before.httpd, after.tools === before.tools]).toEqual([false, false, false]);
  });

  it("takes the httpd image's version and source from its recipe's data: build args, and the tag prefix they imply", () => {
    const httpd = IMAGE_RECIPES.find((recipe) => recipe.id === "httpd-2.4");
    expect(httpd?.buildArgs).toEqual({ APACHE2_DEBIAN_VERSION: "2.4.68-1~deb12u1", APACHE2_SOURCE_SUITE: "bookworm" });
    expect(httpd?.tagPrefix).toBe("2.4.68-");
    expect(IMAGE_RECIPES.find((recipe) => recipe.id === "base")?.tagPrefix).toBeUndefined();
  });

  it("hashes the build args, so two recipes over the same Dockerfile get different tags", () => {
    const httpd = recipeTag("httpd-2.4");
    const older = recipeTag("older" as never);
    expect(older).toMatch(/^harness-httpd:2\.4\.62-[0-9a-f]{12}$/);
    expect(hashOf(older)).not.toBe(hashOf(httpd));
    expect(hashOf(recipeTag("other-suite" as never))).not.toBe(hashOf(httpd));
    expect(hashOf(recipeTag("no-args" as never))).not.toBe(hashOf(httpd));
  });

  it("depends on the build args' names and values, not on the recipe id or the order they are written in", () => {
    expect(recipeTag("same-args" as never)).toBe(recipeTag("httpd-2.4"));
    expect(recipeTag("same-args-other-order" as never)).toBe(recipeTag("httpd-2.4"));
  });

  it("keeps the build args apart from the files: a changed file changes every recipe over it, args or not", () => {
    const before = { httpd: recipeTag("httpd-2.4"), older: recipeTag("older" as never) };
    edit.file = "httpd-2.4/Dockerfile";
    const after = { httpd: recipeTag("httpd-2.4"), older: recipeTag("older" as never) };
    expect([after.httpd === before.httpd, after.older === before.older]).toEqual([false, false]);
    expect(hashOf(after.httpd)).not.toBe(hashOf(after.older));
  });

  it("hashes the repository's files into the harness image's tag: a changed source or lockfile gives a new tag, and no other image's", () => {
    const tags = () => ({ base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools"), harness: recipeTag("harness") });
    const before = tags();
    for (const file of ["harness/cli/lint-command.ts", "package-lock.json", "bin/httpd-upgrade-harness.js", "docker/harness/Dockerfile"]) {
      edit.file = file;
      const after = tags();
      expect({ file, base: after.base === before.base, httpd: after.httpd === before.httpd, tools: after.tools === before.tools, harness: after.harness === before.harness }).toEqual({
        file,
        base: true,
        httpd: true,
        tools: true,
        harness: false,
      });
    }
    // The image holds docker/ (a pod builds the other images on its own engine): another recipe's change is in it too.
    edit.file = "docker/tools/Dockerfile";
    expect(recipeTag("harness")).not.toBe(before.harness);
  });

  it("keeps the building machine's CA bundle out of the tag, so one recipe has one tag on every machine", () => {
    const before = recipeTag("harness");
    edit.file = "/etc/ssl/certs/ca-certificates.crt";
    expect(recipeTag("harness")).toBe(before);
  });

  it("builds the harness image from its Dockerfile, the repository's files under repository/ (links kept as links) and the machine's CA bundle", () => {
    const context = buildContext("harness");
    const names = context.map((entry) => entry.name);
    expect(names[0]).toBe("Dockerfile");
    for (const name of ["repository/package.json", "repository/package-lock.json", "repository/bin/httpd-upgrade-harness.js", "repository/harness/cli/main.ts", "repository/docker/base/build-base.sh", "repository/spec/seed-rows.tsv", "build-machine-ca-certificates.crt"]) {
      expect(names).toContain(name);
    }
    expect(names.filter((name) => /node_modules|^repository\/(test|docs|reports)\//.test(name))).toEqual([]);
    expect(context.find((entry) => entry.name === "repository/configs/debian-ssl/sites-enabled/000-default")).toEqual({
      name: "repository/configs/debian-ssl/sites-enabled/000-default",
      mode: expect.any(Number),
      linkname: "../sites-available/default",
    });
    expect(context.find((entry) => entry.name === "repository/bin/httpd-upgrade-harness.js")?.mode).toBe(0o755);
    // The other recipes' contexts are their folders as before.
    expect(buildContext("tools").map((entry) => entry.name)).toEqual(["Dockerfile", "agent_curl.py", "exec-agent.py", "raw-client.py", "scgi-origin.py"]);
  });

  it("refuses an unknown recipe id with HARNESS_INTERNAL", () => {
    expect(() => recipeTag("httpd-2.2" as never)).toThrow(expect.objectContaining({ code: "HARNESS_INTERNAL", message: "unknown image recipe httpd-2.2" }));
  });
});
