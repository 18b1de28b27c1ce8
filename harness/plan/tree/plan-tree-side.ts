// Pure: one side's plan for an operator's configuration tree. The tree is evaluated for this side's version,
// its module lines carried to the image, its piped and syslog logs pointed at files, what it names but lacks
// made up as stubs, and everything staged at the paths the tree names (its mount), so its own absolute paths
// hold. The fragment layout is the exception: a site file or .htaccess goes into the image's stock config.
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { evaluateTree } from "../../conf/evaluate-tree.ts";
import { isAccessFileFragment } from "../../conf/detect-layout.ts";
import type { ConfigTree } from "../../conf/load-tree.ts";
import { moduleFileOfId } from "../../conf/module-identity.ts";
import { listeners } from "../../conf/queries/listeners.ts";
import type { Scenario, TreeRef } from "../../scenario/scenario.ts";
import type { ImageInspection } from "../../server/image-inspection.ts";
import { layoutCompiledIn } from "../../server/module-succession.ts";
import { moduleBinding } from "../../server/module-map.ts";
import { walkConfig } from "../../conf/queries/walk-config.ts";
import type { Family } from "../../versions/httpd-version.ts";
import { renderConfig } from "../../server/render-config.ts";
import type { PlannedFile, SidePlan } from "../scenario-plan.ts";
import type { Side } from "../side.ts";
import { adaptModules } from "./adapt-modules.ts";
import { applyLineEdits, type LineEdit } from "./line-edit.ts";
import { fragmentEnvironment } from "./fragment-environment.ts";
import { captureLogs } from "./log-capture.ts";
import { logTargets } from "../../server/log-targets.ts";
import type { Adaptation, Stub } from "./tree-side-plan.ts";
import { treeStubs } from "./tree-stubs.ts";
import { stageWorld, type WorldStaging } from "./world-staging.ts";

export interface TreeSideInput {
  side: Side;
  inspection: ImageInspection;
  ref: TreeRef;
  tree: ConfigTree;
  /** Module ids loaded around a fragment besides the image's stock config's (`run --target-modules`), and the
   * option's value that asked for them, for the adaptations' reason. */
  extraModules?: { name: string; ids: readonly string[] } | null;
}

/** Source files of what is in the binary or loaded before the config is read (-C), as <IfModule> sees them. */
export function builtinSourceFiles(names: Iterable<string>): string[] {
  const files = new Set(["core.c", "http_core.c", "mod_so.c"]);
  for (const name of names) {
    const file = moduleFileOfId(`${name}_module`);
    if (file !== null) files.add(file);
  }
  return [...files];
}

function joinPath(mount: string, relative: string): string {
  return `${mount.replace(/\/+$/, "")}/${relative}`.replace(/\/{2,}/g, "/");
}

/** A tree file's content as the plan carries it: text when it is UTF-8, else its bytes, with edits applied. */
function fileContent(bytes: Buffer, edits: readonly LineEdit[]): PlannedFile["content"] {
  const text = bytes.toString("utf8");
  const isText = !text.includes("\u0000") && Buffer.from(text, "utf8").equals(bytes);
  if (isText) return { text: applyLineEdits(text, edits) };
  return { base64: Buffer.from(applyLineEdits(bytes.toString("latin1"), edits), "latin1").toString("base64") };
}

export function evaluateForSide(input: Pick<TreeSideInput, "inspection" | "ref" | "tree">, loadedFirst: readonly string[] = [], environment: Readonly<Record<string, string>> = {}): EffectiveConfig {
  const { inspection, ref, tree } = input;
  return evaluateTree(tree, {
    version: inspection.version,
    defines: ref.defines,
    environment,
    builtinModules: builtinSourceFiles([...inspection.builtinModules, ...loadedFirst]),
  });
}

export function planTreeSide(scenario: Scenario, input: TreeSideInput): Omit<SidePlan, "requests" | "variants"> {
  const { side, inspection, ref, tree } = input;
  const { profile, version } = inspection;
  const family = version.family;
  const fragment = tree.layout === "fragment";
  const image = { family, files: inspection.modules, builtin: inspection.builtinModules, modulesDir: profile.modulesDir };

  // Read once to learn the tree's modules, then again with what the harness loads first (-C), which the
  // tree's <IfModule> sections see. The module lines are adapted from that second reading: a LoadModule
  // only a -C module makes visible (RHEL's `<IfModule prefork.c>` around PHP, on 2.4) is one httpd reads.
  const writtenForFamily = fragment ? family : ref.writtenFor;
  const compiledIn = layoutCompiledIn(tree.layout, ref.writtenFor);
  // A fragment is read after the image's stock config, whose modules its <IfModule> sections see too.
  const stockModules = fragment && inspection.stockConfig !== null ? loadedModuleNames(inspection.stockConfig) : [];
  // `--target-modules`: what the operator's distribution loads around a fragment besides the image's stock config.
  const extra = fragment ? extraModuleLines(input.extraModules ?? null, stockModules, image) : { lines: [], names: [], adaptations: [] };
  const around = [...stockModules, ...extra.names];
  // A fragment out of a Debian tree names envvars' variables: set as envvars would (fragment-environment.ts).
  const variables = fragmentEnvironment(tree);
  let config = evaluateForSide(input, around, variables.environment);
  let modules = adaptModules(config, image, writtenForFamily, compiledIn);
  // Until what is loaded first no longer changes what the tree loads (twice at most in practice).
  for (let round = 0; round < 3 && modules.startDirectives.length > 0; round++) {
    const loadedFirst = loadedModuleNames(modules.startDirectives.join("\n"));
    config = evaluateForSide(input, [...around, ...loadedFirst], variables.environment);
    const again = adaptModules(config, image, writtenForFamily, compiledIn);
    const settled = again.startDirectives.join("\n") === modules.startDirectives.join("\n");
    modules = again;
    if (settled) break;
  }
  // A fragment's own logs are followed besides those of the image's stock config it is appended to.
  const stockText = fragment ? inspection.stockConfig : null;
  const logs = captureLogs(config, stockText === null ? null : { ...logTargets(stockText, profile.serverRoot), text: stockText });

  const editsByFile = new Map<string, LineEdit[]>();
  for (const edit of [...modules.edits, ...logs.edits]) editsByFile.set(edit.file, [...(editsByFile.get(edit.file) ?? []), edit]);

  const mount = tree.source.mount;
  const mainPath = fragment ? profile.configFile : joinPath(mount, tree.mainFile);
  const files: PlannedFile[] = [];
  const fragmentIsHtaccess = isAccessFileFragment(tree);
  let mainText = "";
  for (const [relative, bytes] of tree.source.files) {
    const content = fileContent(bytes, editsByFile.get(relative) ?? []);
    const path = fragmentIsHtaccess && relative === tree.mainFile ? `${profile.docRoot}/.htaccess` : joinPath(mount, relative);
    if (!fragment && relative === tree.mainFile && "text" in content) {
      mainText = content.text;
      continue;
    }
    files.push({ path, content, mode: tree.source.modes.get(relative) ?? 0o644 });
  }
  // Links are staged as the files they lead to: httpd reads through them either way. A file read through a link
  // is named by the link's path (the model's spans, as httpd's messages), so the link's copy takes the edits.
  // A link to a directory of the tree (conf-enabled -> conf-available) is staged as a copy of the files below it.
  for (const [link, target] of tree.source.links) {
    const bytes = tree.source.files.get(target);
    if (bytes !== undefined) {
      files.push({ path: joinPath(mount, link), content: fileContent(bytes, editsByFile.get(link) ?? []), mode: tree.source.modes.get(target) ?? 0o644 });
      continue;
    }
    if (!tree.source.directories.has(target)) continue;
    const prefix = target === "" ? "" : `${target}/`;
    for (const [relative, inner] of tree.source.files) {
      if (!relative.startsWith(prefix)) continue;
      const through = `${link}/${relative.slice(prefix.length)}`;
      files.push({ path: joinPath(mount, through), content: fileContent(inner, editsByFile.get(through) ?? []), mode: tree.source.modes.get(relative) ?? 0o644 });
    }
  }
  if (fragment) {
    const site = fragmentIsHtaccess
      ? `<Directory "${profile.docRoot}">\n    AllowOverride All\n</Directory>`
      : `Include "${joinPath(mount, tree.mainFile)}"`;
    mainText = renderConfig({
      base: "stock",
      family,
      profile,
      availableModules: inspection.modules,
      builtinModules: inspection.builtinModules,
      stockConfig: inspection.stockConfig,
      modules: [],
      omitModules: [],
      logLevel: scenario.server.logLevel,
      listenTls: false,
      site,
    }).text;
  } else if (mainText === "" && tree.source.files.has(tree.mainFile)) {
    // A main file that is not UTF-8: staged from its bytes like the others.
    files.push({ path: mainPath, content: fileContent(tree.source.files.get(tree.mainFile)!, editsByFile.get(tree.mainFile) ?? []) });
  }

  // The probe world, where the scenario sends probes: identities in every store, an object behind every path. Staged
  // before the stubs, so that a store or a page it makes is not made again as the harness's plain stub.
  let world: WorldStaging | null = null;
  if (scenario.server.world) {
    world = stageWorld({
      world: scenario.server.world,
      config,
      files: new Map(files.map((f) => [f.path, f])),
      directories: new Set([...tree.source.directories].map((dir) => joinPath(mount, dir).replace(/\/+$/, ""))),
      defaultRoot: profile.docRoot,
    });
    for (const file of world.files) {
      const at = files.findIndex((f) => f.path === file.path);
      if (at >= 0) files[at] = file;
      else files.push(file);
    }
  }

  const stubs = treeStubs(config, {
    tree: tree.source,
    staged: new Set([mainPath, ...files.map((f) => f.path)]),
    imageMimeTypes: profile.mimeTypes.startsWith("/") ? profile.mimeTypes : `${profile.serverRoot}/${profile.mimeTypes}`,
    imageMagic: imageMagicFile(profile),
    // A fragment's own log files too: a site file naming /var/log/apache2/x.log needs that directory on the image.
    logFiles: logs.files,
  });
  files.push(...stubs.files);
  // A fragment is served from the image's document root, whose sample page differs between the 2.2 and 2.4
  // images ('It works!' in two markups): both sides get one page instead, unless the fragment brings its own.
  const samplePage = `${profile.docRoot}/index.html`;
  const sampleStub: Stub | null =
    fragment && !files.some((f) => f.path === samplePage)
      ? { kind: "document-root", target: profile.docRoot, file: tree.mainFile, line: 1, note: "the image's document root, whose sample page differs between versions: one page for both" }
      : null;
  if (sampleStub) files.push({ path: samplePage, content: { text: "<html><body><h1>the main server</h1><p>A stub page made by httpd-upgrade-harness in place of the image's sample page.</p></body></html>\n" } });

  // Ports httpd listens on at loopback addresses only cannot be published; the local client reaches them.
  const loopback = (address: string | null): boolean => address === "127.0.0.1" || address === "[::1]";
  const all = listeners(config);
  const ports = [...new Set(all.filter((l) => !loopback(l.address)).map((l) => l.port))];
  const defines = ref.defines.flatMap((d) => ["-D", d]);
  const startDirectives = [...extra.lines, ...modules.startDirectives.filter((d) => !extra.lines.includes(d))];
  const args = fragment
    ? [...defines, ...startDirectives.flatMap((d) => ["-C", d])]
    : ["-d", config.serverRoot, "-f", mainPath, ...defines, ...modules.startDirectives.flatMap((d) => ["-C", d])];
  return {
    side,
    server: { image: inspection.image, version: version.text, family, profile: profile.id, facts: inspection.source },
    config: { path: mainPath, text: mainText },
    files,
    prepare: [],
    missingModules: [],
    listenTls: ports.includes(443),
    localClient: false,
    httpd: { args, environment: { ...config.environment } },
    setup: [...emptyDirectories(tree.source), ...stubs.setup, ...(world?.setup ?? [])],
    ports: ports.length > 0 || all.length > 0 ? ports : [80],
    // A fragment whose image's stock config is not known: the launch reads the logs from the staged text.
    logs: fragment && stockText === null ? null : logs.logs,
    world: world?.record ?? null,
    tree: {
      origin: tree.source.origin,
      layout: tree.layout,
      mount,
      mainFile: mainPath,
      serverRoot: fragment ? profile.serverRoot : config.serverRoot,
      defines: ref.defines,
      files: config.files,
      adaptations: [...extra.adaptations, ...modules.adaptations.filter((a) => !extra.lines.includes(a.now)), ...logs.adaptations, ...(world?.adaptations ?? [])],
      stubs: [...variables.stubs, ...stubs.stubs, ...(world?.stubs ?? []), ...(sampleStub ? [sampleStub] : [])],
      problems: [...config.problems],
      stockModules: stockModules.map((name) => `${name}_module`),
      loadedModules: [...new Set([...stockModules, ...loadedModuleNames(startDirectives.join("\n")), ...treeLoadModules(config)].map((name) => `${name}_module`))],
    },
  };
}

/** Where the image keeps mod_mime_magic's file: `make install` puts it beside mime.types in conf/ (seen in both
 * local images); Debian's package puts it at /etc/apache2/magic. */
function imageMagicFile(profile: { serverRoot: string; mimeTypes: string }): string {
  if (profile.mimeTypes.startsWith("/")) return `${profile.serverRoot}/magic`;
  return `${profile.serverRoot}/${profile.mimeTypes.replace(/[^/]*$/, "")}magic`;
}

/** The tree's directories that hold nothing (an empty conf.d/ or vhosts.d/), made at the mount: files are staged
 * one by one, so a directory with none would be missing, and 2.2 refuses an Include of a directory that is not
 * there ('Include directory ... not found') where it reads an empty one as nothing. */
function emptyDirectories(source: ConfigTree["source"]): string[] {
  const entries = [...source.files.keys(), ...source.links.keys(), ...source.directories];
  const empty = [...source.directories].filter((dir) => dir !== "" && !entries.some((entry) => entry.startsWith(`${dir}/`)));
  if (empty.length === 0) return [];
  return [`mkdir -p ${empty.map((dir) => `'${joinPath(source.mount, dir).replace(/'/g, "'\\''")}'`).join(" ")}`];
}

/** `--target-modules` around a fragment: a LoadModule line (given to httpd with -C, before the config is read) for
 * each module the option names that the stock config does not load and the image has. */
function extraModuleLines(
  extra: { name: string; ids: readonly string[] } | null,
  stock: readonly string[],
  image: { family: Family; files: ReadonlySet<string>; builtin: ReadonlySet<string>; modulesDir: string },
): { lines: string[]; names: string[]; adaptations: Adaptation[] } {
  const lines: string[] = [];
  const names: string[] = [];
  const adaptations: Adaptation[] = [];
  if (extra === null) return { lines, names, adaptations };
  for (const id of extra.ids) {
    const name = id.replace(/_module$/, "");
    if (stock.includes(name) || names.includes(name) || image.builtin.has(name)) continue;
    const binding = moduleBinding(name, image.family);
    if (typeof binding === "string" || !image.files.has(binding.file)) continue;
    const line = `LoadModule ${binding.id} ${image.modulesDir}/${binding.file}`;
    names.push(name);
    lines.push(line);
    adaptations.push({ kind: "module-added", file: null, line: null, was: null, now: line, reason: `--target-modules ${extra.name}: loaded around the fragment, as the operator's 2.4 loads it; the image's stock httpd.conf does not` });
  }
  return { lines, names, adaptations };
}

/** The module names a tree's own LoadModule lines load, as this side reads it. */
function treeLoadModules(config: EffectiveConfig): string[] {
  return (walkConfig(config).byKey.get("loadmodule") ?? []).map((entry) => (entry.directive.args[0] ?? "").replace(/_module$/, "")).filter(Boolean);
}

/** The module names (`rewrite` for rewrite_module) a config's own LoadModule lines load, commented ones not. */
function loadedModuleNames(text: string): string[] {
  return [...text.matchAll(/^[ \t]*LoadModule[ \t]+(\S+)_module[ \t]/gm)].map((match) => match[1]!);
}
