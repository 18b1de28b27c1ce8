// The configs of `fleet DIR...`: each argument is a fleet.yaml (or a directory holding one), whose entries name
// trees and directories to discover in with their own layout, defines, ignore file and id; or a directory whose
// trees are discovered (fleet/discover-configs.ts) with the command line's --layout and -D. A config named twice
// is one config. The order is the arguments' and, within one, the file's or discovery's: the same command line
// gives every shard the same fleet.
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { LayoutId } from "../conf/effective-config.ts";
import { HarnessError } from "../errors.ts";
import { discoverConfigs, labelOf, type PassedOver } from "../fleet/discover-configs.ts";
import { configIds, type FleetConfig } from "../fleet/fleet-config.ts";
import { FLEET_FILE_NAME } from "../fleet/fleet-file-name.ts";

export interface FleetInputOptions {
  cwd: string;
  layout: LayoutId | null;
  defines: readonly string[];
  /** --exclude globs, over paths relative to the working directory. */
  exclude: readonly string[];
}

/** `at`: the fleet.yaml entry that named it ("file:line:column"), for messages; null from the command line. */
type Found = Omit<FleetConfig, "id"> & { name: string | null; at: string | null };

/** The fleet's configs, and what discovery found under its directories and did not take, with why. */
export async function fleetConfigs(args: readonly string[], options: FleetInputOptions): Promise<{ configs: FleetConfig[]; passed: PassedOver[] }> {
  if (args.length === 0) {
    throw new HarnessError("HARNESS_USAGE", "fleet takes one directory or more (the trees under them are the fleet), or a fleet.yaml.", {
      hint: "httpd-upgrade-harness fleet configs/ --report html:reports/fleet.html",
    });
  }
  const found: Found[] = [];
  const passed: PassedOver[] = [];
  const fromCommandLine = (path: string): Found => ({ path, label: labelOf(path, options.cwd), layout: options.layout, defines: [...options.defines], ignoreFile: null, name: null, at: null });
  for (const arg of args) {
    const path = resolve(options.cwd, arg);
    const fleetFile = /\.ya?ml$/.test(path) && existsSync(path) && statSync(path).isFile() ? path : existsSync(join(path, FLEET_FILE_NAME)) ? join(path, FLEET_FILE_NAME) : null;
    if (fleetFile === null) {
      const discovered = await discoverConfigs([path], { cwd: options.cwd, exclude: { base: options.cwd, globs: options.exclude } });
      found.push(...discovered.configs.map((d) => fromCommandLine(d.path)));
      passed.push(...discovered.passed);
      continue;
    }
    // Imported when a fleet has a fleet.yaml: the YAML parser is no part of a fleet that has none.
    const file = await (await import("../fleet/fleet-file.ts")).loadFleetFile(fleetFile);
    for (const entry of file.entries) {
      const own = { layout: entry.layout ?? options.layout, defines: entry.defines.length > 0 ? entry.defines : [...options.defines], ignoreFile: entry.ignoreFile };
      if (entry.kind === "tree") {
        if (!existsSync(entry.path)) {
          throw new HarnessError("HARNESS_FLEET_FILE", `${entry.path} does not exist`, { position: position(entry.at), hint: "Fix the path (relative to the fleet file's directory)." });
        }
        found.push({ path: entry.path, label: labelOf(entry.path, options.cwd), ...own, name: entry.name, at: entry.at });
      } else {
        if (!existsSync(entry.path)) throw new HarnessError("HARNESS_FLEET_FILE", `${entry.path} does not exist`, { position: position(entry.at), hint: "Fix the directory (relative to the fleet file's directory)." });
        const discovered = await discoverConfigs([entry.path], { cwd: options.cwd, exclude: { base: dirname(fleetFile), globs: file.exclude } });
        found.push(...discovered.configs.map((d) => ({ path: d.path, label: d.label, ...own, name: null, at: entry.at })));
        passed.push(...discovered.passed);
      }
    }
  }
  const unique = found.filter((config, index) => found.findIndex((other) => other.path === config.path) === index);
  if (unique.length === 0) {
    throw new HarnessError("HARNESS_USAGE", `no configuration tree found under ${args.join(", ")}`, {
      hint: `A tree is a directory holding apache2.conf, httpd.conf, conf/httpd.conf, or a package's files at their absolute paths (etc/...); a *.conf file or an .htaccess is a one-file config.${passed.length > 0 ? ` Passed over: ${passed.slice(0, 5).map((p) => `${p.label} (${p.reason})`).join("; ")}${passed.length > 5 ? `; and ${passed.length - 5} more` : ""}.` : ""}`,
    });
  }
  // A name given in fleet.yaml is the config's id, and no other config may have it: ids key the journal, the
  // shards, the blobs and the reports' anchors.
  const taken = new Map<string, Found>();
  for (const config of unique) {
    if (config.name === null) continue;
    const first = taken.get(config.name);
    if (first) {
      throw new HarnessError("HARNESS_FLEET_FILE", `name ${JSON.stringify(config.name)} is already the name of ${first.label} (${first.at})`, {
        position: position(config.at!),
        hint: "Give each entry a name of its own.",
      });
    }
    taken.set(config.name, config);
  }
  const made = configIds(unique.map((c) => c.label));
  const configs = unique.map(({ name, at: _at, ...config }, index) => {
    if (name !== null) return { ...config, id: name };
    // An id made from the label that a name took: "<id>-config", then "<id>-config-2", ...
    let id = made[index]!;
    if (taken.has(id)) {
      const base = `${id}-config`;
      id = base;
      for (let n = 2; taken.has(id) || made.includes(id); n++) id = `${base}-${n}`;
    }
    taken.set(id, unique[index]!);
    return { ...config, id };
  });
  const takenPaths = new Set(configs.map((c) => c.label));
  return { configs, passed: passed.filter((p, index) => !takenPaths.has(p.label) && passed.findIndex((q) => q.label === p.label) === index) };
}

function position(at: string): { file: string; line: number; column: number } {
  const match = /^(.*):(\d+):(\d+)$/.exec(at);
  return match ? { file: match[1]!, line: Number(match[2]), column: Number(match[3]) } : { file: at, line: 1, column: 1 };
}
