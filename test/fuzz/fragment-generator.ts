// The differential fuzzer's input: valid httpd 2.2 configuration fragments, generated with fast-check. A fragment
// lives under its own prefix (a directory /usr/local/apache2/htdocs/<prefix>, a URL /<prefix>, a ScriptAlias
// /<prefix>-cgi/), so many fragments can run side by side in one server without touching each other: every
// section it writes is inside its own <Directory> or <Location>, or names its own paths. A batch is some
// fragments plus the modules it loads on the target (LoadModule lines guarded so that 2.2, whose stock config
// loads them all, skips them): the modules are the batch's, since a server loads a module for every fragment.
//
// The structure, not text, is generated, so fast-check shrinks it; renderFragment prints it.
import fc from "fast-check";

export const ADDRESS_FORMS = ["all", "127.0.0.1", "10.9.0.0/16", "10.9.7.7"] as const;
export const USERS_FILE = "/usr/local/apache2/conf/fuzz.users";
export const DIGEST_FILE = "/usr/local/apache2/conf/fuzz.digest";
export const GROUPS_FILE = "/usr/local/apache2/conf/fuzz.groups";

export type Guard = "none" | "mod_authz_host.c" | "!mod_authz_core.c" | "mod_access_compat.c";

export interface AccessBlock {
  order: "none" | "Deny,Allow" | "Allow,Deny" | "Mutual-failure";
  allow: string[];
  deny: string[];
  satisfy: "none" | "Any" | "All";
  auth: "none" | "Basic" | "Digest";
  require: string[];
  /** An <IfModule> around the Order/Allow/Deny/Satisfy lines. */
  guard: Guard;
}

export interface HandlerBlock {
  options: "none" | "ExecCGI" | "+ExecCGI" | "-ExecCGI" | "Includes" | "+Includes" | "None" | "Indexes";
  handler: "none" | "AddHandler cgi-script .cgi" | "SetHandler cgi-script" | "AddOutputFilter INCLUDES .shtml" | "AddHandler server-parsed .shtml";
}

export interface FuzzSection {
  kind: "directory" | "location" | "files" | "filesmatch";
  /** directory/location: a sub-path of the parent ("" for the fragment's own root); files: a file name. */
  name: string;
  access: AccessBlock;
  handlers: HandlerBlock;
  children: FuzzSection[];
}

export interface Fragment {
  /** The fragment's root: a <Directory> under the document root, a <Location>, or a ScriptAlias'd directory. */
  root: "directory" | "location" | "scriptalias";
  section: FuzzSection;
}

export type TargetModule = "cgid" | "include" | "auth_digest";

export interface FuzzBatch {
  modules: TargetModule[];
  fragments: Fragment[];
}

const MODULE_LINES: Record<TargetModule, { guard: string; line: string }> = {
  cgid: { guard: "mod_cgi.c", line: "LoadModule cgid_module modules/mod_cgid.so" },
  include: { guard: "mod_include.c", line: "LoadModule include_module modules/mod_include.so" },
  auth_digest: { guard: "mod_auth_digest.c", line: "LoadModule auth_digest_module modules/mod_auth_digest.so" },
};

const addressList = fc.subarray([...ADDRESS_FORMS], { minLength: 0, maxLength: 2 });

export const accessBlock: fc.Arbitrary<AccessBlock> = fc.record({
  order: fc.constantFrom("none", "Deny,Allow", "Allow,Deny", "Mutual-failure"),
  allow: addressList,
  deny: addressList,
  satisfy: fc.constantFrom("none", "none", "Any", "All"),
  auth: fc.constantFrom("none", "none", "Basic", "Basic", "Digest"),
  require: fc.constantFrom<string[]>([], [], ["valid-user"], ["user alice"], ["user alice bob"], ["group staff"], ["user bob", "group staff"]),
  guard: fc.constantFrom<Guard>("none", "none", "none", "mod_authz_host.c", "!mod_authz_core.c", "mod_access_compat.c"),
});

export const handlerBlock: fc.Arbitrary<HandlerBlock> = fc.record({
  options: fc.constantFrom("none", "none", "ExecCGI", "+ExecCGI", "-ExecCGI", "Includes", "+Includes", "None", "Indexes"),
  handler: fc.constantFrom("none", "none", "AddHandler cgi-script .cgi", "SetHandler cgi-script", "AddOutputFilter INCLUDES .shtml", "AddHandler server-parsed .shtml"),
});

const childSection: fc.Arbitrary<FuzzSection> = fc.record({
  kind: fc.constantFrom<FuzzSection["kind"]>("directory", "files", "filesmatch"),
  name: fc.constantFrom("sub", "inner", "probe.cgi", "secret.txt"),
  access: accessBlock,
  handlers: handlerBlock,
  children: fc.constant<FuzzSection[]>([]),
}).map((s) => normaliseChild(s));

/** Names that fit the kind: a sub-directory's path, a file's name, a FilesMatch's expression. */
function normaliseChild(section: FuzzSection): FuzzSection {
  if (section.kind === "directory") return { ...section, name: section.name.includes(".") ? "sub" : section.name };
  if (section.kind === "filesmatch") return { ...section, name: section.name.includes(".") ? "\\.cgi$" : "^secret" };
  return { ...section, name: section.name.includes(".") ? section.name : "secret.txt" };
}

export const fragmentArbitrary: fc.Arbitrary<Fragment> = fc.record({
  root: fc.constantFrom<Fragment["root"]>("directory", "directory", "location", "scriptalias"),
  access: accessBlock,
  handlers: handlerBlock,
  children: fc.array(childSection, { maxLength: 2 }),
}).map(({ root, access, handlers, children }) => ({
  root,
  // httpd refuses <Files> and <Directory> inside <Location> ("cannot occur within <Location> section").
  section: { kind: root === "location" ? "location" : "directory", name: "", access, handlers, children: root === "location" ? [] : children },
}));

export function batchArbitrary(size: number): fc.Arbitrary<FuzzBatch> {
  return fc.record({
    modules: fc.subarray<TargetModule>(["cgid", "include", "auth_digest"]),
    fragments: fc.array(fragmentArbitrary, { minLength: size, maxLength: size }),
  });
}

// ---- printing -------------------------------------------------------------------------------------------------

const DOC_ROOT = "/usr/local/apache2/htdocs";

function accessLines(block: AccessBlock, realm: string): string[] {
  const host: string[] = [];
  if (block.order !== "none") host.push(`Order ${block.order}`);
  if (block.allow.length > 0) host.push(`Allow from ${block.allow.join(" ")}`);
  if (block.deny.length > 0) host.push(`Deny from ${block.deny.join(" ")}`);
  if (block.satisfy !== "none") host.push(`Satisfy ${block.satisfy}`);
  const guarded = block.guard === "none" || host.length === 0 ? host : [`<IfModule ${block.guard}>`, ...host.map((l) => `    ${l}`), "</IfModule>"];
  const auth: string[] = [];
  if (block.auth !== "none") {
    auth.push(`AuthType ${block.auth}`, `AuthName "${realm}"`, `AuthUserFile ${block.auth === "Digest" ? DIGEST_FILE : USERS_FILE}`);
  }
  // A group line always with its group file (without one, 2.2's authz_groupfile declines: not generated).
  if (block.require.some((r) => r.startsWith("group"))) auth.push(`AuthGroupFile ${GROUPS_FILE}`);
  // A Require without an AuthType here inherits the parent's, or is a per-request 500 where none applies.
  const require = block.require.map((r) => `Require ${r}`);
  return [...guarded, ...auth, ...require];
}

function handlerLines(block: HandlerBlock): string[] {
  return [...(block.options === "none" ? [] : [`Options ${block.options}`]), ...(block.handler === "none" ? [] : [block.handler])];
}

function open(section: FuzzSection, path: string): [string, string] {
  switch (section.kind) {
    case "directory":
      return [`<Directory ${path}>`, "</Directory>"];
    case "location":
      return [`<Location ${path}>`, "</Location>"];
    case "files":
      return [`<Files "${section.name}">`, "</Files>"];
    case "filesmatch":
      return [`<FilesMatch "${section.name}">`, "</FilesMatch>"];
  }
}

function sectionLines(section: FuzzSection, path: string, realm: string): string[] {
  const [start, end] = open(section, path);
  const body = [...accessLines(section.access, realm), ...handlerLines(section.handlers)];
  const nested = section.children.filter((c) => c.kind === "files" || c.kind === "filesmatch").flatMap((c) => sectionLines(c, path, realm));
  const out = [start, ...[...body, ...nested].map((l) => `    ${l}`), end];
  // Sub-directories are sections of their own (httpd refuses a <Directory> inside another).
  for (const child of section.children.filter((c) => c.kind === "directory")) out.push(...sectionLines(child, `${path}/${child.name}`, realm));
  return out;
}

/** The fragment's text under `prefix` ("fz3"): its own paths only. */
export function renderFragment(fragment: Fragment, prefix: string): string[] {
  const realm = `${prefix} realm`;
  switch (fragment.root) {
    case "directory":
      return sectionLines(fragment.section, `${DOC_ROOT}/${prefix}`, realm);
    case "location":
      return sectionLines(fragment.section, `/${prefix}`, realm);
    case "scriptalias":
      return [`ScriptAlias /${prefix}-cgi/ /usr/local/apache2/${prefix}-cgi/`, ...sectionLines(fragment.section, `/usr/local/apache2/${prefix}-cgi`, realm)];
  }
}

export function moduleLines(modules: readonly TargetModule[]): string[] {
  return [...modules].sort().flatMap((m) => [`<IfModule !${MODULE_LINES[m].guard}>`, `    ${MODULE_LINES[m].line}`, "</IfModule>"]);
}

/** The batch's config: its module lines, then each fragment under its own prefix (fz0, fz1, ...). */
export function renderBatch(batch: FuzzBatch, prefixes: readonly string[] = batch.fragments.map((_, i) => `fz${i}`)): string {
  const parts = [moduleLines(batch.modules), ...batch.fragments.map((f, i) => [`# fragment ${prefixes[i]}`, ...renderFragment(f, prefixes[i]!)])];
  return `${parts.flat().join("\n")}\n`;
}
