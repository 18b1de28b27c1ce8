// One tree evaluated for one httpd version: Include expanded in place, conditional sections resolved, ${VAR}
// substituted, every directive keeping the span it was written at. What httpd would act on, in httpd's order.
import type { HttpdVersion } from "../versions/httpd-version.ts";
import type { ConfProblem, DirectiveNode, SectionNode, Span } from "./syntax-tree.ts";

export const LAYOUTS = ["official", "debian", "rhel", "fragment"] as const;
export type LayoutId = (typeof LAYOUTS)[number];

/** A conditional section (`<IfModule !mod_authz_core.c>`, `<IfVersion < 2.3>`, `<IfDefine SSL>`) that held for
 * this version and so let its content in. Lint reads guards to tell a dual-syntax config's 2.2 branch. */
export interface Guard {
  name: string;
  /** The condition as written. */
  condition: string;
  span: Span;
}

export interface EffectiveDirective {
  kind: "directive";
  name: string;
  key: string;
  /** Argument values with ${VAR} substituted (as httpd does at read time on this version). */
  args: string[];
  span: Span;
  node: DirectiveNode;
  /** Innermost last. */
  guards: Guard[];
  /** Set when the node comes from a `Use` of a mod_macro macro: its span is in the macro's body, its node was
   * read from the body with the arguments substituted (so its raw text is not the file's). */
  viaMacro?: MacroUse;
}

export interface EffectiveSection {
  kind: "section";
  name: string;
  key: string;
  args: string[];
  span: Span;
  node: SectionNode;
  guards: Guard[];
  children: EffectiveNode[];
  /** Set when the node comes from a `Use` of a mod_macro macro: its span is in the macro's body, its node was
   * read from the body with the arguments substituted (so its raw text is not the file's). */
  viaMacro?: MacroUse;
}

/** The `Use` line that expanded a macro (the innermost one when macros use macros). */
export interface MacroUse {
  /** The macro's name, lower-cased as mod_macro keeps it. */
  name: string;
  span: Span;
}

export type EffectiveNode = EffectiveDirective | EffectiveSection;

export interface EvaluateOptions {
  version: HttpdVersion;
  /** `-D NAME` or `-D NAME=value` given on the command line, in order. */
  defines: string[];
  /** The environment httpd starts with (envvars already applied by the caller, or by the layout). */
  environment: Readonly<Record<string, string>>;
  /** Modules compiled into the binary (`httpd -l`), by source file name ("core.c", "prefork.c", "mod_so.c"). */
  builtinModules: readonly string[];
}

export interface EffectiveConfig {
  version: HttpdVersion;
  layout: LayoutId;
  /** Absolute, inside the server. */
  serverRoot: string;
  /** The main config file, as a tree path. */
  mainFile: string;
  /** Every file read, in the order httpd reads them (DUMP_INCLUDES order), as tree paths. */
  files: string[];
  /** The Include (or IncludeOptional) line that first read each file, by file; the main file has none. Lint
   * gives a finding the chain of Includes that reached it. */
  includedBy: ReadonlyMap<string, Span>;
  nodes: EffectiveNode[];
  /** Define'd variables at the end of the config (2.4), and the command line's -D names. */
  defines: Readonly<Record<string, string>>;
  /** The environment the config was evaluated with (envvars included). */
  environment: Readonly<Record<string, string>>;
  problems: ConfProblem[];
}
