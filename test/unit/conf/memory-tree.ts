// A ConfigTree built in memory for evaluator tests: files by tree path, directories derived from them.
import { posix } from "node:path";
import type { LayoutId } from "../../../harness/conf/effective-config.ts";
import type { ConfigTree } from "../../../harness/conf/load-tree.ts";

export interface MemoryTreeOptions {
  layout?: LayoutId;
  mount?: string;
  mainFile?: string;
  serverRoot?: string;
  /** Link path → target as load-tree records it (tree path, or absolute / `..` when leading out). */
  links?: Record<string, string>;
  directories?: string[];
}

export function memoryTree(files: Record<string, string>, options: MemoryTreeOptions = {}): ConfigTree {
  const directories = new Set<string>([""]);
  const addParents = (path: string): void => {
    for (let dir = posix.dirname(path); dir !== "." && dir !== ""; dir = posix.dirname(dir)) directories.add(dir);
  };
  for (const path of Object.keys(files)) addParents(path);
  for (const path of Object.keys(options.links ?? {})) addParents(path);
  for (const dir of options.directories ?? []) {
    directories.add(dir);
    addParents(dir);
  }
  const mount = options.mount ?? "/usr/local/apache2";
  return {
    source: {
      origin: "memory",
      mount,
      files: new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text)])),
      directories,
      links: new Map(Object.entries(options.links ?? {})),
      modes: new Map(),
    },
    layout: options.layout ?? "official",
    mainFile: options.mainFile ?? "conf/httpd.conf",
    problems: [],
    serverRoot: options.serverRoot ?? mount,
  };
}
