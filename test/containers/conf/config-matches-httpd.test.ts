// The configuration model checked against httpd itself: every sample tree of configs/ is planned and staged as a
// run stages it, the real binary is asked what it read (`-t -D DUMP_INCLUDES` on 2.4), which modules it loaded
// (`-M`) and which virtual hosts it set up (`-S`), and the model's answers for the same version, the same
// adapted tree, the same built-in and -C modules must be the same. Where httpd refuses the tree on a version it
// prints no module or vhost dump: the refusal's file:line must be one the model knows, and 2.4's include dump
// (printed before the refusal) is still compared.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { treeScenarios } from "../../../harness/cli/tree-inputs.ts";
import type { EffectiveConfig } from "../../../harness/conf/effective-config.ts";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import {
  type DumpedAddress,
  type DumpedRunSettings,
  guessedServerName,
  parseConfigRefusal,
  parseIncludesDump,
  parseModulesDump,
  parseRunSettings,
  parseVhostsDump,
} from "../../../harness/conf/httpd-dumps.ts";
import { treePathOf } from "../../../harness/conf/include-paths.ts";
import { loadedModules } from "../../../harness/conf/queries/loaded-modules.ts";
import { hostLogTargets } from "../../../harness/conf/queries/log-targets.ts";
import { pidFile } from "../../../harness/conf/queries/pid-file.ts";
import { runAs } from "../../../harness/conf/queries/run-as.ts";
import { effectiveServerRoot } from "../../../harness/conf/queries/server-root.ts";
import { type DumpVhost, vhostDump } from "../../../harness/conf/queries/vhost-dump.ts";
import { mainServer } from "../../../harness/conf/queries/virtual-hosts.ts";
import { walkConfig } from "../../../harness/conf/queries/walk-config.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { planScenario } from "../../../harness/plan/plan-scenario.ts";
import type { SidePlan } from "../../../harness/plan/scenario-plan.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { builtinSourceFiles } from "../../../harness/plan/tree/plan-tree-side.ts";
import { type ImageInspection, inspectImage } from "../../../harness/server/inspect-image.ts";
import type { Family } from "../../../harness/versions/httpd-version.ts";
import { plannedTree } from "../../helpers/planned-tree.ts";
import { stageSidePlan } from "../../helpers/stage-side-plan.ts";

const CONFIGS = resolve(import.meta.dirname, "../../../configs");
const SAMPLES = readdirSync(CONFIGS).filter((name) => statSync(join(CONFIGS, name)).isDirectory()).sort();

/** What httpd refuses each sample with, per version: the directive its "Invalid command" names, and where.
 * A sample that is not listed must pass the config test; one that is must be refused just so. */
const REFUSALS: Record<Family, Record<string, { command: string; at: string }>> = {
  "2.2": {},
  "2.4": {
    "app-htaccess": { command: "RewriteLog", at: "conf/extra/httpd-vhosts.conf:27" },
    "debian-ssl": { command: "LockFile", at: "apache2.conf:21" },
    "https-origin-proxy": { command: "SSLMutex", at: "conf/extra/httpd-ssl.conf:20" },
    "rhel-balancer": { command: "LockFile", at: "conf/httpd.conf:27" },
  },
};

interface Sample {
  plan: SidePlan;
  config: EffectiveConfig;
  builtinFiles: string[];
  /** Module ids loaded with -C before the config is read. */
  firstLoaded: string[];
  /** Absolute path in the server → the model's tree path; null when outside the tree. */
  treePath: (absolute: string) => string | null;
}

async function planSample(name: string, inspection: ImageInspection): Promise<Sample> {
  const { scenarios, trees } = await treeScenarios({ configs: [join(CONFIGS, name)], candidateConfigs: [], layout: undefined, defines: [] });
  const side = inspection.version.family === "2.2" ? BASELINE : CANDIDATE;
  const plan = planScenario(scenarios[0]!, [{ side, inspection }], trees).sides[0]!;
  const tree = plannedTree([...trees.values()][0]!, plan, inspection.profile.serverRoot);
  const firstLoaded = plan.httpd.args.flatMap((arg) => /^LoadModule (\S+)_module /.exec(arg)?.[1] ?? []);
  const builtinFiles = builtinSourceFiles([...inspection.builtinModules, ...firstLoaded]);
  const config = evaluateTree(tree, { version: inspection.version, defines: plan.tree?.defines ?? [], environment: {}, builtinModules: builtinFiles });
  return { plan, config, builtinFiles, firstLoaded: firstLoaded.map((n) => `${n}_module`), treePath: (absolute) => treePathOf(tree.source.mount, absolute) };
}

/** The model's -S (vhost-dump.ts) in the parsed dump's shape; a vhost without a name takes the one httpd guessed. */
function modelVhosts(config: EffectiveConfig, guessedName: string | null): DumpedAddress[] {
  const shown = (vhost: DumpVhost) => ({
    name: vhost.name ?? guessedName ?? "(no name)",
    file: vhost.span.file,
    line: vhost.span.line,
    aliases: vhost.aliases,
    wildAliases: vhost.wildAliases,
  });
  return vhostDump(config).map((address) => {
    const { aliases: _aliases, wildAliases: _wild, ...defaultServer } = shown(address.defaultServer);
    return { address: address.address, nameBased: address.nameBased, defaultServer, vhosts: address.vhosts.map(shown) };
  });
}

/** The model's answers to what 2.4's -S prints after the vhosts; null where it claims no value. */
function modelRunSettings(config: EffectiveConfig): DumpedRunSettings {
  const errorLog = hostLogTargets(config, null).errorLog;
  const { user, group } = runAs(config);
  return {
    serverRoot: effectiveServerRoot(config).path,
    documentRoot: mainServer(config).documentRoot?.path ?? null,
    errorLog: errorLog === null ? null : (errorLog.path ?? errorLog.value),
    pidFile: pidFile(config)?.path ?? null,
    user: user?.value ?? null,
    group: group?.value ?? null,
  };
}

const byAddress = (a: { address: string }, b: { address: string }): number => a.address.localeCompare(b.address);

const images = inject("images");
const versions: Array<{ family: Family; image: string | null; skip: string | null }> = [
  { family: "2.4", image: images.candidate, skip: null },
  { family: "2.2", image: images.baseline, skip: images.baselineMissingReason },
];

describe.each(versions)("the config model against httpd $family", { timeout: 120_000 }, ({ family, image, skip }) => {
  let scope: RunScope;
  let inspection: ImageInspection;
  beforeAll(async () => {
    if (image === null) return;
    scope = new RunScope(await connectEngine());
    inspection = await inspectImage(scope, image);
    expect(inspection.version.family).toBe(family);
  });
  afterAll(async () => {
    await scope?.dispose();
  });

  for (const name of SAMPLES) {
    const refusal = REFUSALS[family][name];
    const title = refusal
      ? `${name}: httpd ${family} refuses it (Invalid command '${refusal.command}' at ${refusal.at}), a line the model knows; its included files match, its module and vhost dumps cannot be compared (httpd prints none)`
      : family === "2.4"
        ? `${name}: httpd 2.4 reads the same files, loads the same modules, sets up the same vhosts and run settings as the model says`
        : `${name}: httpd 2.2 loads the same modules and sets up the same vhosts (files named as the model names them) as the model says; 2.2 has no DUMP_INCLUDES`;
    it(title, async (context) => {
      if (image === null) return context.skip(skip ?? "no baseline image");
      const sample = await planSample(name, inspection);
      await using staged = await stageSidePlan(scope, sample.plan, inspection, `realcheck-${name}`);
      const test = await staged.ask(["-t"]);

      if (family === "2.4") {
        const includes = await staged.ask(["-t", "-D", "DUMP_INCLUDES"]);
        const read = parseIncludesDump(includes.stdout).map((file) => sample.treePath(file.path));
        expect(read.length, includes.stdout + includes.stderr).toBeGreaterThan(0);
        expect(read, "files httpd -t -D DUMP_INCLUDES lists").toEqual(sample.config.files);
      }

      if (refusal) {
        expect(test.exitCode, test.stderr).not.toBe(0);
        const refused = parseConfigRefusal(test.stderr);
        expect(refused, test.stderr).not.toBeNull();
        expect(refused!.message).toMatch(new RegExp(`^Invalid command '${refusal.command}'`));
        const at = `${sample.treePath(refused!.file)}:${refused!.line}`;
        expect(at).toBe(refusal.at);
        const [file, line] = [at.slice(0, at.lastIndexOf(":")), Number(at.slice(at.lastIndexOf(":") + 1))];
        expect(sample.config.files).toContain(file);
        const known = walkConfig(sample.config).directives.filter(({ directive }) => directive.span.file === file && directive.span.line === line);
        expect(known.map(({ directive }) => directive.name)).toEqual([refusal.command]);
        // No dump follows a refusal.
        expect(parseModulesDump((await staged.ask(["-M"])).stdout)).toEqual([]);
        expect(parseVhostsDump((await staged.ask(["-S"])).stdout)).toEqual([]);
        return;
      }

      expect(test.exitCode, test.stderr).toBe(0);
      const modules = parseModulesDump((await staged.ask(["-M"])).stdout);
      const model = loadedModules(sample.config, sample.builtinFiles);
      const imageBuiltins = new Set(model.filter((m) => m.origin === "static" && !sample.firstLoaded.includes(m.id)).map((m) => m.id));
      expect({
        static: modules.filter((m) => m.origin === "static").map((m) => m.id).sort(),
        shared: modules.filter((m) => m.origin === "shared").map((m) => m.id),
      }, "modules httpd -M lists").toEqual({
        static: [...imageBuiltins].sort(),
        shared: [...sample.firstLoaded, ...model.filter((m) => m.origin === "shared").map((m) => m.id)],
      });

      const vhosts = await staged.ask(["-S"]);
      const dumped = parseVhostsDump(vhosts.stdout).map((address) => ({
        ...address,
        defaultServer: { ...address.defaultServer, file: sample.treePath(address.defaultServer.file) },
        vhosts: address.vhosts.map((v) => ({ ...v, file: sample.treePath(v.file) })),
      }));
      expect(dumped.sort(byAddress), `httpd -S:\n${vhosts.stdout}`).toEqual(modelVhosts(sample.config, guessedServerName(vhosts.stderr)).sort(byAddress));
      // 2.4's -S goes on with the run settings (DUMP_RUN_CFG); 2.2's stops at the vhosts.
      if (family === "2.4") expect(parseRunSettings(vhosts.stdout), `httpd -S:\n${vhosts.stdout}`).toEqual(modelRunSettings(sample.config));
    });
  }
});

