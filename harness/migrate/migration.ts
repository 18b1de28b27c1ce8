// The result of migrating a 2.2 tree to 2.4: the new tree and every change with its rule and its state. Pure
// data, made by migrate-tree.ts, printed by the migrate command and checked by prove.
import type { ConfigTree } from "../conf/load-tree.ts";
import type { Span } from "../conf/syntax-tree.ts";

/** fixed: the change is 2.4's form of the same behaviour (proven where `migrate --prove` ran);
 * needs action: the harness could not write an equivalent (or its proof failed and the hunk was rolled back);
 * needs inspection: written, but it changes something a human should look at (a default that moved, a
 * directive dropped because 2.4 has no such thing). */
export type ChangeStatus = "fixed" | "needs action" | "needs inspection";

export interface MigrationChange {
  /** Stable within one migration ("access:conf/httpd.conf:139", "module:conf/httpd.conf:52"). */
  id: string;
  /** The rule that asked for it (M2, R9, B2, E1, mpm-not-loaded, ...). */
  rule: string;
  /** Where it was in the original tree. */
  span: Span;
  /** The original lines (as written) and their replacement (as printed); after is [] for a removal. */
  before: string[];
  after: string[];
  status: ChangeStatus;
  /** Why, in an operator's words. */
  why: string;
  /** For access hunks: whether `migrate --prove` proved it (true), refuted it and rolled it back (false), or did
   * not run (null). */
  proven: boolean | null;
}

export interface Migration {
  /** The original, as loaded. */
  original: ConfigTree;
  /** The 2.4 tree: same layout, same files, rewritten where a change says so. */
  migrated: ConfigTree;
  changes: MigrationChange[];
}

export interface MigrateOptions {
  defines: readonly string[];
  /** Write a `# migrated: <rule> ...` comment above each changed line. */
  annotate: boolean;
  /** Access hunks (by AccessRewrite id) to leave as they were, with mod_access_compat kept for them: what
   * `migrate --prove` rolls back after a counterexample. */
  rollback: ReadonlySet<string>;
}
