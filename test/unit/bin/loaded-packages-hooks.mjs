// The resolve hook of loaded-packages.mjs: every URL resolved, appended to the log as it is resolved.
import { appendFileSync } from "node:fs";

let log;
export function initialize(data) {
  log = data.log;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, `${result.url}\n`);
  return result;
}
