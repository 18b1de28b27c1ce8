// Pure: a configuration tree given on the command line, as the scenario the rest of the pipeline runs. It has
// no expectations of its own: the judge compares the two sides. Its requests are the smoke requests of every
// virtual host either version would serve, unless a scenario file names the tree and writes its own.
import { evaluateTree } from "../../conf/evaluate-tree.ts";
import type { ConfigTree } from "../../conf/load-tree.ts";
import { loadedModules } from "../../conf/queries/loaded-modules.ts";
import type { SourcePosition } from "../../errors.ts";
import type { Scenario, TreeRef } from "../../scenario/scenario.ts";
import { type Family, httpdVersion } from "../../versions/httpd-version.ts";
import { smokeRequests } from "./smoke-requests.ts";

/** The versions smoke requests are found for, before any image is inspected: the official images' lines. */
const SMOKE_VERSIONS = ["2.2.34", "2.4.68"].map(httpdVersion);
const OFFICIAL_BUILTINS = ["core.c", "http_core.c", "mod_so.c"];

/** The release line a tree was written for, told from what it loads: 2.4 moved the MPM, Require and User into
 * modules a 2.2 tree never loads, and 2.2's own names (authz_default, ...) exist in no 2.4 build. */
export function writtenFor(tree: ConfigTree, defines: readonly string[]): Family {
  const config = evaluateTree(tree, { version: httpdVersion("2.4.68"), defines: [...defines], environment: {}, builtinModules: OFFICIAL_BUILTINS });
  const ids = new Set(loadedModules(config, OFFICIAL_BUILTINS).map((m) => m.id));
  const only24 = ["authz_core_module", "unixd_module", "mpm_prefork_module", "mpm_event_module", "mpm_worker_module", "access_compat_module"];
  return only24.some((id) => ids.has(id)) ? "2.4" : "2.2";
}

export function smokeRequestsFor(trees: readonly { tree: ConfigTree; ref: TreeRef }[], at: SourcePosition): Scenario["requests"] {
  const configs = trees.flatMap(({ tree, ref }) =>
    SMOKE_VERSIONS.map((version) => evaluateTree(tree, { version, defines: ref.defines, environment: {}, builtinModules: OFFICIAL_BUILTINS })),
  );
  // A fragment is read into the image's own config, which listens on 80.
  const fragment = trees.some(({ tree }) => tree.layout === "fragment");
  return smokeRequests(configs, at, fragment ? [{ host: null, port: 80, tls: false, client: "host" }] : []);
}

export interface TreeScenarioInput {
  id: string;
  baseline: { tree: ConfigTree; ref: TreeRef };
  candidate: { tree: ConfigTree; ref: TreeRef };
}

export function treeScenario(input: TreeScenarioInput): Scenario {
  const { baseline, candidate } = input;
  const at: SourcePosition = { file: baseline.ref.path, line: 1, column: 1 };
  const same = baseline.ref.path === candidate.ref.path;
  const title = same
    ? `${baseline.tree.layout} tree ${baseline.ref.path}`
    : `${baseline.tree.layout} tree ${baseline.ref.path}, ported as ${candidate.ref.path}`;
  return {
    file: baseline.ref.path,
    at,
    id: input.id,
    title,
    seed: [],
    guideClaim: null,
    guideNotes: [],
    server: {
      at,
      base: "none",
      modules: { both: [] },
      omitModules: { both: [] },
      config: { both: "" },
      files: [],
      logLevel: "warn",
      prepare: { both: [] },
      tls: null,
      tree: { baseline: baseline.ref, candidate: candidate.ref },
    },
    backends: [],
    clients: [],
    requests: smokeRequestsFor(same ? [baseline] : [baseline, candidate], at),
    expect: {},
    guide: {},
    timeLimitMs: null,
    ignore: [],
    predicted: [],
  };
}
