// zod issues → ScenarioIssues with positions and messages in the format's own words. A failed union is
// narrowed to the branch the user evidently meant (the only one whose type matched), so
// `modules: { "2.2": [1] }` reports the 1, not "invalid input".
import type { z } from "zod";
import { keyHint } from "./key-hints.ts";
import type { ScenarioIssue } from "./scenario-issue.ts";
import { RANGES_SCHEMAS, scenarioFileSchema, VERSION_RANGE_KEY_PATTERN } from "./scenario-schema.ts";
import type { PathSegment, YamlLocator } from "./yaml-locator.ts";

type ZodIssue = z.core.$ZodIssue;

export function schemaIssues(issues: readonly ZodIssue[], data: unknown, locator: YamlLocator): ScenarioIssue[] {
  return flattenUnions(issues, [])
    .flatMap((issue) => rangeIssues(issue, data))
    .flatMap((issue) => describeIssue(issue, data, locator));
}

/** An "unknown key" complaint about a family's value whose keys are all version ranges means the ranges' own
 * values are wrong: report those, at their own paths. */
function rangeIssues(issue: ZodIssue, data: unknown): ZodIssue[] {
  const family = issue.path[issue.path.length - 1];
  if (issue.code !== "unrecognized_keys" || (family !== "2.2" && family !== "2.4")) return [issue];
  if (!issue.keys.every((key) => VERSION_RANGE_KEY_PATTERN.test(key))) return [issue];
  const value = valueAt(data, issue.path as PathSegment[]);
  if (!value.found) return [issue];
  const schema = issue.path[0] === "requests" ? RANGES_SCHEMAS.response : RANGES_SCHEMAS.server;
  const result = schema.safeParse(value.value);
  if (result.success) return [issue];
  return flattenUnions(result.error.issues, issue.path as PathSegment[]);
}

/** Issues with absolute paths; unions replaced by their evident branch where there is one. */
function flattenUnions(issues: readonly ZodIssue[], prefix: readonly PathSegment[]): ZodIssue[] {
  const result: ZodIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path as PathSegment[])];
    if (issue.code === "invalid_union") {
      const branch = evidentBranch(issue.errors);
      if (branch !== undefined) {
        result.push(...flattenUnions(branch, path));
        continue;
      }
    }
    result.push({ ...issue, path } as ZodIssue);
  }
  return result;
}

/** Branches whose type matched (no type error at their root); the one with the fewest issues if it is the only
 * one with that count. */
function evidentBranch(branches: readonly (readonly ZodIssue[])[]): readonly ZodIssue[] | undefined {
  const matched = branches.filter(
    (branch) => branch.length > 0 && !branch.some((issue) => issue.path.length === 0 && issue.code === "invalid_type"),
  );
  if (matched.length === 0) return undefined;
  // A branch that refused the value's keys did not recognise its shape: a family's value is either one
  // expectation or a map of version ranges, and only the branch that accepts its keys speaks about its values.
  // Where every branch refused a key, the strict object's "unknown key" (with its suggestion) says most.
  const keyRefused = (branch: readonly ZodIssue[]): boolean =>
    branch.some((issue) => issue.code === "invalid_key" || (issue.code === "unrecognized_keys" && issue.path.length === 0));
  const shaped = matched.filter((branch) => !keyRefused(branch));
  const strict = matched.filter((branch) => !branch.some((issue) => issue.code === "invalid_key"));
  const candidates = shaped.length > 0 ? shaped : strict.length > 0 ? strict : matched;
  const fewest = Math.min(...candidates.map((branch) => branch.length));
  const best = candidates.filter((branch) => branch.length === fewest);
  return best.length === 1 ? best[0] : undefined;
}

function describeIssue(issue: ZodIssue, data: unknown, locator: YamlLocator): ScenarioIssue | ScenarioIssue[] {
  const path = issue.path as PathSegment[];
  const hint = keyHint(path);
  const base = { path, expected: hint?.expected, example: hint?.example };
  const value = valueAt(data, path);
  const received = value.found ? { value: value.value } : undefined;
  switch (issue.code) {
    case "invalid_type": {
      if (value.found === false) {
        // Shown at the map that lacks the key; expected/example describe the key itself.
        return {
          ...base,
          path: path.slice(0, -1),
          position: locator.position(path),
          problem: `missing required key "${String(path[path.length - 1])}"`,
        };
      }
      return {
        ...base,
        position: locator.position(path),
        problem: `wrong type: ${typeName(received?.value)} where ${article(issue.expected)} is needed`,
        expected: hint?.expected ?? article(issue.expected),
        received,
      };
    }
    case "unrecognized_keys": {
      const known = objectKeysAt(path);
      return issue.keys.map((key): ScenarioIssue => {
        const suggestion = closest(key, known);
        return {
          path: [...path, key],
          position: locator.keyPosition([...path, key]),
          problem: `unknown key "${key}"${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}`,
          expected: known.length > 0 ? `one of: ${known.join(", ")}` : base.expected,
          example: base.example,
        };
      });
    }
    case "invalid_value":
      return {
        ...base,
        position: locator.position(path),
        problem: `not one of the allowed values`,
        expected: hint?.expected ?? `one of: ${issue.values.map((allowed) => String(allowed)).join(", ")}`,
        received,
      };
    case "invalid_format":
      return {
        ...base,
        position: locator.position(path),
        problem: "not in the expected form",
        expected: hint?.expected ?? `text matching ${"pattern" in issue ? String(issue.pattern) : issue.format}`,
        received,
      };
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? `at least ${String(issue.minimum)}` : `at most ${String(issue.maximum)}`;
      const what = issue.origin === "string" ? `text of ${bound} characters` : issue.origin === "array" ? `${bound} items` : bound;
      return {
        ...base,
        position: locator.position(path),
        problem: issue.origin === "string" && issue.code === "too_small" ? "empty" : `out of range: ${what} expected`,
        received,
      };
    }
    case "invalid_union":
      return {
        ...base,
        position: locator.position(path),
        problem: "not in any accepted form",
        expected: hint?.expected ?? issue.message,
        received,
      };
    case "invalid_key":
      return {
        ...base,
        position: locator.position(path),
        problem: `invalid key: ${issue.issues.map((inner) => inner.message).join("; ")}`,
      };
    default:
      return { ...base, position: locator.position(path), problem: issue.message, received };
  }
}

function valueAt(data: unknown, path: readonly PathSegment[]): { found: true; value: unknown } | { found: false } {
  let current: unknown = data;
  for (const segment of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return { found: false };
    current = (current as Record<string, unknown>)[segment];
  }
  return { found: true, value: current };
}

function typeName(value: unknown): string {
  if (value === null) return "nothing (null)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}

function article(expected: string): string {
  const words: Record<string, string> = { object: "a map", array: "a list", int: "an integer", integer: "an integer" };
  return words[expected] ?? (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);
}

/** The keys the schema allows for the map at `path` (all branches of a union that take a map). */
function objectKeysAt(path: readonly PathSegment[]): string[] {
  let schemas: z.core.$ZodType[] = [scenarioFileSchema];
  for (const segment of path) {
    schemas = schemas.flatMap((schema) => children(schema, segment));
  }
  const keys = new Set<string>();
  for (const schema of schemas.flatMap(unwrap)) {
    const def = schema._zod.def;
    if (def.type === "object") for (const key of Object.keys((def as z.core.$ZodObjectDef).shape)) keys.add(key);
  }
  return [...keys];
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = schema._zod.def;
  switch (def.type) {
    case "optional":
    case "default":
    case "prefault":
    case "nullable":
      return unwrap((def as z.core.$ZodOptionalDef).innerType);
    case "union":
      return (def as z.core.$ZodUnionDef).options.flatMap(unwrap);
    case "pipe":
      return unwrap((def as z.core.$ZodPipeDef).in);
    default:
      return [schema];
  }
}

function children(schema: z.core.$ZodType, segment: PathSegment): z.core.$ZodType[] {
  return unwrap(schema).flatMap((inner) => {
    const def = inner._zod.def;
    if (def.type === "object") {
      const child = (def as z.core.$ZodObjectDef).shape[String(segment)];
      return child === undefined ? [] : [child];
    }
    if (def.type === "array" && typeof segment === "number") return [(def as z.core.$ZodArrayDef).element];
    if (def.type === "record") return [(def as z.core.$ZodRecordDef).valueType];
    return [];
  });
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
