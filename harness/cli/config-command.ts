// `config PATH`: what httpd would read from a configuration tree, for one version, with no engine: the files
// included, the modules, the virtual hosts and every directive with file:line, as text or as the JSON contract
// of schema/config.schema.json. Problems are printed with the rest; one of severity "error" makes the exit
// status 2 (bad input), after everything is printed.
import { HarnessError } from "../errors.ts";
import { evaluateTree } from "../conf/evaluate-tree.ts";
import { LAYOUTS, type LayoutId } from "../conf/effective-config.ts";
import { loadTree } from "../conf/load-tree.ts";
import { configDocument, mergeProblems } from "../conf/queries/config-document.ts";
import { renderConfigText } from "../conf/queries/config-text.ts";
import { type Family, type HttpdVersion, parseHttpdVersion } from "../versions/httpd-version.ts";
import { EXIT } from "./exit-status.ts";
import { parseOptions } from "./parse-options.ts";

/** The release a family name stands for: the official 2.2 image's and the local 2.4 image's (as `plan`). */
export const CONFIG_VERSIONS: Record<Family, string> = { "2.2": "2.2.34", "2.4": "2.4.68" };

/** `httpd -l` of the builds, by source file, in httpd's order: the official images (2.2.34 has prefork built
 * in, 2.4 loads its MPM; cf. server/official-defaults.ts) and Debian's apache2 2.4, which also builds in
 * mod_unixd, mod_log_config, mod_logio, mod_version and mod_watchdog (recorded in
 * test/unit/server/inspect-image.test.ts). */
export const COMPILED_IN_MODULES: Record<Family, readonly string[]> = {
  "2.2": ["core.c", "prefork.c", "http_core.c", "mod_so.c"],
  "2.4": ["core.c", "mod_so.c", "http_core.c"],
};
const DEBIAN_COMPILED_IN_24 = [
  "core.c", "mod_so.c", "mod_watchdog.c", "http_core.c", "mod_log_config.c", "mod_logio.c", "mod_version.c", "mod_unixd.c",
] as const;

export function compiledInModules(family: Family, layout: LayoutId): readonly string[] {
  return layout === "debian" && family === "2.4" ? DEBIAN_COMPILED_IN_24 : COMPILED_IN_MODULES[family];
}

/** `--for 2.2`, `--for 2.4` or `--for 2.4.62`. */
export function versionFor(text: string): HttpdVersion {
  const family = Object.hasOwn(CONFIG_VERSIONS, text) ? CONFIG_VERSIONS[text as Family] : null;
  const version = /^\d+\.\d+\.\d+$/.test(text) || family !== null ? parseHttpdVersion(family ?? text) : null;
  if (version === null) {
    throw new HarnessError("HARNESS_USAGE", `--for ${JSON.stringify(text)} is not an httpd version.`, {
      hint: "Use --for 2.2, --for 2.4 or a release such as --for 2.4.62.",
    });
  }
  return version;
}

function layoutOption(text: string | undefined): LayoutId | undefined {
  if (text === undefined) return undefined;
  if (!(LAYOUTS as readonly string[]).includes(text)) {
    throw new HarnessError("HARNESS_USAGE", `--layout ${JSON.stringify(text)}: use ${LAYOUTS.join(", ")}.`);
  }
  return text as LayoutId;
}

export async function runConfigCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    for: { type: "string", default: "2.4" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    layout: { type: "string" },
    format: { type: "string", default: "text" },
  });
  if (values.format !== "text" && values.format !== "json") {
    throw new HarnessError("HARNESS_USAGE", `--format ${JSON.stringify(values.format)}: use text or json.`);
  }
  if (positionals.length !== 1) {
    throw new HarnessError("HARNESS_USAGE", `config takes one PATH (a configuration directory or file), got ${positionals.length}.`, {
      hint: "httpd-upgrade-harness config /etc/apache2 --for 2.4",
    });
  }
  const version = versionFor(values.for);
  const layout = layoutOption(values.layout);
  const defines = values.define.filter((name) => name !== "");
  const tree = await loadTree(positionals[0]!, layout === undefined ? {} : { layout });
  const builtinModules = compiledInModules(version.family, tree.layout);
  // The server's environment, not the operator's shell: a config must not read differently per machine.
  const config = evaluateTree(tree, { version, defines, environment: {}, builtinModules });
  const problems = mergeProblems(tree.problems, config.problems);
  process.stdout.write(
    values.format === "json"
      ? `${JSON.stringify(configDocument(config, builtinModules, problems), null, 2)}\n`
      : renderConfigText(config, builtinModules, problems),
  );
  return problems.some((problem) => problem.severity === "error") ? EXIT.badInput : EXIT.ok;
}
