// An error's stack as the sources read, where the CLI runs from its bundle (bin/httpd-upgrade-harness.js). Node's own
// source-map support parses the bundle's whole map when the bundle loads and keeps it (about 18 MB of a command's
// memory, a tenth of a large fleet's), for stacks nearly no run prints. So each of the bundle's modules has its map
// beside it (`cli-…/main.mjs.map`, `cli-…/chunk-….mjs.map`; a bundle of one file, `cli-….mjs.map`), and a stack is mapped here, the map read the first time one is asked for: an internal error
// printed or recorded in a report names the source file and line, as before. A stack with no bundle frame (the
// sources through tsx, the tests) is given back as it is.
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A frame's place in a bundle (a module of its directory, or the bundle of one file): the file's URL or path,
 * line and column (1-based). */
const BUNDLE_FRAME = /((?:file:\/\/)?[^\s()]*cli-[0-9a-f]{16}(?:\.mjs|\/[^\s()/:]+\.mjs)):(\d+):(\d+)/g;

const maps = new Map<string, SourceMap | null>();

function mapOf(bundle: string): SourceMap | null {
  let map = maps.get(bundle);
  if (map === undefined) {
    try {
      const path = bundle.startsWith("file:") ? fileURLToPath(bundle) : bundle;
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8")) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    maps.set(bundle, map);
  }
  return map;
}

/** Pure apart from reading the map: `stack` with every bundle position replaced by the source's. */
export function sourceStack(stack: string): string {
  return stack.replace(BUNDLE_FRAME, (whole, bundle: string, line: string, column: string) => {
    const entry = mapOf(bundle)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !("originalSource" in entry) || !entry.originalSource) return whole;
    // esbuild names sources relative to the bundle's place.
    const bundleUrl = bundle.startsWith("file:") ? bundle : pathToFileURL(bundle).href;
    const source = fileURLToPath(new URL(entry.originalSource, bundleUrl));
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** What an internal error says: its stack mapped to the sources, or its message. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.stack ? sourceStack(error.stack) : error.message;
}
