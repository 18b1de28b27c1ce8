// The import graph of harness/: no cycle, and no arrow from a lower stage of the pipeline to a higher one. The
// checker is pure (sources in, findings out) and tested on small graphs first, so a broken checker cannot pass
// the real graph by finding nothing.
import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** The intended layering, lowest stage first. A module may import from its own stage or a lower one. Entries
 * ending in "/" are folders of harness/, others single files; "future" ones do not exist yet and have their
 * place so that they start in it. */
const STAGES: readonly (readonly string[])[] = [
  ["errors.ts", "repo-paths.ts", "source-stack.ts", "versions/"],
  ["logs/"],
  ["scenario/", "conf/", "access/"],
  ["engine/"],
  ["server/", "clients/", "backends/"],
  ["plan/"],
  ["observe/"],
  ["judge/", "rules/"],
  ["migrate/"],
  ["report/"],
  ["fleet/"],
  ["cli/"],
];

/** Arrows that break the layering today, as "importer -> imported" (paths under harness/). None since the
 * pipeline refactor; an entry that no longer occurs fails the test too. */
const KNOWN_VIOLATIONS: readonly string[] = [];

// ---- the checker -------------------------------------------------------------------------------------------

/** The specifiers of a module's static imports and re-exports (`import`, `import type`, `export ... from`,
 * `export * from`, side-effect `import "x"`), in order. Comments and strings are not mistaken for imports. */
function importSpecifiers(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier !== undefined && ts.isStringLiteral(specifier)) specifiers.push(specifier.text);
  }
  return specifiers;
}

/** Module path -> the modules it imports, for the relative specifiers only (packages and node: are not part of
 * the graph). Paths are POSIX paths relative to the root of `sources`; an import of a file not in `sources`
 * is kept, so that it shows up as unresolved. */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [path, source] of sources) {
    const targets = importSpecifiers(path, source)
      .filter((specifier) => specifier.startsWith("./") || specifier.startsWith("../"))
      .map((specifier) => posix.normalize(posix.join(posix.dirname(path), specifier)));
    graph.set(path, [...new Set(targets)]);
  }
  return graph;
}

/** One cycle per strongly connected component that has one (Tarjan), each as a path that starts and ends at
 * the same module, e.g. ["a.ts", "b.ts", "a.ts"]. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);

  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    if (component.length === 1 && !(graph.get(start) ?? []).includes(start)) continue;
    // Breadth-first from start back to start, inside the component: a shortest cycle through it.
    const previous = new Map<string, string>();
    const queue = [start];
    let closing: string | undefined;
    while (queue.length > 0 && closing === undefined) {
      const node = queue.shift()!;
      for (const next of graph.get(node) ?? []) {
        if (next === start) {
          closing = node;
          break;
        }
        if (members.has(next) && !previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    const between: string[] = [];
    for (let node = closing!; node !== start; node = previous.get(node)!) between.unshift(node);
    cycles.push([start, ...between, start]);
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The stage of a module path (relative to harness/), or null when the table has no place for it. */
function stageOf(path: string, stages: readonly (readonly string[])[] = STAGES): number | null {
  const found = stages.findIndex((entries) => entries.some((entry) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry)));
  return found < 0 ? null : found;
}

/** Every arrow from a module to one of a higher stage, as "importer -> imported". */
function layerViolations(graph: ReadonlyMap<string, readonly string[]>, stages: readonly (readonly string[])[] = STAGES): string[] {
  const violations: string[] = [];
  for (const [from, targets] of graph) {
    const own = stageOf(from, stages);
    for (const to of targets) {
      const theirs = stageOf(to, stages);
      if (own !== null && theirs !== null && theirs > own) violations.push(`${from} -> ${to}`);
    }
  }
  return violations.sort();
}

// ---- the checker on small graphs ---------------------------------------------------------------------------

describe("the import-graph checker", () => {
  it("reads static imports, type imports and re-exports, not comments or strings", () => {
    const source = [
      `import { a } from "./a.ts";`,
      `import type { B } from "../b/b.ts";`,
      `import {`,
      `  c,`,
      `  type C,`,
      `} from "./c.ts";`,
      `import "./side-effect.ts";`,
      `export { d } from "./d.ts";`,
      `export type { E } from "./e.ts";`,
      `export * from "./f.ts";`,
      `import { readFile } from "node:fs/promises";`,
      `// import { no } from "./comment.ts";`,
      `const text = 'import { no } from "./string.ts"';`,
      `export const g = 1;`,
    ].join("\n");
    expect(importSpecifiers("x/m.ts", source)).toEqual([
      "./a.ts",
      "../b/b.ts",
      "./c.ts",
      "./side-effect.ts",
      "./d.ts",
      "./e.ts",
      "./f.ts",
      "node:fs/promises",
    ]);
  });

  it("resolves relative specifiers against the importing module and leaves packages out", () => {
    const graph = importGraph(
      new Map([
        ["cli/main.ts", `import { run } from "./run-command.ts"; import pc from "picocolors"; import { E } from "../errors.ts";`],
        ["errors.ts", ``],
      ]),
    );
    expect(graph.get("cli/main.ts")).toEqual(["cli/run-command.ts", "errors.ts"]);
    expect(graph.get("errors.ts")).toEqual([]);
  });

  it("finds a cycle and gives its path", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts", "d.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(findCycles(graph)).toEqual([
      ["a.ts", "b.ts", "c.ts", "a.ts"],
      ["e.ts", "e.ts"],
    ]);
    expect(findCycles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", []]]))).toEqual([]);
  });

  it("flags an arrow to a higher stage and allows its own stage and lower ones", () => {
    const stages = [["errors.ts"], ["low/"], ["high/", "peer/"]];
    const graph = new Map([
      ["low/x.ts", ["high/y.ts", "errors.ts", "low/z.ts"]],
      ["high/y.ts", ["peer/w.ts", "low/x.ts"]],
      ["errors.ts", ["low/z.ts"]],
    ]);
    expect(layerViolations(graph, stages)).toEqual(["errors.ts -> low/z.ts", "low/x.ts -> high/y.ts"]);
    expect(stageOf("elsewhere/q.ts", stages)).toBeNull();
  });
});

// ---- harness/ ----------------------------------------------------------------------------------------------

const HARNESS = fileURLToPath(new URL("../../../harness/", import.meta.url));
const sources = new Map(
  readdirSync(HARNESS, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => [path.split("\\").join("/"), readFileSync(`${HARNESS}${path}`, "utf8")] as const),
);
const graph = importGraph(sources);

describe("the import graph of harness/", () => {
  it("has modules to check, and every import resolves to one of them", () => {
    expect(sources.size).toBeGreaterThan(50);
    const unresolved = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => !to.startsWith("../") && !sources.has(to)).map((to) => `${from} -> ${to}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("places every module in a stage of the layering", () => {
    expect([...sources.keys()].filter((path) => stageOf(path) === null)).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(findCycles(graph).map((cycle) => cycle.join(" -> "))).toEqual([]);
  });

  it("imports only from the same stage or a lower one, apart from the known violations", () => {
    const found = layerViolations(graph);
    expect(found.filter((violation) => !KNOWN_VIOLATIONS.includes(violation)), "new arrows to a higher stage").toEqual([]);
    expect(KNOWN_VIOLATIONS.filter((violation) => !found.includes(violation)), "known violations that are gone: delete them").toEqual([]);
  });
});
