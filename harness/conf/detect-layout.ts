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

  // A package's files at their absolute paths (etc/tool/apache.conf, usr/share/tool/...): staged at /, so the
  // snippet's own absolute paths find the package's files.
  if (!input.singleFile && isFileSystemForm(input.files)) {
    const names = [...input.files.keys()].sort();
    const main = names.find((name) => name.startsWith("etc/") && name.endsWith(".conf")) ?? fragmentMainFile(input.files);
    return { layout: "fragment", mount: "/", mainFile: main, serverRoot: OFFICIAL_SERVER_ROOT };
  }
  return { layout: "fragment", mount: OFFICIAL_SERVER_ROOT, mainFile: fragmentMainFile(input.files), serverRoot: OFFICIAL_SERVER_ROOT };
}

const FILE_SYSTEM_TOPS = new Set(["etc", "usr", "var", "srv", "opt", "home"]);

/** Every file sits under a top directory of a file system (etc/, usr/, var/...), and one under etc/. */
function isFileSystemForm(files: ReadonlySet<string> | ReadonlyMap<string, unknown>): boolean {
  const names = [...files.keys()];
  return names.length > 0 && names.some((name) => name.startsWith("etc/")) && names.every((name) => FILE_SYSTEM_TOPS.has(name.split("/")[0]!) && name.includes("/"));
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

/** Whether a fragment is an access file (`.htaccess`) given alone: httpd reads it per request in the directory it
 * sits in (the run stages it in the image's document root, with AllowOverride All there), never as server config,
 * so lint reads it as an access file, not as lines of httpd.conf. */
export function isAccessFileFragment(tree: { layout: string; mainFile: string }): boolean {
  return tree.layout === "fragment" && /(^|\/)\.htaccess$/.test(tree.mainFile);
}
