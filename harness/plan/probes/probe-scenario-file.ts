// A probe set as a scenario file (docs/scenario-format.md) to keep and edit: the trees it proves, the clients at
// their addresses and names, the probe users added with htpasswd in `prepare`, one request per probe. It loads
// back with scenario/load-scenario.ts and runs with `run`.
import { stringify } from "yaml";
import { OTHER_REALM_USER, PROBE_USER, WRONG_PASSWORD } from "./generate-probes.ts";
import type { ProbeSet } from "./probe.ts";
import { validUserOf } from "./probe-scenario.ts";

export interface ProbeFileOptions {
  id: string;
  title: string;
  /** The original tree and the port, relative to the scenario file (null: the port is the original). */
  tree: string;
  candidate: string | null;
  layout: string | null;
  defines: readonly string[];
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function probeScenarioFile(set: ProbeSet, options: ProbeFileOptions): string {
  const user = validUserOf(set);
  const builtIn = new Set(["host", "localhost", "localhost6"]);
  const used = new Set(set.probes.map((p) => p.client));
  const left: string[] = [];
  const requests = set.probes.flatMap((probe) => {
    const standard = probe.target.port === (probe.target.tls ? 443 : 80);
    if (!standard) {
      left.push(`${probe.id} (${probe.method} ${probe.path} on port ${probe.target.port})`);
      return [];
    }
    const auth = probe.credentials === "none" ? undefined
      : probe.credentials === "valid" ? { user, password: PROBE_USER.password }
        : probe.credentials === "wrong-password" ? { user, password: WRONG_PASSWORD }
          : { ...OTHER_REALM_USER };
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
  const prepare = set.users.map((u) => (u.kind === "group"
    ? `printf '%s\\n' ${shellQuote(`${u.password}: ${u.user}`)} >> ${shellQuote(u.file)}`
    : `htpasswd -b ${shellQuote(u.file)} ${shellQuote(u.user)} ${shellQuote(u.password)}`));
  const document = {
    id: options.id,
    title: options.title,
    server: {
      config: {
        tree: options.tree,
        ...(options.candidate === null ? {} : { candidate: options.candidate }),
        ...(options.layout === null ? {} : { layout: options.layout }),
        ...(options.defines.length === 0 ? {} : { defines: [...options.defines] }),
      },
      ...(prepare.length === 0 ? {} : { prepare }),
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
