// `fleet.yaml`: the configs of a fleet when discovery alone does not say enough: each entry names one tree
// (`path:`) or a directory to discover trees in (`discover:`), with its layout, -D defines, an ignore file for
// its findings and an id; `exclude:` globs leave discovered paths out. Paths are relative to the file and stay
// inside its directory (the fleet is what the operator gave; nothing outside it is read). Every problem names
// file:line:column.
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from "yaml";
import { LAYOUTS, type LayoutId } from "../conf/effective-config.ts";
import { HarnessError } from "../errors.ts";

export { FLEET_FILE_NAME } from "./fleet-file-name.ts";

const ENTRY_KEYS = ["path", "discover", "layout", "defines", "ignore", "name"] as const;
const TOP_KEYS = ["configs", "exclude"] as const;

export interface FleetFileEntry {
  /** Absolute: the tree, or the directory to discover in. */
  path: string;
  kind: "tree" | "discover";
  layout: LayoutId | null;
  defines: string[];
  /** Absolute path of an ignore file for these configs' findings, or null. */
  ignoreFile: string | null;
  /** An id for a `path:` entry, or null (made from the path). */
  name: string | null;
  /** "file:line:column" of the entry, for messages. */
  at: string;
}

export interface FleetFile {
  path: string;
  entries: FleetFileEntry[];
  /** Globs over paths relative to the fleet file's directory that discovery leaves out. */
  exclude: string[];
}

export function parseFleetFile(text: string, file: string): FleetFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const base = dirname(file);
  const where = (node: YamlNode | null | undefined): { line: number; column: number } => {
    const offset = (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
    if (offset === undefined) return { line: 1, column: 1 };
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const fail = (node: YamlNode | null | undefined, message: string, hint: string): never => {
    const { line, column } = where(node);
    throw new HarnessError("HARNESS_FLEET_FILE", message, { position: { file, line, column }, hint });
  };
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    const { line, col: column } = lineCounter.linePos(error.pos[0]);
    throw new HarnessError("HARNESS_FLEET_FILE", error.message.split("\n")[0]!, { position: { file, line, column }, hint: "Fix the YAML syntax." });
  }
  const root = document.contents;
  if (!isMap(root)) return fail(root, "the file is not a mapping with a `configs:` list", "Write `configs:` followed by entries such as `- path: web-01/apache2`.");
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (!(TOP_KEYS as readonly string[]).includes(key)) fail(pair.key as YamlNode, `unknown key "${key}"`, `A fleet file takes ${TOP_KEYS.join(" and ")}.`);
  }
  const inside = (node: YamlNode, value: string, what: string): string => {
    if (isAbsolute(value)) fail(node, `${what} ${JSON.stringify(value)} is absolute`, "Name paths relative to the fleet file's directory.");
    const absolute = resolve(base, value);
    const rel = relative(base, absolute);
    if (rel === ".." || rel.startsWith(`..${sep}`)) fail(node, `${what} ${JSON.stringify(value)} leads out of the fleet's directory ${base}`, "Keep the fleet's configs below the directory of its fleet.yaml.");
    return absolute;
  };
  const text1 = (node: unknown, key: string): string => {
    if (!isScalar(node) || node.value === null || typeof node.value === "object") return fail(node as YamlNode, `"${key}" needs a text value`, "Quote it if it holds YAML characters.");
    return String(node.value);
  };
  const list = root.get("configs", true);
  if (!isSeq(list) || list.items.length === 0) return fail(list ?? root, "the file has no `configs:` list", "Write `configs:` followed by entries such as `- path: web-01/apache2` or `- discover: sites/`.");
  const entries = list.items.map((item): FleetFileEntry => {
    const node = item as YamlNode;
    if (!isMap(item)) return fail(node, "an entry is not a mapping", "Each entry is a mapping: `- path: web-01/apache2` with optional layout, defines, ignore, name.");
    const values: Partial<Record<(typeof ENTRY_KEYS)[number], unknown>> = {};
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) fail(pair.key as YamlNode, `unknown key "${key}"`, `An entry takes ${ENTRY_KEYS.join(", ")}.`);
      values[key as (typeof ENTRY_KEYS)[number]] = pair.value;
    }
    if ((values.path === undefined) === (values.discover === undefined)) fail(node, "an entry needs exactly one of `path:` (one tree) and `discover:` (a directory of trees)", "Write `- path: web-01/apache2` or `- discover: sites/`.");
    const kind = values.path !== undefined ? "tree" : "discover";
    const pathNode = (values.path ?? values.discover) as YamlNode;
    const path = inside(pathNode, text1(pathNode, kind === "tree" ? "path" : "discover"), kind === "tree" ? "path" : "discover");
    let layout: LayoutId | null = null;
    if (values.layout !== undefined) {
      const value = text1(values.layout, "layout");
      if (!(LAYOUTS as readonly string[]).includes(value)) fail(values.layout as YamlNode, `layout ${JSON.stringify(value)} is not one the harness knows`, `Use one of: ${LAYOUTS.join(", ")}.`);
      layout = value as LayoutId;
    }
    let defines: string[] = [];
    if (values.defines !== undefined) {
      if (!isSeq(values.defines)) fail(values.defines as YamlNode, "`defines:` is not a list", "Write `defines: [SSL, PHP]`: the names httpd -D would be given.");
      defines = (values.defines as { items: unknown[] }).items.map((define) => text1(define, "defines"));
    }
    const ignoreFile = values.ignore === undefined ? null : inside(values.ignore as YamlNode, text1(values.ignore, "ignore"), "ignore");
    const name = values.name === undefined ? null : text1(values.name, "name");
    if (name !== null && kind === "discover") fail(values.name as YamlNode, "`name:` names one tree; a `discover:` entry finds several", "Give names to `path:` entries only.");
    if (name !== null && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) fail(values.name as YamlNode, `name ${JSON.stringify(name)} is not an id`, "Use letters, digits, dot, underscore and hyphen.");
    const { line, column } = where(node);
    return { path, kind, layout, defines, ignoreFile, name, at: `${file}:${line}:${column}` };
  });
  const excludeNode = root.get("exclude", true);
  let exclude: string[] = [];
  if (excludeNode !== undefined) {
    if (!isSeq(excludeNode)) fail(excludeNode as YamlNode, "`exclude:` is not a list", "Write `exclude:` followed by globs such as `- sites/old/**`.");
    exclude = (excludeNode as unknown as { items: unknown[] }).items.map((glob) => text1(glob, "exclude"));
  }
  return { path: file, entries, exclude };
}

export async function loadFleetFile(file: string): Promise<FleetFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new HarnessError("HARNESS_FLEET_FILE", `${file}: ${(cause as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (cause as Error).message}`, { cause });
  }
  return parseFleetFile(text, file);
}
