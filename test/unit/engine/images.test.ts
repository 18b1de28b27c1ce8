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

const { recipeTag } = await import("../../../harness/engine/images.ts");

afterEach(() => {
  edit.file = null;
});

describe("recipeTag", () => {
  it("has the documented shape: the repository, 2.4- for the httpd image, and 12 hex digits of the hash", () => {
    expect(recipeTag("httpd-2.4")).toMatch(/^harness-httpd:2\.4-[0-9a-f]{12}$/);
    expect(recipeTag("base")).toMatch(/^harness-base:[0-9a-f]{12}$/);
    expect(recipeTag("tools")).toMatch(/^harness-tools:[0-9a-f]{12}$/);
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
    expect(after.httpd).toMatch(/^harness-httpd:2\.4-[0-9a-f]{12}$/);
  });

  it("changes the children's tags when the parent recipe changes, so a new base rebuilds them", () => {
    const before = { base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools") };
    edit.file = "base/build-base.sh";
    const after = { base: recipeTag("base"), httpd: recipeTag("httpd-2.4"), tools: recipeTag("tools") };
    expect([after.base === before.base, after.httpd === before.httpd, after.tools === before.tools]).toEqual([false, false, false]);
  });

  it("refuses an unknown recipe id with HARNESS_INTERNAL", () => {
    expect(() => recipeTag("httpd-2.2" as never)).toThrow(expect.objectContaining({ code: "HARNESS_INTERNAL", message: "unknown image recipe httpd-2.2" }));
  });
});
