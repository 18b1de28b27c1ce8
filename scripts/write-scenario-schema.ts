// Writes schema/scenario.schema.json from the zod schema of the scenario format (npm run schema).
// test/unit/scenario/scenario-schema.test.ts fails when the committed file differs from what this writes.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { scenarioJsonSchemaText } from "../harness/scenario/scenario-schema.ts";

const SCENARIO_SCHEMA_FILE = fileURLToPath(new URL("../schema/scenario.schema.json", import.meta.url));

writeFileSync(SCENARIO_SCHEMA_FILE, scenarioJsonSchemaText());
process.stdout.write(`wrote ${SCENARIO_SCHEMA_FILE}\n`);
