// The configuration tree one side of a plan really stages, as a ConfigTree the model can evaluate: the
// operator's tree with the plan's line edits in its files (LoadModule carried to the image, logs captured), so
// the model and the real httpd read the same text. Links stay links, so the model's own link handling is what
// is checked. A fragment is read by httpd through the image's stock config, so its tree is everything staged,
// mounted at /.
import { posix } from "node:path";
import type { ConfigTree } from "../../harness/conf/load-tree.ts";
import type { SidePlan } from "../../harness/plan/scenario-plan.ts";

function stagedBytes(plan: SidePlan): Map<string, Buffer> {
  const staged = new Map<string, Buffer>([[plan.config.path, Buffer.from(plan.config.text, "utf8")]]);
  for (const file of plan.files) {
    // Generated certificates are not configuration; their content does not matter to the model.
    const bytes = "text" in file.content ? Buffer.from(file.content.text, "utf8") : "base64" in file.content ? Buffer.from(file.content.base64, "base64") : Buffer.alloc(0);
    if (!staged.has(file.path)) staged.set(file.path, bytes);
  }
  return staged;
}

/** @param serverRoot the image's ServerRoot, which httpd starts with when a fragment's plan passes no -d */
export function plannedTree(tree: ConfigTree, plan: SidePlan, serverRoot: string): ConfigTree {
  const staged = stagedBytes(plan);
  if (tree.layout === "fragment") {
    const files = new Map<string, Buffer>();
    const directories = new Set<string>([""]);
    for (const [path, bytes] of staged) {
      const relative = path.replace(/^\/+/, "");
      files.set(relative, bytes);
      for (let dir = posix.dirname(relative); dir !== "."; dir = posix.dirname(dir)) directories.add(dir);
    }
    return {
      source: { origin: tree.source.origin, mount: "/", files, directories, links: new Map(), modes: new Map() },
      layout: "official",
      mainFile: plan.config.path.replace(/^\/+/, ""),
      problems: [],
      serverRoot,
    };
  }
  const mount = tree.source.mount;
  const at = (relative: string): string => posix.join(mount, relative);
  const files = new Map<string, Buffer>();
  for (const [relative, original] of tree.source.files) files.set(relative, staged.get(at(relative)) ?? original);
  // httpd reads a linked file through its link, which the plan stages with the edits made for the path read.
  const takeEdits = (through: string, target: string): void => {
    const bytes = staged.get(at(through));
    if (bytes !== undefined && files.has(target) && !bytes.equals(tree.source.files.get(target)!)) files.set(target, bytes);
  };
  for (const [link, target] of tree.source.links) {
    if (tree.source.files.has(target)) takeEdits(link, target);
    else if (tree.source.directories.has(target)) {
      for (const relative of tree.source.files.keys()) if (relative.startsWith(`${target}/`)) takeEdits(`${link}/${relative.slice(target.length + 1)}`, relative);
    }
  }
  return { ...tree, source: { ...tree.source, files } };
}
