// Pure: the variables a fragment names that Debian's envvars would have set. A site file taken out of a Debian tree
// (sites-available/, conf.d/) logs to ${APACHE_LOG_DIR} and runs as ${APACHE_RUN_USER}; apache2ctl sets those from
// /etc/apache2/envvars, which a fragment does not carry. Unset, httpd keeps "${APACHE_LOG_DIR}/error.log" as written
// and neither version starts (2.4 says AH00111 first), which is no answer about the upgrade. So each such name a
// fragment uses and does not Define itself is set, on both sides alike, to the value Debian's envvars give it, and
// listed as made up by the harness with the line that named it.
import type { ConfigTree } from "../../conf/load-tree.ts";
import type { Stub } from "./tree-side-plan.ts";

/** Debian's envvars (wheezy to bookworm) for these names, without a SUFFIX (apache2ctl's multi-instance
 * `apache2-NAME`). */
export const DEBIAN_ENVVARS: Readonly<Record<string, string>> = {
  APACHE_RUN_USER: "www-data",
  APACHE_RUN_GROUP: "www-data",
  APACHE_PID_FILE: "/var/run/apache2/apache2.pid",
  APACHE_RUN_DIR: "/var/run/apache2",
  APACHE_LOCK_DIR: "/var/lock/apache2",
  APACHE_LOG_DIR: "/var/log/apache2",
};

export interface FragmentEnvironment {
  environment: Record<string, string>;
  stubs: Stub[];
}

const USE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const DEFINE = /^\s*Define\s+("?)([A-Za-z_][A-Za-z0-9_]*)\1(?:\s|$)/i;

export function fragmentEnvironment(tree: ConfigTree): FragmentEnvironment {
  if (tree.layout !== "fragment") return { environment: {}, stubs: [] };
  const defined = new Set<string>();
  const firstUse = new Map<string, { file: string; line: number }>();
  for (const [file, bytes] of tree.source.files) {
    const text = bytes.toString("utf8");
    text.split(/\r?\n/).forEach((line, index) => {
      if (/^\s*#/.test(line)) return;
      const define = DEFINE.exec(line);
      if (define) defined.add(define[2]!);
      for (const match of line.matchAll(USE)) {
        const name = match[1]!;
        if (DEBIAN_ENVVARS[name] !== undefined && !firstUse.has(name)) firstUse.set(name, { file, line: index + 1 });
      }
    });
  }
  const environment: Record<string, string> = {};
  const stubs: Stub[] = [];
  for (const [name, at] of firstUse) {
    if (defined.has(name)) continue;
    const value = DEBIAN_ENVVARS[name]!;
    environment[name] = value;
    stubs.push({ kind: "variable", target: `${name}=${value}`, file: at.file, line: at.line, note: `\${${name}}, which Debian's envvars set and a fragment does not carry: set as envvars sets it` });
  }
  return { environment, stubs };
}
