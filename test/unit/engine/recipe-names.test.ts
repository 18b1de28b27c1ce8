import { describe, expect, it } from "vitest";
import { recipeNamed } from "../../../harness/engine/image-recipes.ts";

describe("recipe:ID image names", () => {
  it("name the harness's httpd recipes", () => {
    for (const id of ["httpd-2.4", "httpd-2.4.67", "httpd-2.4-debian"]) {
      const named = recipeNamed(`recipe:${id}`);
      expect(named !== null && "recipe" in named ? named.recipe.id : named).toBe(id);
    }
  });

  it("leave every other image name to the engine", () => {
    expect(recipeNamed("httpd:2.4")).toBeNull();
    expect(recipeNamed("harness-httpd:2.4.68-abc")).toBeNull();
    expect(recipeNamed("registry.example/recipe:1")).toBeNull();
  });

  it("refuse an unknown id and the recipes that hold no httpd, listing the known ones", () => {
    for (const name of ["recipe:httpd-9.9", "recipe:tools", "recipe:base", "recipe:harness", "recipe:"]) {
      const named = recipeNamed(name);
      expect(named !== null && "error" in named ? named.error : named).toMatch(/names no httpd recipe of the harness; known: recipe:httpd-2\.4, recipe:httpd-2\.4\.67, recipe:httpd-2\.4-debian$/);
    }
  });
});
