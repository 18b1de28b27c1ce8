import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEED_ROWS_URL, defaultSeedRowsPath, parseSeedRows, readSeedIds, readSeedIdsSync, readSeedRows } from "../../../harness/scenario/seed-rows.ts";

describe("parseSeedRows", () => {
  it("takes the first column of every line after the header", () => {
    const ids = parseSeedRows("id\tsection\titem\nA6\tauthz\tx\r\nD5\tdefault\ty\n\n");
    expect([...ids]).toEqual(["A6", "D5"]);
  });
});

describe("the seed-rows table", () => {
  it("is the repository's own copy, and only that", () => {
    expect(defaultSeedRowsPath()).toBe(fileURLToPath(new URL("../../../spec/seed-rows.tsv", import.meta.url)));
    expect(DEFAULT_SEED_ROWS_URL.href).toBe(new URL("../../../spec/seed-rows.tsv", import.meta.url).href);
  });

  it("holds the guide's ids", async () => {
    const ids = await readSeedIds();
    expect(ids.has("A6")).toBe(true);
    expect(ids.has("X3")).toBe(true);
    expect(ids.has("A4")).toBe(false);
    expect(readSeedIdsSync()).toBe(ids);
  });

  it("gives the whole rows, with the same ids as readSeedIds", async () => {
    const rows = await readSeedRows();
    expect(new Set(rows.map((row) => row.id))).toEqual(await readSeedIds());
    expect(rows.find((row) => row.id === "A6")).toMatchObject({ section: "authz", observe: "http+log" });
  });

  it("reads a table from a given path", () => {
    const path = DEFAULT_SEED_ROWS_URL;
    expect(readSeedIdsSync(path).size).toBe(readFileSync(path, "utf8").trim().split("\n").length - 1);
  });

  it("reports a missing table as HARNESS_CONFIG_FILE, naming the file and what to do", () => {
    expect(() => readSeedIdsSync("/nonexistent/seed-rows.tsv")).toThrow(
      expect.objectContaining({
        code: "HARNESS_CONFIG_FILE",
        message: "the seed-rows table /nonexistent/seed-rows.tsv is missing",
        hint: expect.stringContaining("restore that file"),
      }),
    );
  });

  it("reports a missing table the same way when reading whole rows", async () => {
    await expect(readSeedRows("/nonexistent/seed-rows.tsv")).rejects.toMatchObject({ code: "HARNESS_CONFIG_FILE" });
  });
});
