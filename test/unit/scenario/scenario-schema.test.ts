import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scenarioFileSchema, scenarioJsonSchema, scenarioJsonSchemaText } from "../../../harness/scenario/scenario-schema.ts";

const COMMITTED = new URL("../../../schema/scenario.schema.json", import.meta.url);

describe("schema/scenario.schema.json", () => {
  it("is exactly what scripts/write-scenario-schema.ts writes (run `npm run schema` after changing the format)", () => {
    expect(readFileSync(COMMITTED, "utf8")).toBe(scenarioJsonSchemaText());
  });

  it("is JSON Schema draft 2020-12 describing the file as written, defaults included", () => {
    const schema = scenarioJsonSchema() as {
      $schema: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { default?: unknown }>;
    };
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.required).toEqual(["id", "title"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.seed?.default).toEqual([]);
  });
});

describe("scenarioFileSchema", () => {
  it("applies defaults down to nested maps", () => {
    const parsed = scenarioFileSchema.parse({ id: "a", title: "A", requests: [{ name: "r", path: "/" }] });
    expect(parsed.server).toEqual({ base: "minimal", modules: [], omitModules: [], logLevel: "warn", config: "", files: {}, prepare: [] });
    expect(parsed.requests[0]).toMatchObject({ client: "host", method: "GET", keepAlive: 1, repeat: true, timeoutMs: 10_000, http: "1.1" });
  });

  it("rejects unknown keys", () => {
    expect(scenarioFileSchema.safeParse({ id: "a", title: "A", extra: 1 }).success).toBe(false);
  });
});
