// A configuration tree as the operator gave it, read once into memory at the input boundary. Everything after
// works on this value, so the model never touches the host's file system and never reads outside the tree.

export interface SourceTree {
  /** The host path the operator gave (a directory or one file), for messages only. */
  origin: string;
  /** Where the tree's root sits inside the server (its ServerRoot or, for a tree holding /etc/..., "/"):
   * an absolute path in the config under `mount` is a path in the tree. */
  mount: string;
  /** Files by their path relative to the tree root, "/"-separated ("mods-enabled/ssl.load"). */
  files: ReadonlyMap<string, Buffer>;
  /** Directories by relative path ("" is the root), for wildcard and recursive Include. */
  directories: ReadonlySet<string>;
  /** Symbolic links inside the tree, relative path → the relative path they resolve to (links are resolved at
   * load time; one leading out of the tree is a problem, never followed). */
  links: ReadonlyMap<string, string>;
  /** File modes by relative path (CGI scripts keep their execute bit when staged). */
  modes: ReadonlyMap<string, number>;
}
