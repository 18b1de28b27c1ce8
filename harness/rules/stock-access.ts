// What the images' stock configs set around a fragment: the per-directory sections a request meets before the
// fragment's own (httpd reads the stock config first, the fragment where the stock config includes it: Debian's
// conf-enabled/, RHEL's conf.d/, the official image's end of httpd.conf), the document root, and the index page
// list. Written here as config text of those lines only (not a copy of any stock file) and read with the
// project's own parser, so predict-cells merges them exactly as it merges a fragment's own sections.
//   official 2.2 and 2.4: fixtures/real-httpd/stock-conf (the official images' httpd.conf);
//   debian: the harness-httpd-debian image's /etc/apache2 (apache2.conf, mods-enabled/alias.conf and dir.conf,
//     sites-enabled/000-default.conf; conf-enabled/serve-cgi-bin.conf holds its <Directory> only when a CGI
//     module is loaded, which Debian's stock config does not do);
//   rhel: RHEL's httpd 2.4 package (conf/httpd.conf, conf.d/autoindex.conf, conf.d/welcome.conf); no image here.
// All three 2.4 configs deny <Directory /> (Require all denied) and grant a few directories.
import type { EffectiveConfig, EffectiveSection } from "../conf/effective-config.ts";
import { evaluateTree } from "../conf/evaluate-tree.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { serverDirectives, serverSections } from "../conf/queries/walk-config.ts";
import { httpdVersion } from "../versions/httpd-version.ts";

type StockName = "official" | "debian" | "rhel";

const OFFICIAL_22 = `DocumentRoot "/usr/local/apache2/htdocs"
DirectoryIndex index.html
<Directory />
    Options FollowSymLinks
    AllowOverride None
    Order deny,allow
    Deny from all
</Directory>
<Directory "/usr/local/apache2/htdocs">
    Options Indexes FollowSymLinks
    AllowOverride None
    Order allow,deny
    Allow from all
</Directory>
<FilesMatch "^\\.ht">
    Order allow,deny
    Deny from all
    Satisfy All
</FilesMatch>
<Directory "/usr/local/apache2/cgi-bin">
    AllowOverride None
    Options None
    Order allow,deny
    Allow from all
</Directory>
`;

const OFFICIAL_24 = `DocumentRoot "/usr/local/apache2/htdocs"
DirectoryIndex index.html
<Directory />
    AllowOverride none
    Require all denied
</Directory>
<Directory "/usr/local/apache2/htdocs">
    Options Indexes FollowSymLinks
    AllowOverride None
    Require all granted
</Directory>
<Files ".ht*">
    Require all denied
</Files>
<Directory "/usr/local/apache2/cgi-bin">
    AllowOverride None
    Options None
    Require all granted
</Directory>
`;

const DEBIAN_24 = `DocumentRoot /var/www/html
DirectoryIndex index.html index.cgi index.pl index.php index.xhtml index.htm
<Directory "/usr/share/apache2/icons">
    Options FollowSymlinks
    AllowOverride None
    Require all granted
</Directory>
<Directory />
    Options FollowSymLinks
    AllowOverride None
    Require all denied
</Directory>
<Directory /usr/share>
    AllowOverride None
    Require all granted
</Directory>
<Directory /var/www/>
    Options Indexes FollowSymLinks
    AllowOverride None
    Require all granted
</Directory>
<FilesMatch "^\\.ht">
    Require all denied
</FilesMatch>
`;

const RHEL_24 = `DocumentRoot "/var/www/html"
DirectoryIndex index.html
<Directory />
    AllowOverride none
    Require all denied
</Directory>
<Directory "/var/www">
    AllowOverride None
    Require all granted
</Directory>
<Directory "/var/www/html">
    Options Indexes FollowSymLinks
    AllowOverride None
    Require all granted
</Directory>
<Directory "/var/www/cgi-bin">
    AllowOverride None
    Options None
    Require all granted
</Directory>
<Files ".ht*">
    Require all denied
</Files>
<Directory "/usr/share/httpd/icons">
    Options Indexes MultiViews FollowSymlinks
    AllowOverride None
    Require all granted
</Directory>
<LocationMatch "^/+$">
    Options -Indexes
</LocationMatch>
<Directory /usr/share/httpd/noindex>
    AllowOverride None
    Require all granted
</Directory>
`;

const TEXTS: Readonly<Record<StockName, { "2.2": string; "2.4": string }>> = {
  official: { "2.2": OFFICIAL_22, "2.4": OFFICIAL_24 },
  // A fragment's 2.2 side always runs on the official 2.2 image.
  debian: { "2.2": OFFICIAL_22, "2.4": DEBIAN_24 },
  rhel: { "2.2": OFFICIAL_22, "2.4": RHEL_24 },
};

const BUILTINS: Readonly<Record<"2.2" | "2.4", readonly string[]>> = {
  "2.2": ["core.c", "http_core.c", "mod_so.c", "mod_authz_host.c", "mod_dir.c", "mod_alias.c"],
  "2.4": ["core.c", "http_core.c", "mod_so.c", "mod_authz_core.c", "mod_dir.c", "mod_alias.c"],
};

/** The stock config a target name stands for: `successors` is the official image with more modules; an
 * `httpd -M` file names no stock config (null). */
export function stockName(target: string): StockName | null {
  if (target === "official" || target === "successors") return "official";
  return target === "debian" || target === "rhel" ? target : null;
}

const evaluated = new Map<string, EffectiveConfig>();

/** The stock config's sections around a fragment on `family`, as an evaluated config (null: not known). */
export function stockConfig(target: string, family: "2.2" | "2.4"): EffectiveConfig | null {
  const name = stockName(target);
  if (name === null) return null;
  const key = `${name} ${family}`;
  const known = evaluated.get(key);
  if (known) return known;
  const file = `stock-${name}-${family}.conf`;
  const tree: ConfigTree = {
    source: { origin: `(${name} ${family} stock sections)`, mount: "/", files: new Map([[file, Buffer.from(TEXTS[name][family])]]), directories: new Set([""]), links: new Map(), modes: new Map() },
    layout: "fragment",
    mainFile: file,
    problems: [],
  };
  const config = evaluateTree(tree, { version: httpdVersion(family === "2.2" ? "2.2.34" : "2.4.62"), defines: [], environment: {}, builtinModules: BUILTINS[family] });
  evaluated.set(key, config);
  return config;
}

function firstArg(config: EffectiveConfig, key: string): string | null {
  const entry = serverDirectives(config, null, key).at(-1);
  return entry === undefined ? null : (entry.directive.args[0] ?? "").replace(/^"|"$/g, "");
}

/** The target's stock DocumentRoot (an `httpd -M` file counts as official). */
export function stockDocumentRoot(target: string): string {
  return firstArg(stockConfig(target, "2.4") ?? stockConfig("official", "2.4")!, "documentroot")!;
}

function granting(section: EffectiveSection): boolean {
  return section.key === "directory" && section.children.some((n) => n.kind === "directive" && n.key === "require" && n.args.join(" ").toLowerCase() === "all granted");
}

/** The directories the target's stock config grants (`Require all granted`) around a fragment; its <Directory />
 * denies the rest. */
export function stockGrantedRoots(target: string): readonly string[] {
  const config = stockConfig(target, "2.4") ?? stockConfig("official", "2.4")!;
  return serverSections(config, null).map((s) => s.section).filter(granting).map((s) => (s.args[0] ?? "").replace(/^"|"$/g, "").replace(/\/+$/, ""));
}

/** The stock <Directory> granting `path` on the target (a profile name; an `httpd -M` file counts as official),
 * or null when the stock <Directory /> denies it. */
export function stockGrantedRoot(target: string, path: string): string | null {
  const clean = path.replace(/^"|"$/g, "").replace(/\/+$/, "");
  // The nearest: the stock <Directory> whose grant the path is under.
  return [...stockGrantedRoots(target)].sort((a, b) => b.length - a.length).find((root) => clean === root || clean.startsWith(`${root}/`)) ?? null;
}
