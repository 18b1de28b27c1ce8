// `--layout`: the layouts a tree can be read as (conf/effective-config.ts), checked as an option.
import { LAYOUTS, type LayoutId } from "../conf/effective-config.ts";
import { HarnessError } from "../errors.ts";

export function parseLayout(value: string | undefined): LayoutId | null {
  if (value === undefined) return null;
  if ((LAYOUTS as readonly string[]).includes(value)) return value as LayoutId;
  throw new HarnessError("HARNESS_USAGE", `--layout ${JSON.stringify(value)} is not a layout the harness knows`, { hint: `Use one of: ${LAYOUTS.join(", ")}.` });
}
