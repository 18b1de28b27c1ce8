// A probe set as a scenario file (docs/scenario-format.md) to keep and edit: the trees it proves with their probe
// world (`world: probes`, made again from the trees when the file runs), the clients at their addresses and names,
// one request per probe. It loads back with scenario/load-scenario.ts and runs with `run`.
import { stringify } from "yaml";
import type { ProbeSet } from "./probe.ts";
import { authOf } from "./probe-scenario.ts";

export interface ProbeFileOptions {
  id: string;
  title: string;
  /** The original tree and the port, relative to the scenario file (null: the port is the original). */
  tree: string;
  candidate: string | null;
  layout: string | null;
  defines: readonly string[];
}

export function probeScenarioFile(set: ProbeSet, options: ProbeFileOptions): string {
  const builtIn = new Set(["host", "localhost", "localhost6"]);
  const used = new Set(set.probes.map((p) => p.client));
  const left: string[] = [];
  const requests = set.probes.flatMap((probe) => {
    const standard = probe.target.port === (probe.target.tls ? 443 : 80);
    if (!standard) {
      left.push(`${probe.id} (${probe.method} ${probe.path} on port ${probe.target.port})`);
      return [];
    }
    const sent = authOf(probe);
    const auth = sent === null ? undefined : { user: sent.user, password: sent.password, ...(sent.scheme === "digest" ? { scheme: "digest" } : {}) };
    return [{
      name: probe.id,
      ...(probe.client === "host" ? {} : { client: probe.client }),
      ...(probe.method === "GET" ? {} : { method: probe.method }),
      path: probe.path,
      ...(probe.target.host === null ? {} : { host: probe.target.host }),
      ...(probe.target.tls ? { tls: true } : {}),
      ...(auth === undefined ? {} : { auth }),
    }];
  });
  const document = {
    id: options.id,
    title: options.title,
    server: {
      config: {
        tree: options.tree,
        ...(options.candidate === null ? {} : { candidate: options.candidate }),
        ...(options.layout === null ? {} : { layout: options.layout }),
        ...(options.defines.length === 0 ? {} : { defines: [...options.defines] }),
        // The same world prove stages: the probe users in every store, an object behind every path.
        world: "probes",
      },
    },
    clients: set.clients
      .filter((c) => used.has(c.id) && !builtIn.has(c.id))
      .map((c) => ({ name: c.id, ...(c.address === null ? {} : { address: c.address }), ...(c.domain === null ? {} : { domain: c.domain }) })),
    requests,
  };
  const head = [
    `# Probes of ${options.tree}${options.candidate ? ` and its port ${options.candidate}` : ""}: ${set.probes.length} probes for ${set.cells.length} cells`,
    "# (virtual host x path region x client range x credentials x method). Written by httpd-upgrade-harness;",
    "# keep it, edit it, run it with `httpd-upgrade-harness run THIS_FILE`.",
    ...(left.length > 0 ? [`# Left out (scenario files address ports 80 and 443 only): ${left.join(", ")}`] : []),
  ];
  return `${head.join("\n")}\n${stringify(document, { lineWidth: 0 })}`;
}
