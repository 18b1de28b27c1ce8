// What the access translation hands to migrate: for one section (or the top level of a file, for .htaccess
// files and the main server) whose 2.2 access lines (Order, Allow, Deny, Satisfy, and the Require lines that
// go with them) are rewritten, the lines removed and the 2.4 lines that replace them, or why the section keeps
// mod_access_compat instead. Pure data; the rewrite itself is applied to the syntax tree by migrate.
import type { DirectiveNode, SectionNode, Span } from "../conf/syntax-tree.ts";

export interface AccessRewrite {
  /** Stable id within one migration ("access:<file>:<line>"), so a prove run can roll back this one hunk. */
  id: string;
  /** The tree path of the file holding the section. */
  file: string;
  /** The section rewritten; null: the top level of the file (an .htaccess file, or the main server). */
  section: SectionNode | null;
  /** Its span (the file's first line for a top level). */
  span: Span;
  /** The 2.2 directives taken out (syntax nodes of the parsed file, in order). */
  remove: DirectiveNode[];
  /** The 2.4 lines written where the first removed directive was, without indentation (the printer indents). A
   * container is written as several lines: ["<RequireAll>", "Require ip 10.0.0.0/8", "</RequireAll>"]. */
  insert: string[];
  /** Set when no exact 2.4 form exists: nothing is removed or inserted, the section keeps its 2.2 lines and the
   * tree keeps mod_access_compat loaded. */
  compat: { reason: string } | null;
  /** Rule ids the rewrite enforces (M2, Q1..Q6, ...). */
  rules: string[];
  /** What the section means, in an operator's words ("10.0.0.0/8 and 127.0.0.1 only; everyone else 403"). */
  meaning: string;
}
