// A module has two names httpd accepts in <IfModule>: its source file ("mod_ssl.c", what `httpd -l` lists and
// ap_find_linked_module matches) and its module id ("ssl_module", what LoadModule names and mod_so's
// ap_find_loaded_module_symbol matches). Most follow mod_X.c ↔ X_module; the rest are listed here.

/** Source file → module id, where the rule mod_X.c ↔ X_module does not hold (from the module lists of the
 * recorded 2.2.34 and 2.4.62 builds, and PHP's SAPI module for the common third-party case). */
const EXCEPTIONS: ReadonlyArray<readonly [file: string, id: string]> = [
  ["core.c", "core_module"],
  ["http_core.c", "http_module"],
  ["prefork.c", "mpm_prefork_module"],
  ["worker.c", "mpm_worker_module"],
  ["event.c", "mpm_event_module"],
  ["mpm_winnt.c", "mpm_winnt_module"],
  ["mpm_netware.c", "mpm_netware_module"],
  ["util_ldap.c", "ldap_module"],
  ["mod_php5.c", "php5_module"],
  ["mod_php7.c", "php7_module"],
  ["mod_php.c", "php_module"],
  ["sapi_apache2.c", "php4_module"],
];

const ID_BY_FILE = new Map(EXCEPTIONS.map(([file, id]) => [file, id]));
const FILE_BY_ID = new Map(EXCEPTIONS.map(([file, id]) => [id, file]));

/** "mod_ssl.c" → "ssl_module"; null when the name is no source file name. */
export function moduleIdOfFile(file: string): string | null {
  const known = ID_BY_FILE.get(file);
  if (known !== undefined) return known;
  const match = /^mod_(.+)\.c$/.exec(file);
  return match ? `${match[1]}_module` : null;
}

/** "ssl_module" → "mod_ssl.c"; null when the name is no module id. */
export function moduleFileOfId(id: string): string | null {
  const known = FILE_BY_ID.get(id);
  if (known !== undefined) return known;
  const match = /^(.+)_module$/.exec(id);
  return match ? `mod_${match[1]}.c` : null;
}

/** The modules present at one point of reading: LoadModule'd ids and the binary's built-in source files. */
export class ModuleSet {
  readonly #ids = new Set<string>();
  readonly #files = new Set<string>();

  constructor(builtinFiles: readonly string[]) {
    for (const file of builtinFiles) this.addFile(file);
  }

  addFile(file: string): void {
    this.#files.add(file);
    const id = moduleIdOfFile(file);
    if (id !== null) this.#ids.add(id);
  }

  addId(id: string): void {
    this.#ids.add(id);
    const file = moduleFileOfId(id);
    if (file !== null) this.#files.add(file);
  }

  /** As core.c find_module: the name as a source file or as a module id, case-sensitively. */
  has(name: string): boolean {
    return this.#files.has(name) || this.#ids.has(name);
  }

  ids(): string[] {
    return [...this.#ids];
  }
}
