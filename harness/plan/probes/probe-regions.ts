// The path regions of one virtual host: its root, and a URL inside and one just outside every distinct Alias,
// ScriptAlias, Location and Directory (a Directory reached through the DocumentRoot or an Alias), plus files that
// must stay hidden in every directory served (.htaccess, .htpasswd, backups, the source of scripts). Each region
// names the section pattern it stands for.
import { posix } from "node:path";
import type { EffectiveConfig, EffectiveSection } from "../../conf/effective-config.ts";
import { aliasTargets } from "../../conf/queries/alias-targets.ts";
import { documentRoot } from "../../conf/queries/document-roots.ts";
import { walkConfig } from "../../conf/queries/walk-config.ts";

export interface Region {
  path: string;
  purpose: "root" | "inside" | "outside" | "hidden";
  region: string;
}

const HIDDEN = [".htaccess", ".htpasswd", "index.html~", "index.html.bak"];

function inVhost(sections: readonly EffectiveSection[], vhost: EffectiveSection | null): boolean {
  const own = sections.find((s) => s.key === "virtualhost") ?? null;
  return own === null || own === vhost;
}

function sibling(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed === "" ? "/probe-outside" : `${trimmed}-outside${url.endsWith("/") ? "/" : ""}`;
}

/** The URL a file system path is served at in this vhost (through an Alias or the DocumentRoot); null if none. */
function urlOf(path: string, aliases: Array<{ url: string; path: string }>, root: string | null): string | null {
  const clean = path.replace(/\/+$/, "");
  for (const alias of [...aliases].sort((a, b) => b.path.length - a.path.length)) {
    const target = alias.path.replace(/\/+$/, "");
    if (clean === target || clean.startsWith(`${target}/`)) return posix.join(alias.url, clean.slice(target.length)) + "/";
  }
  if (root !== null) {
    const base = root.replace(/\/+$/, "");
    if (clean === base) return "/";
    if (clean.startsWith(`${base}/`)) return `${clean.slice(base.length)}/`;
  }
  return null;
}

/** @param accessDirs directories (inside the server) holding an .htaccess file: each is a region of its own */
export function probeRegions(config: EffectiveConfig, vhost: EffectiveSection | null, scripts: readonly string[], accessDirs: readonly string[] = []): Region[] {
  const regions: Region[] = [{ path: "/", purpose: "root", region: "/" }];
  const add = (r: Region): void => {
    if (!regions.some((x) => x.path === r.path)) regions.push(r);
  };
  const aliases = aliasTargets(config)
    .filter((a) => !a.regex && a.url !== null && a.path !== null && (a.vhost === null || a.vhost === vhost))
    .map((a) => ({ url: a.url!, path: a.path!, directive: a.directive }));
  const root = documentRoot(config, vhost)?.path ?? null;
  const served: string[] = root === null ? [] : [root];
  for (const alias of aliases) {
    const label = `${alias.directive} ${alias.url}`;
    const dir = alias.url.endsWith("/") ? alias.url : `${alias.url}/`;
    add({ path: dir, purpose: "inside", region: label });
    add({ path: sibling(alias.url), purpose: "outside", region: label });
    served.push(alias.path);
  }
  for (const { section, sections } of walkConfig(config).sections) {
    if (!inVhost(sections, vhost) || section.key === "virtualhost") continue;
    const pattern = section.args.at(-1) ?? "";
    const regex = section.key.endsWith("match") || section.args[0] === "~";
    const label = `<${section.name}${regex ? " ~" : ""} ${pattern}>`;
    if (section.key === "location" && !regex) {
      add({ path: pattern, purpose: "inside", region: label });
      if (!pattern.endsWith("/")) add({ path: `${pattern}/probe`, purpose: "inside", region: label });
      if (pattern !== "/") add({ path: sibling(pattern), purpose: "outside", region: label });
    } else if (section.key === "directory" && !regex && !pattern.includes("*")) {
      const url = urlOf(pattern, aliases, root);
      if (url === null) continue;
      add({ path: url, purpose: "inside", region: label });
      if (url !== "/") add({ path: sibling(url), purpose: "outside", region: label });
    } else if (section.key === "files" && !regex && !/[*?[]/.test(pattern)) {
      add({ path: `/${pattern}`, purpose: "inside", region: label });
    }
  }
  for (const dir of accessDirs) {
    const url = urlOf(dir, aliases, root);
    if (url === null) continue;
    const label = `${dir}/.htaccess`;
    add({ path: url, purpose: "inside", region: label });
    add({ path: `${url}index.html`, purpose: "inside", region: label });
    add({ path: posix.join(url, ".htaccess"), purpose: "hidden", region: `hidden .htaccess in ${url}` });
  }
  for (const dir of served) {
    const url = urlOf(dir, aliases, root);
    if (url === null) continue;
    for (const name of HIDDEN) add({ path: posix.join(url, name), purpose: "hidden", region: `hidden ${name} in ${url}` });
  }
  for (const script of scripts) {
    for (const dir of served) {
      const base = dir.replace(/\/+$/, "");
      if (!script.startsWith(`${base}/`)) continue;
      const url = urlOf(posix.dirname(script), aliases, root);
      if (url !== null) add({ path: posix.join(url, posix.basename(script)), purpose: "hidden", region: `script ${posix.basename(script)}` });
    }
  }
  return regions;
}
