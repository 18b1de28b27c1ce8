// Pure: the authentication a URL meets in one configuration: AuthType, AuthName and the providers and stores of
// the per-directory sections that apply to it (request-sections.ts), merged as httpd merges them (the last
// section that sets a directive wins), and the users and groups its Require lines name. Read from the
// evaluated sections and, for per-directory files (.htaccess) the config cannot hold, from their text. The probe
// world reads it to know which identities a region needs and whether the harness can make them.
import type { EffectiveConfig, EffectiveNode, EffectiveSection } from "../../conf/effective-config.ts";
import { requestPath, requestSections, requestVhost, type RequestTarget } from "../../conf/queries/request-sections.ts";
import type { AuthScheme, ConfigOrigin } from "./probe.ts";

export interface RegionAuth {
  /** AuthType in effect; null: none (no credentials are asked for). */
  scheme: AuthScheme | null;
  /** An AuthType other than Basic and Digest (a module's own: Form, Kerberos...). */
  otherType: string | null;
  realm: string | null;
  /** AuthBasicProvider / AuthDigestProvider in effect (default: file). */
  providers: string[];
  /** Users named by `Require user`, and groups by `Require group` (also dbm-group), with the line that names them. */
  users: Array<{ name: string; origin: ConfigOrigin }>;
  groups: Array<{ name: string; origin: ConfigOrigin }>;
  /** Require providers no world identity can satisfy (ldap-user, dbd-group, ...). */
  foreignRequires: string[];
}

const AUTH_KEYS = new Set(["authtype", "authname", "authbasicprovider", "authdigestprovider", "require"]);
const NESTED_ACCESS = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch"]);
/** Require providers whose users or groups the world makes (file and DBM stores), or that need no identity. */
const WORLD_REQUIRES = new Set(["user", "group", "valid-user", "dbm-group", "all", "ip", "host", "local", "env", "method", "expr", "file-owner", "file-group", "not"]);
/** Providers whose identities the world can add: file stores (htpasswd, htdigest) and DBM stores (htdbm). */
export const WORLD_PROVIDERS = new Set(["file", "dbm"]);

interface AuthLine {
  key: string;
  args: string[];
  origin: ConfigOrigin;
}

function originOf(node: EffectiveNode): ConfigOrigin {
  const raw = node.kind === "section" ? node.node.openRaw : node.node.raw;
  return { file: node.span.file, line: node.span.line, text: raw.trim() };
}

/** The auth lines a section holds itself, in order: inside <Limit>, <IfModule> and <Require*> too, not in a
 * nested access section (it applies on its own). */
function sectionLines(section: EffectiveSection): AuthLine[] {
  const lines: AuthLine[] = [];
  const visit = (nodes: readonly EffectiveNode[]): void => {
    for (const node of nodes) {
      if (node.kind === "section") {
        if (!NESTED_ACCESS.has(node.key)) visit(node.children);
        continue;
      }
      if (AUTH_KEYS.has(node.key)) lines.push({ key: node.key, args: node.args, origin: originOf(node) });
    }
  };
  visit(section.children);
  return lines;
}

/** The auth lines of per-directory file text (an .htaccess), in order. */
export function textAuthLines(text: string, file: string): AuthLine[] {
  const lines: AuthLine[] = [];
  text.split("\n").forEach((raw, index) => {
    const words = raw.trim().match(/"[^"]*"|\S+/g)?.map((w) => w.replace(/^"(.*)"$/, "$1")) ?? [];
    const key = words[0]?.toLowerCase();
    if (key === undefined || !AUTH_KEYS.has(key)) return;
    lines.push({ key, args: words.slice(1), origin: { file, line: index + 1, text: raw.trim() } });
  });
  return lines;
}

function merge(groups: readonly AuthLine[][]): RegionAuth {
  const result: RegionAuth = { scheme: null, otherType: null, realm: null, providers: ["file"], users: [], groups: [], foreignRequires: [] };
  for (const lines of groups) {
    // Require lines of a section replace the inherited ones (2.4's AuthMerging Off; 2.2's require merge).
    if (lines.some((l) => l.key === "require")) {
      result.users = [];
      result.groups = [];
      result.foreignRequires = [];
    }
    for (const line of lines) {
      const first = line.args[0] ?? "";
      switch (line.key) {
        case "authtype": {
          const type = first.toLowerCase();
          result.scheme = type === "basic" ? "basic" : type === "digest" ? "digest" : null;
          result.otherType = type === "basic" || type === "digest" || type === "none" ? null : first;
          break;
        }
        case "authname":
          result.realm = line.args.join(" ");
          break;
        case "authbasicprovider":
        case "authdigestprovider":
          result.providers = line.args.map((a) => a.toLowerCase());
          break;
        case "require": {
          const args = first.toLowerCase() === "not" ? line.args.slice(1) : line.args;
          const provider = (args[0] ?? "").toLowerCase();
          if (provider === "user") result.users.push(...args.slice(1).map((name) => ({ name, origin: line.origin })));
          else if (provider === "group" || provider === "dbm-group") result.groups.push(...args.slice(1).map((name) => ({ name, origin: line.origin })));
          else if (!WORLD_REQUIRES.has(provider)) result.foreignRequires.push(provider);
          break;
        }
        default:
          break;
      }
    }
  }
  return result;
}

/** Per-directory files by the directory (inside the server) that holds them, with their text and tree path. */
export interface AccessFile {
  dir: string;
  file: string;
  text: string;
}

/** The auth a URL meets on one virtual host of one configuration, per-directory files included. */
export function regionAuth(config: EffectiveConfig, target: RequestTarget, url: string, accessFiles: readonly AccessFile[] = [], defaultRoot: string | null = null): RegionAuth {
  const applying = requestSections(config, target, url, defaultRoot);
  const directories = applying.filter((s) => s.key === "directory" || s.key === "directorymatch").map(sectionLines);
  const others = applying.filter((s) => s.key !== "directory" && s.key !== "directorymatch").map(sectionLines);
  const vhost = requestVhost(config, target);
  const file = requestPath(config, vhost, url, defaultRoot);
  // .htaccess files of the directories along the path, shallowest first, after the <Directory> sections (httpd
  // merges each after its directory's sections in the directory walk; <Files> and <Location> come after all).
  const htaccess = file === null ? [] : accessFiles
    .filter((a) => file === a.dir || file.startsWith(`${a.dir.replace(/\/+$/, "")}/`))
    .sort((a, b) => a.dir.length - b.dir.length)
    .map(accessFileLines);
  return merge([...directories, ...htaccess, ...others]);
}

/** A per-directory file's auth lines, read once per file object: the probe generator asks for every URL below
 * its directory, and reading its text again each time was a third of regionAuth (the lines are never changed
 * once read; merge only reads them). */
const accessFileCache = new WeakMap<AccessFile, AuthLine[]>();

function accessFileLines(file: AccessFile): AuthLine[] {
  let lines = accessFileCache.get(file);
  if (lines === undefined) accessFileCache.set(file, (lines = textAuthLines(file.text, file.file)));
  return lines;
}
