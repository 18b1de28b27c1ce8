// What the 2.4 targets' stock configs grant around a fragment: all three deny <Directory /> (Require all
// denied) and grant a few directories with `Require all granted` (fixtures/real-httpd/stock-conf for the
// official image; Debian's apache2.conf; RHEL's httpd.conf). A fragment's own sections merge under these.
const STOCK_GRANTED: Readonly<Record<string, readonly string[]>> = {
  official: ["/usr/local/apache2/htdocs"],
  debian: ["/usr/share", "/var/www"],
  rhel: ["/var/www"],
};

// The stock configs' DocumentRoot: where a fragment's <Location> is served from unless the fragment aliases it.
const STOCK_DOCUMENT_ROOT: Readonly<Record<string, string>> = { official: "/usr/local/apache2/htdocs", debian: "/var/www/html", rhel: "/var/www/html" };

/** The target's stock DocumentRoot (an `httpd -M` file counts as official). */
export function stockDocumentRoot(target: string): string {
  return STOCK_DOCUMENT_ROOT[target] ?? STOCK_DOCUMENT_ROOT.official!;
}

/** The stock <Directory> granting `path` on the target (a profile name; an `httpd -M` file counts as official),
 * or null when the stock <Directory /> denies it. */
export function stockGrantedRoot(target: string, path: string): string | null {
  const clean = path.replace(/^"|"$/g, "").replace(/\/+$/, "");
  return (STOCK_GRANTED[target] ?? STOCK_GRANTED.official!).find((root) => clean === root || clean.startsWith(`${root}/`)) ?? null;
}

/** Whether 2.4 grants a file-system path by Require: the nearest plain <Directory> above it that has Require
 * lines decides (granted when one is `Require all granted`), else the target's stock config around a fragment.
 * null when the tree says nothing and it is no fragment (its own main config decides, unknown here).
 * `requiresAt` gives the Require lines of the tree's <Directory PATH> sections (paths without a trailing /). */
export function grantedOn24(
  requiresAt: (path: string) => ReadonlyArray<{ provider: string; negated: boolean; args: readonly string[] }> | undefined,
  fragment: boolean,
  target: string,
  path: string,
): boolean | null {
  const clean = path.replace(/^"|"$/g, "").replace(/\/+$/, "") || "/";
  const parts = clean.split("/").filter(Boolean);
  // Nearest first: the path itself, then each parent, then /.
  for (let count = parts.length; count >= 0; count--) {
    const requires = requiresAt(count === 0 ? "/" : `/${parts.slice(0, count).join("/")}`);
    if (requires !== undefined && requires.length > 0) return requires.some((line) => !line.negated && line.provider === "all" && line.args[0]?.toLowerCase() === "granted");
  }
  return fragment ? stockGrantedRoot(target, clean) !== null : null;
}
