// Which layout a tree has, told from its file names alone (and the main file's ServerRoot line), so the
// operator can give a Debian /etc/apache2, an official-image ServerRoot, a RHEL /etc/httpd, a whole file system
// holding one of those, or a lone site file. The layout fixes the main file and where the tree sits inside the
// server (mount), which is how absolute paths in the config find their files. Overridable by the caller.
import type { LayoutId } from "./effective-config.ts";

export interface DetectedLayout {
  layout: LayoutId;
  /** Where the tree's root sits in the server. */
  mount: string;
  /** The main config file, as a tree path. */
  mainFile: string;
  /** ServerRoot before any ServerRoot directive: what httpd was built with, or what its start script passes. */
  serverRoot: string;
}

export const OFFICIAL_SERVER_ROOT = "/usr/local/apache2";
const DEBIAN_ROOT = "/etc/apache2";
const RHEL_ROOT = "/etc/httpd";

export interface LayoutInput {
  files: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  directories: ReadonlySet<string>;
  /** The content of a file, for the main file's ServerRoot. */
  read: (path: string) => Buffer | undefined;
  /** True when the operator gave one file rather than a directory. */
  singleFile: boolean;
}

export function detectLayout(input: LayoutInput, override?: LayoutId): DetectedLayout {
  const has = (path: string): boolean => input.files.has(path);
  const dir = (path: string): boolean => input.directories.has(path);
  const declared = (path: string): string | null => declaredServerRoot(input.read(path));

  if (!input.singleFile) {
    // A file-system form: the tree holds /etc/... (or /usr/local/apache2/...) itself.
    if ((override ?? "debian") === "debian" && has("etc/apache2/apache2.conf")) {
      return { layout: "debian", mount: "/", mainFile: "etc/apache2/apache2.conf", serverRoot: DEBIAN_ROOT };
    }
    if ((override ?? "rhel") === "rhel" && has("etc/httpd/conf/httpd.conf")) {
      return { layout: "rhel", mount: "/", mainFile: "etc/httpd/conf/httpd.conf", serverRoot: declared("etc/httpd/conf/httpd.conf") ?? RHEL_ROOT };
    }
    if ((override ?? "official") === "official" && has("usr/local/apache2/conf/httpd.conf")) {
      const main = "usr/local/apache2/conf/httpd.conf";
      return { layout: "official", mount: "/", mainFile: main, serverRoot: declared(main) ?? OFFICIAL_SERVER_ROOT };
    }
  }

  const looksDebian = has("apache2.conf");
  const serverRootLayout = (main: string, confDir: boolean): DetectedLayout => {
    const root = declared(main);
    const rhel = override === "rhel" || (override === undefined && (root === RHEL_ROOT || (root === null && !confDir && dir("conf.d"))));
    const serverRoot = root ?? (rhel ? RHEL_ROOT : OFFICIAL_SERVER_ROOT);
    // A tree that is the conf/ directory itself sits at ServerRoot/conf.
    const mount = confDir ? `${serverRoot.replace(/\/$/, "")}/conf` : serverRoot;
    return { layout: rhel ? "rhel" : "official", mount, mainFile: main, serverRoot };
  };

  if (!input.singleFile && override !== "fragment") {
    if (override === "debian" || (override === undefined && looksDebian)) {
      return { layout: "debian", mount: DEBIAN_ROOT, mainFile: "apache2.conf", serverRoot: DEBIAN_ROOT };
    }
    if (has("conf/httpd.conf")) return serverRootLayout("conf/httpd.conf", false);
    if (has("httpd.conf")) return serverRootLayout("httpd.conf", true);
    if (override === "official" || override === "rhel") return serverRootLayout("conf/httpd.conf", false);
  }

  // Snippets a package installs (/etc/tool/apache.conf with its pages in /usr/share/tool) given in the file-system
  // form sit at /, so the absolute paths they name are their own files, not stubs.
  const mount = !input.singleFile && fileSystemForm(input.files) ? "/" : OFFICIAL_SERVER_ROOT;
  return { layout: "fragment", mount, mainFile: fragmentMainFile(input.files), serverRoot: OFFICIAL_SERVER_ROOT };
}

/** Top directories of a file system that configuration snippets and their files live in. */
const FILE_SYSTEM_TOPS = new Set(["etc", "usr", "var", "srv", "opt", "home"]);

/** Every file below etc/, usr/, var/ ... and some below etc/: a tree holding the file system's own paths. */
function fileSystemForm(files: ReadonlySet<string> | ReadonlyMap<string, unknown>): boolean {
  const tops = [...files.keys()].map((path) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : null));
  return tops.length > 0 && tops.every((top) => top !== null && FILE_SYSTEM_TOPS.has(top)) && tops.includes("etc");
}

/** The file a fragment tree is read from: its only file, else its first `.conf` (or `.htaccess`), else its first file. */
function fragmentMainFile(files: ReadonlySet<string> | ReadonlyMap<string, unknown>): string {
  const names = [...files.keys()].sort();
  if (names.length <= 1) return names[0] ?? "";
  return names.find((name) => !name.includes("/") && (name.endsWith(".conf") || name === ".htaccess")) ?? names.find((name) => name.endsWith(".conf")) ?? names[0]!;
}

/** The first active `ServerRoot "/x"` line of a file, without evaluating anything; null when none or when it
 * names a variable (the evaluator applies ServerRoot directives in order later). */
export function declaredServerRoot(bytes: Buffer | undefined): string | null {
  if (bytes === undefined) return null;
  const match = /^[ \t]*ServerRoot[ \t]+(?:"([^"\r\n]*)"|'([^'\r\n]*)'|(\S+))/im.exec(bytes.toString("latin1"));
  if (!match) return null;
  const root = match[1] ?? match[2] ?? match[3]!;
  return root.startsWith("/") && !root.includes("${") ? root.replace(/(.)\/+$/, "$1") : null;
}
