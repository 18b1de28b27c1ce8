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

/** The directories the target's stock config grants (`Require all granted`) around a fragment; its <Directory />
 * denies the rest. */
export function stockGrantedRoots(target: string): readonly string[] {
  return STOCK_GRANTED[target] ?? STOCK_GRANTED.official!;
}

/** The stock <Directory> granting `path` on the target (a profile name; an `httpd -M` file counts as official),
 * or null when the stock <Directory /> denies it. */
export function stockGrantedRoot(target: string, path: string): string | null {
  const clean = path.replace(/^"|"$/g, "").replace(/\/+$/, "");
  return (STOCK_GRANTED[target] ?? STOCK_GRANTED.official!).find((root) => clean === root || clean.startsWith(`${root}/`)) ?? null;
}
