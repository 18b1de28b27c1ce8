// Pure: httpd's own dumps read back, so the model's answers can be checked against a real binary: the included
// files (`-t -D DUMP_INCLUDES`, 2.4's core.c), the modules (`-M`, mod_so.c/http_main.c), the virtual hosts
// (`-S`, vhost.c dump_vhost_config), and the refusal a config test ends with (`Syntax error on line N of F:`).
// Formats read from server/vhost.c dump_a_vhost on 2.2.34 and 2.4.62 and checked against both binaries.

export interface IncludedFile {
  /** Absolute, as httpd opened it. */
  path: string;
  /** The line of the Include that read it, in the file one level up; null for the main file. */
  includedAt: number | null;
  /** 0 for the main file. */
  depth: number;
}

/** `Included configuration files:` then `  (*) /main` and `    (83) /included`, two more spaces a level. */
export function parseIncludesDump(stdout: string): IncludedFile[] {
  const files: IncludedFile[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^( *)\((\*|\d+)\) (.+)$/.exec(line);
    if (!match) continue;
    const depth = Math.max(0, (match[1]!.length - 2) / 2);
    files.push({ path: match[3]!, includedAt: match[2] === "*" ? null : Number(match[2]), depth });
  }
  return files;
}

export interface DumpedModule {
  id: string;
  origin: "static" | "shared";
}

/** `Loaded Modules:` then ` rewrite_module (shared)`. */
export function parseModulesDump(stdout: string): DumpedModule[] {
  const modules: DumpedModule[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^ (\S+) \((static|shared)\)$/.exec(line);
    if (match) modules.push({ id: match[1]!, origin: match[2] as DumpedModule["origin"] });
  }
  return modules;
}

export interface DumpedVhost {
  /** server_hostname: ServerName, the main server's, or what the address resolved to. */
  name: string;
  /** Absolute, as httpd read it. */
  file: string;
  line: number;
  /** 2.4 only, for a name-based address: `alias` lines, then `wild alias` lines. */
  aliases: string[];
  wildAliases: string[];
}

export interface DumpedAddress {
  /** `*:80`, `_default_:443` (2.2), `192.0.2.7:80`, `[::1]:443`, port `*` for any. */
  address: string;
  /** Several vhosts matched by name ("is a NameVirtualHost"). */
  nameBased: boolean;
  /** The server a request without a matching name gets. */
  defaultServer: { name: string; file: string; line: number };
  /** In httpd's order (reading order): one for an address that is not name-based. */
  vhosts: DumpedVhost[];
}

const WHERE = /^(.*) \((.+):(\d+)\)$/;

/** The `VirtualHost configuration:` part of `-S`; the run settings 2.4 prints after it are not read here. */
export function parseVhostsDump(stdout: string): DumpedAddress[] {
  const addresses: DumpedAddress[] = [];
  let current: DumpedAddress | null = null;
  let vhost: DumpedVhost | null = null;
  let inside = false;
  for (const line of stdout.split("\n")) {
    if (line === "VirtualHost configuration:") {
      inside = true;
      continue;
    }
    if (!inside || line === "wildcard NameVirtualHosts and _default_ servers:" || line.trim() === "") continue;
    const named = /^(\S+)\s+is a NameVirtualHost$/.exec(line);
    if (named) {
      current = { address: named[1]!, nameBased: true, defaultServer: { name: "", file: "", line: 0 }, vhosts: [] };
      addresses.push(current);
      vhost = null;
      continue;
    }
    const byDefault = /^ {9}default server (.*)$/.exec(line);
    if (byDefault && current) {
      const where = WHERE.exec(byDefault[1]!);
      if (where) current.defaultServer = { name: where[1]!, file: where[2]!, line: Number(where[3]) };
      continue;
    }
    const nameVhost = /^ {9}port (\S+) namevhost (.*)$/.exec(line);
    if (nameVhost && current) {
      const where = WHERE.exec(nameVhost[2]!);
      if (where) current.vhosts.push((vhost = { name: where[1]!, file: where[2]!, line: Number(where[3]), aliases: [], wildAliases: [] }));
      continue;
    }
    const alias = /^ {17}(wild alias|alias) (.+)$/.exec(line);
    if (alias && vhost) {
      (alias[1] === "alias" ? vhost.aliases : vhost.wildAliases).push(alias[2]!);
      continue;
    }
    const single = /^(\S+)\s+(.*)$/.exec(line);
    const where = single ? WHERE.exec(single[2]!) : null;
    if (single && where) {
      const server = { name: where[1]!, file: where[2]!, line: Number(where[3]) };
      current = { address: single[1]!, nameBased: false, defaultServer: server, vhosts: [{ ...server, aliases: [], wildAliases: [] }] };
      addresses.push(current);
      vhost = null;
      continue;
    }
    // The first line of 2.4's run settings (ServerRoot: ...) ends the vhost part.
    break;
  }
  return addresses;
}

export interface ConfigRefusal {
  /** Absolute, as httpd names it. */
  file: string;
  line: number;
  /** The line after it: what httpd says is wrong. */
  message: string;
}

/** `Syntax error on line 21 of /etc/apache2/apache2.conf:` (2.4 with AH00526: in front) and the message line. */
export function parseConfigRefusal(stderr: string): ConfigRefusal | null {
  const lines = stderr.split("\n");
  for (const [index, line] of lines.entries()) {
    const match = /(?:^|AH00526: )Syntax error on line (\d+) of (.+):$/.exec(line);
    if (match) return { file: match[2]!, line: Number(match[1]), message: lines[index + 1] ?? "" };
  }
  return null;
}

/** The address httpd named itself by when no ServerName is set (2.2 and 2.4's AH00558 warning). */
export function guessedServerName(stderr: string): string | null {
  return /Could not reliably determine the server's fully qualified domain name, using (\S+?)(?:\. Set the| for ServerName)/.exec(stderr)?.[1] ?? null;
}

/** What 2.4's `-S` prints after the vhosts (core.c's DUMP_RUN_CFG), for the settings the model answers too. */
export interface DumpedRunSettings {
  serverRoot: string | null;
  documentRoot: string | null;
  errorLog: string | null;
  pidFile: string | null;
  user: string | null;
  group: string | null;
}

export function parseRunSettings(stdout: string): DumpedRunSettings {
  const quoted = (label: string): string | null => new RegExp(`^${label}: "([^"]*)"`, "m").exec(stdout)?.[1] ?? null;
  const named = (label: string): string | null => new RegExp(`^${label}: name="([^"]*)"`, "m").exec(stdout)?.[1] ?? null;
  return {
    serverRoot: quoted("ServerRoot"),
    documentRoot: quoted("Main DocumentRoot"),
    errorLog: quoted("Main ErrorLog"),
    pidFile: quoted("PidFile"),
    user: named("User"),
    group: named("Group"),
  };
}
