#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so that there is no build step between a clone and a run.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../harness/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
