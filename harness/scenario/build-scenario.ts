// A schema-valid scenario file → the typed Scenario, with every check of meaning: seed ids exist, request clients
// are declared, {{...}} variables resolve, regular expressions compile, request modes do not mix, names are unique,
// predictions name real requests. Problems are collected (not thrown) so a file's problems are reported together.
import { dirname, resolve as resolvePath } from "node:path";
import type { LayoutId } from "../conf/effective-config.ts";
import type { SourcePosition } from "../errors.ts";
import { scanVariables, VARIABLE_HINT, variableText } from "./interpolate.ts";
import type { ScenarioIssue } from "./scenario-issue.ts";
import { LOG_LEVELS } from "../logs/error-log-record.ts";
import { FAMILIES } from "../versions/httpd-version.ts";
import {
  MODULE_NAME_PATTERN,
  SERVER_LEVEL_FIELDS,
  VERSION_RANGE_KEY_PATTERN,
  type RawErrorLogMatcher,
  type RawRequest,
  type RawResponseExpectation,
  type RawServerExpectation,
  type RawTextMatcher,
  type ScenarioFile,
} from "./scenario-schema.ts";
import { FIXED_VARIABLES, scenarioVariableNames } from "./scenario-variables.ts";
import { prepareToolProblems } from "./prepare-tools.ts";
import { clientAddressProblem, clientDomainProblem, formatAddress, parseAddress, sameSubnet } from "./client-address.ts";
import { isLocalClient, LOCAL_CLIENTS, RESERVED_CLIENT_NAMES } from "./reserved-clients.ts";
import { parseSubject, SUBJECT_ATTRIBUTES, SUBJECT_EXAMPLE, type Subject } from "./subject-name.ts";
import type {
  BackendSpec,
  ByFamily,
  ClientSpec,
  ErrorLogMatcher,
  Family,
  FileSpec,
  HeaderExpectation,
  IgnoreRule,
  PerFamily,
  RequestMode,
  RequestSpec,
  ResponseExpectation,
  Scenario,
  ServerExpectation,
  ServerSpec,
  TextMatcher,
  Versioned,
  TreeRef,
} from "./scenario.ts";
import { toTextMatcher } from "./text-matcher.ts";
import type { PathSegment, YamlLocator } from "./yaml-locator.ts";
import { parseVersionRange } from "../versions/version-range.ts";

type Path = readonly PathSegment[];
type ByVersion<T> = { "2.2"?: T | undefined; "2.4"?: T | undefined; both?: T | undefined };
type RawPerFamily<T> = T | { "2.2"?: T | undefined; "2.4"?: T | undefined };

const DEFAULT_FILE_MODE = 0o644;
const NOT_IN_RAW = ["method", "path", "headers", "body", "auth", "http", "keepAlive"] as const;
const NOT_IN_EXEC = ["method", "path", "host", "headers", "body", "auth", "tls", "clientCertificate", "http", "trickleMs", "keepAlive"] as const;
const RESPONSE_ONLY_FIELDS = ["status", "headers", "body", "transportError", "connectionReused"] as const;
const EXEC_ONLY_FIELDS = ["exitCode", "stdout"] as const;
const FAMILY_KEYS: readonly Family[] = FAMILIES;

/** A family's value written as version ranges ({ ">=2.4.63": ..., default: ... }) rather than one statement. */
function isRanged(value: unknown): value is Record<string, never> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => VERSION_RANGE_KEY_PATTERN.test(key));
}

export interface BuildContext {
  file: string;
  locator: YamlLocator;
  seedIds: ReadonlySet<string>;
  /** The parsed YAML before defaults, to tell a key written by the user from a default. */
  input: unknown;
}

export function buildScenario(raw: ScenarioFile, context: BuildContext): { scenario: Scenario; issues: ScenarioIssue[] } {
  const builder = new ScenarioBuilder(context);
  const scenario = builder.build(raw);
  return { scenario, issues: builder.issues };
}

class ScenarioBuilder {
  readonly issues: ScenarioIssue[] = [];
  private variables = new Set<string>();
  private clientNames = new Set<string>();
  private backendNames = new Set<string>();

  constructor(private readonly context: BuildContext) {}

  build(raw: ScenarioFile): Scenario {
    this.checkSeedIds(raw.seed, ["seed"]);
    const backends = this.backends(raw.backends);
    const clients = this.clients(raw.clients);
    this.variables = new Set(scenarioVariableNames({ clients, backends }));
    const server = this.server(raw.server);
    const requests = this.requests(raw.requests);
    const guide = raw.guide;
    return {
      file: this.context.file,
      at: this.at([]),
      id: raw.id,
      title: raw.title,
      seed: raw.seed,
      guideClaim: guide?.claim ?? null,
      guideNotes: guide?.notes ?? [],
      server,
      backends,
      clients,
      requests,
      expect: this.byVersion(raw.expect, ["expect"], (value, path) => this.serverExpectation(value, path), mergeServerExpectations),
      guide:
        guide === undefined
          ? {}
          : this.byVersion(guide, ["guide"], (value, path) => this.serverExpectation(value, path), mergeServerExpectations),
      timeLimitMs: raw.timeLimit === undefined ? null : raw.timeLimit * 1000,
      ignore: raw.ignore.map((rule, index): IgnoreRule => ({
        at: this.at(["ignore", index]),
        field: canonicalField(rule.field),
        reason: rule.reason,
      })),
      predicted: this.predicted(raw.predicted, new Set(requests.map((request) => request.name))),
    };
  }

  // ── helpers ────────────────────────────────────────────────────────────────────────────────────────────

  private at(path: Path): SourcePosition {
    return this.context.locator.position(path);
  }

  private report(path: Path, problem: string, details: Omit<ScenarioIssue, "path" | "problem" | "position"> & { position?: SourcePosition } = {}): void {
    this.issues.push({ position: details.position ?? this.at(path), path, problem, ...withoutPosition(details) });
  }

  /** Whether the user wrote this key (as opposed to a default filling it in). */
  private written(path: Path): boolean {
    let current: unknown = this.context.input;
    for (const segment of path) {
      if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return false;
      current = (current as Record<string, unknown>)[segment];
    }
    return current !== undefined;
  }

  private checkSeedIds(ids: readonly string[], path: Path): void {
    ids.forEach((id, index) => {
      if (this.context.seedIds.has(id)) return;
      const sameLetter = [...this.context.seedIds].filter((known) => known[0] === id[0]);
      this.report([...path, index], `unknown seed row "${id}"`, {
        expected:
          sameLetter.length > 0
            ? `an id from spec/seed-rows.tsv; with ${id[0] ?? ""}: ${sameLetter.join(", ")}`
            : `an id from spec/seed-rows.tsv, e.g. ${[...this.context.seedIds].slice(0, 6).join(", ")}`,
        example: "seed: [A6, T1]",
        received: { value: id },
      });
    });
  }

  private matcher(raw: RawTextMatcher, path: Path): TextMatcher {
    const result = toTextMatcher(raw);
    if (result.ok) return result.matcher;
    const at = typeof raw === "object" && "matches" in raw ? [...path, "matches"] : path;
    this.report(at, result.problem, {
      expected: "a regular expression JavaScript accepts, flags from d, i, m, s, u, v",
      example: 'message: "/client denied .*server-status/i"',
      received: { value: raw },
      hint: 'A plain string that only looks like /re/ can be written { contains: "/..." }.',
    });
    return { kind: "contains", value: "" };
  }

  private checkVariables(text: string, path: Path): void {
    const tokens = scanVariables(text);
    const seen = new Map<string, number>();
    let unterminated = 0;
    for (const token of tokens) {
      if (token.kind === "escape") continue;
      if (token.kind === "unterminated") {
        this.report(path, 'a "{{" has no closing "}}" on its line', {
          position: this.positionInScalar(path, "unterminated", "", unterminated++),
          expected: "{{name}} with closing braces, or {{{{ for a literal {{",
          example: "Require ip {{clients.host.ip}}",
          received: { value: text.slice(token.index, token.index + 40).split("\n", 1)[0] ?? "" },
          hint: VARIABLE_HINT,
        });
        continue;
      }
      const occurrence = seen.get(token.name) ?? 0;
      seen.set(token.name, occurrence + 1);
      if (this.variables.has(token.name)) continue;
      this.report(path, `unknown variable ${variableText(token.name)}${this.variableReason(token.name)}`, {
        position: this.positionInScalar(path, "variable", token.name, occurrence),
        expected: this.describeVariables(),
        example: "Require ip {{clients.host.ip}}",
        received: { value: variableText(token.name) },
        hint: VARIABLE_HINT,
      });
    }
    // A harness variable in httpd's own ${...} syntax would reach httpd as written (2.4 warns AH00111 and keeps
    // the text; 2.2 keeps it silently): the scenario means {{name}}, so say so instead of running it.
    for (const match of text.matchAll(/\$\{([A-Za-z0-9_.-]+)\}/g)) {
      const name = match[1]!;
      if (!this.variables.has(name)) continue;
      this.report(path, `\${${name}} is httpd's own syntax, which the harness passes to httpd untouched; the harness's variable is written ${variableText(name)}`, {
        expected: variableText(name),
        example: `Require ip ${variableText("clients.host.ip")}`,
        received: { value: match[0] },
        hint: VARIABLE_HINT,
      });
    }
  }

  private variableReason(name: string): string {
    if (name.trim() !== name && this.variables.has(name.trim())) return `: write ${variableText(name.trim())}, without spaces inside the braces`;
    const match = /^(clients|backends)\.([^.]+)\.([^.]+)$/.exec(name);
    if (match === null) return "";
    const [, kind, owner, property] = match as unknown as [string, string, string, string];
    const declared = kind === "clients" ? RESERVED_CLIENT_NAMES.includes(owner) || this.clientNames.has(owner) : this.backendNames.has(owner);
    if (!declared) return `: no ${kind === "clients" ? "client" : "backend"} "${owner}" is declared`;
    return `: ${kind} have no "${property}"`;
  }

  private describeVariables(): string {
    const clients = [...RESERVED_CLIENT_NAMES, ...this.clientNames].join(", ");
    const backends = [...this.backendNames];
    return [
      FIXED_VARIABLES.map(variableText).join(", "),
      `{{clients.NAME.ip}}, {{clients.NAME.hostname}} for NAME in: ${clients}`,
      backends.length > 0 ? `{{backends.NAME.host|ip|port}} for NAME in: ${backends.join(", ")}` : "no backends are declared",
    ].join("\n");
  }

  /** The position of the n-th `{{name}}` (or unterminated `{{`) inside the scalar's source text. */
  private positionInScalar(path: Path, kind: "variable" | "unterminated", name: string, occurrence: number): SourcePosition {
    const source = this.context.locator.scalarSource(path);
    if (source === null) return this.at(path);
    let count = 0;
    for (const token of scanVariables(source.text)) {
      if (token.kind !== kind || (token.kind === "variable" && token.name !== name)) continue;
      if (count === occurrence) return this.context.locator.offsetPosition(source.offset + token.index);
      count += 1;
    }
    return this.at(path);
  }

  private perFamily<T>(value: RawPerFamily<T>, isSingle: (value: RawPerFamily<T>) => value is T, fallback: T): PerFamily<T> {
    if (isSingle(value)) return { both: value };
    const split = value as { "2.2"?: T; "2.4"?: T };
    return { perFamily: { "2.2": split["2.2"] ?? fallback, "2.4": split["2.4"] ?? fallback } };
  }

  /** [path, value] of a per-family value: the value itself, or each version's. */
  private familyEntries<T>(value: RawPerFamily<T>, isSingle: (value: RawPerFamily<T>) => value is T, path: Path): Array<[Path, T]> {
    if (isSingle(value)) return [[path, value]];
    const split = value as { "2.2"?: T; "2.4"?: T };
    return FAMILY_KEYS.flatMap((family): Array<[Path, T]> => (split[family] === undefined ? [] : [[[...path, family], split[family] as T]]));
  }

  private byVersion<R, T extends { at: SourcePosition }>(
    value: ByVersion<R>,
    path: Path,
    convert: (value: R, path: Path) => T,
    merge: (both: T, own: T | undefined) => T,
  ): ByFamily<T> {
    const both = value.both === undefined ? undefined : convert(value.both, [...path, "both"]);
    const withBoth = (own: T | undefined): T | undefined => (both === undefined ? own : merge(both, own));
    const result: ByFamily<T> = {};
    for (const family of FAMILY_KEYS) {
      const raw = value[family] as R | Record<string, R> | undefined;
      if (raw === undefined) {
        if (both !== undefined) result[family] = { ranges: [], otherwise: withBoth(undefined) };
        continue;
      }
      if (!isRanged(raw)) {
        result[family] = { ranges: [], otherwise: withBoth(convert(raw as R, [...path, family])) };
        continue;
      }
      const versioned: Versioned<T> = { ranges: [], otherwise: both === undefined ? undefined : withBoth(undefined) };
      for (const [key, inner] of Object.entries(raw)) {
        const own = withBoth(convert(inner, [...path, family, key]));
        if (key === "default") {
          versioned.otherwise = own;
          continue;
        }
        const range = parseVersionRange(key);
        if (range === null || range.bounds.some((bound) => `${bound.major}.${bound.minor}` !== family)) {
          this.report([...path, family, key], `"${key}" is not a version range of httpd ${family}`, {
            position: this.context.locator.keyPosition([...path, family, key]),
            expected: `a range of ${family} versions such as ">=${family}.63", "<${family}.63", "${family}.62", or default`,
            example: `"${family}": { ">=${family}.63": { status: 200 }, default: { status: 500 } }`,
          });
          continue;
        }
        if (own !== undefined) versioned.ranges.push({ range, value: own });
      }
      result[family] = versioned;
    }
    return result;
  }

  // ── server, backends, clients ─────────────────────────────────────────────────────────────────────────

  private server(raw: ScenarioFile["server"]): ServerSpec {
    const path = ["server"];
    const isList = (value: unknown): value is string[] => Array.isArray(value);
    const isText = (value: unknown): value is string => typeof value === "string";
    this.checkLogLevel(raw.logLevel, [...path, "logLevel"]);
    const treeConfig = typeof raw.config === "object" && raw.config !== null && "tree" in raw.config ? raw.config : null;
    const inline = treeConfig === null ? (raw.config as Exclude<typeof raw.config, { tree: string }>) : "";
    for (const [configPath, config] of this.familyEntries(inline, isText, [...path, "config"])) this.checkVariables(config, configPath);
    if (treeConfig !== null) {
      for (const key of ["modules", "omitModules", "base"] as const) {
        if (this.written([...path, key])) this.report([...path, key], `has no effect with a configuration tree: the tree's own LoadModule lines and main file are used`, {});
      }
    }
    for (const [preparePath, commands] of this.familyEntries(raw.prepare, isList, [...path, "prepare"])) {
      const family = preparePath.at(-1);
      const families: readonly Family[] = family === "2.2" || family === "2.4" ? [family] : FAMILY_KEYS;
      commands.forEach((command, index) => {
        this.checkVariables(command, [...preparePath, index]);
        this.checkPrepareTools(command, [...preparePath, index], families);
      });
    }
    const tls = this.serverTls(raw.tls, [...path, "tls"]);
    return {
      at: this.at(path),
      base: raw.base,
      modules: this.perFamily(raw.modules, isList, []),
      omitModules: this.perFamily(raw.omitModules, isList, []),
      config: this.perFamily(inline, isText, ""),
      files: this.files(raw.files, [...path, "files"], true),
      logLevel: raw.logLevel,
      prepare: this.perFamily(raw.prepare, isList, []),
      tls,
      tree: treeConfig === null ? null : this.treeRefs(treeConfig, [...path, "config"]),
      ...(treeConfig?.world === "probes" ? { worldFromProbes: true } : {}),
    };
  }

  /** The tree (and the operator's port) a scenario names, resolved against the scenario file's directory. A
   * tree is taken as written for 2.2 until it is read (cli/tree-inputs.ts tells it from its LoadModule lines). */
  private treeRefs(config: { tree: string; candidate?: string | undefined; layout?: LayoutId | undefined; defines: string[] }, path: Path): ServerSpec["tree"] {
    const at = this.at(path);
    const ref = (given: string, writtenFor: Family): TreeRef => ({
      at,
      path: resolvePath(dirname(this.context.file), given),
      layout: config.layout ?? null,
      defines: config.defines,
      writtenFor,
    });
    const baseline = ref(config.tree, "2.2");
    return { baseline, candidate: config.candidate === undefined ? baseline : ref(config.candidate, "2.4") };
  }

  /** Prepare commands run in the server image: only httpd's tools and POSIX sh utilities (prepare-tools.ts). */
  private checkPrepareTools(command: string, path: Path, families: readonly Family[]): void {
    for (const problem of prepareToolProblems(command, families)) {
      const certificate = problem.name === "openssl";
      this.report(path, problem.problem, {
        position: this.positionInText(path, command, problem.index),
        expected:
          "httpd's own programs (htpasswd, htdigest, htdbm, httxt2dbm, httpd, apachectl, ...) and POSIX sh with basic " +
          "utilities (mkdir, chmod, chown, cp, mv, ln, touch, cat, printf, echo, sed, ...): harness/scenario/prepare-tools.ts",
        example: certificate
          ? `tls: { certificate: valid, subject: "${SUBJECT_EXAMPLE}" }   # then: SSLCertificateFile {{certs.dir}}/server.crt`
          : 'files: { conf/groups.txt: "alice admins\\n" }',
        received: { value: command },
        hint: problem.hint,
      });
    }
  }

  private serverTls(raw: ScenarioFile["server"]["tls"], path: Path): ServerSpec["tls"] {
    if (raw === undefined || raw === false) return null;
    if (raw === true) return { certificate: "valid", clientCa: false, crl: false, subject: null };
    let subject: Subject | null = null;
    if (raw.subject !== undefined) {
      const subjectPath = [...path, "subject"];
      const parsed = parseSubject(raw.subject);
      if (parsed.ok) subject = parsed.subject;
      else {
        this.report(subjectPath, `not a subject: ${parsed.problem}`, {
          position: this.positionInText(subjectPath, raw.subject, parsed.index),
          expected: `OpenSSL's form, most significant part first: /type=value/type=value...; types ${Object.keys(SUBJECT_ATTRIBUTES).join(", ")}; a backslash escapes / and \\`,
          example: `subject: "${SUBJECT_EXAMPLE}"`,
          received: { value: raw.subject },
        });
      }
      if (raw.certificate === "wrong-name") {
        this.report(subjectPath, "a wrong-name certificate takes no subject (it must name no server the client asks for)", {
          position: this.context.locator.keyPosition(subjectPath),
          expected: "certificate: valid, expired, not-yet-valid or self-signed with a subject",
          example: `tls: { certificate: valid, subject: "${SUBJECT_EXAMPLE}" }`,
          received: { value: raw.subject },
        });
      }
    }
    return { certificate: raw.certificate, clientCa: raw.clientCa, crl: raw.crl, subject };
  }

  /** The position of character `index` of a string value: exact when its source is the text itself (plain) or
   * the text in quotes without escapes; else the value's start. */
  private positionInText(path: Path, value: string, index: number): SourcePosition {
    const source = this.context.locator.scalarSource(path);
    if (source === null) return this.at(path);
    const quoted = /^["']/.test(source.text) ? source.text.slice(1, -1) : null;
    if (source.text === value) return this.context.locator.offsetPosition(source.offset + index);
    if (quoted === value) return this.context.locator.offsetPosition(source.offset + 1 + index);
    return this.at(path);
  }

  private checkLogLevel(value: string, path: Path): void {
    const levels: readonly string[] = LOG_LEVELS;
    const words = value.trim().split(/\s+/);
    const bad = words.find((word) => {
      const [module, level] = word.includes(":") ? word.split(":", 2) : [undefined, word];
      return !levels.includes(level ?? "") || (module !== undefined && !MODULE_NAME_PATTERN.test(module));
    });
    if (value.trim() === "" || bad !== undefined) {
      this.report(path, bad === undefined ? "empty LogLevel" : `"${bad}" is not a level or module:level`, {
        expected: `a level (${LOG_LEVELS.join(", ")}), then optional module:level pairs`,
        example: "logLevel: info ssl:warn",
        received: { value },
      });
    }
  }

  private files(raw: Record<string, string | { content: string; mode?: string | number | undefined }>, path: Path, interpolated: boolean): FileSpec[] {
    return Object.entries(raw).map(([name, entry]): FileSpec => {
      const entryPath = [...path, name];
      const problem = filePathProblem(name);
      if (problem !== null) {
        this.report(entryPath, `file path "${name}" ${problem}`, {
          position: this.context.locator.keyPosition(entryPath),
          expected: "a path relative to the root, without .. segments",
          example: 'htdocs/private/.htaccess: "Require all denied"',
          received: { value: name },
        });
      }
      const content = typeof entry === "string" ? entry : entry.content;
      const contentPath = typeof entry === "string" ? entryPath : [...entryPath, "content"];
      if (interpolated) this.checkVariables(content, contentPath);
      let mode = DEFAULT_FILE_MODE;
      if (typeof entry === "object" && entry.mode !== undefined) mode = this.fileMode(entry.mode, [...entryPath, "mode"]);
      return { path: name, content, mode };
    });
  }

  /** Octal modes: "0755", "755", "0o755", or the same unquoted (YAML 1.2 reads 0755 as decimal 755, so the
   * source text decides). */
  private fileMode(value: string | number, path: Path): number {
    const source = typeof value === "number" ? (this.context.locator.scalarSource(path)?.text ?? String(value)) : value;
    const match = /^(?:0o?)?([0-7]{3,4})$/.exec(source.trim());
    if (match?.[1] !== undefined) return Number.parseInt(match[1], 8);
    this.report(path, "not an octal file mode", {
      expected: 'an octal mode, quoted: "0755" (or 0o755)',
      example: 'mode: "0755"',
      received: { value },
    });
    return DEFAULT_FILE_MODE;
  }

  private backends(raw: ScenarioFile["backends"]): BackendSpec[] {
    const first = new Map<string, number>();
    return raw.map((backend, index): BackendSpec => {
      const path = ["backends", index];
      this.checkUnique(first, backend.name, index, [...path, "name"], "backend", (i) => ["backends", i, "name"]);
      this.backendNames.add(backend.name);
      if (backend.certificate !== "valid" && backend.kind !== "https-origin" && this.written([...path, "certificate"])) {
        this.report([...path, "certificate"], `a certificate only applies to kind https-origin, not ${backend.kind}`, {
          expected: "kind: https-origin, or no certificate",
          example: "- { name: backend, kind: https-origin, certificate: expired }",
          received: { value: backend.certificate },
        });
      }
      return {
        at: this.at(path),
        name: backend.name,
        kind: backend.kind,
        certificate: backend.certificate,
        files: this.files(backend.files, [...path, "files"], false),
      };
    });
  }

  private clients(raw: ScenarioFile["clients"]): ClientSpec[] {
    const first = new Map<string, number>();
    const clients = raw.map((client, index): ClientSpec => {
      const path = ["clients", index];
      if (RESERVED_CLIENT_NAMES.includes(client.name)) {
        const meaning = isLocalClient(client.name)
          ? `it sends from inside the server's network namespace to ${LOCAL_CLIENTS[client.name]}`
          : "it means the machine running the harness";
        this.report([...path, "name"], `"${client.name}" is reserved: ${meaning}`, {
          expected: `any name but ${RESERVED_CLIENT_NAMES.join(", ")}; requests use client: ${client.name} without declaring it`,
          example: "clients: [{ name: allowed }]",
          received: { value: client.name },
        });
      }
      this.checkUnique(first, client.name, index, [...path, "name"], "client", (i) => ["clients", i, "name"]);
      this.clientNames.add(client.name);
      return { at: this.at(path), name: client.name, address: this.clientAddress(client.address, [...path, "address"]), domain: this.clientDomain(client.domain, [...path, "domain"]) };
    });
    this.checkSharedNames(clients);
    return clients;
  }

  /** The address in canonical text (what Docker reports), or null when absent or wrong. */
  private clientAddress(raw: string | undefined, path: Path): string | null {
    if (raw === undefined) return null;
    const problem = clientAddressProblem(raw);
    if (problem === null) return formatAddress(parseAddress(raw)!);
    this.report(path, `"${raw}" ${problem}`, {
      expected: "an IPv4 or IPv6 address a host can have, without a prefix length: not loopback, multicast or unspecified",
      example: "clients: [{ name: office, address: 10.1.2.5 }, { name: v6, address: 2001:db8::5 }]",
      received: { value: raw },
    });
    return null;
  }

  private clientDomain(raw: string | undefined, path: Path): string | null {
    if (raw === undefined) return null;
    const problem = clientDomainProblem(raw);
    if (problem === null) return raw.toLowerCase();
    this.report(path, `"${raw}" ${problem}`, {
      expected: 'a full DNS name ("www.example.com") or a domain the name ends in (".example.com")',
      example: "clients: [{ name: partner, domain: .example.com }, { name: www, domain: www.example.com }]",
      received: { value: raw },
    });
    return null;
  }

  /** A full name is a container on a network named after its parent domain (Docker's DNS answers
   * `<container>.<network>`): two clients cannot have one name, and clients sharing a parent domain share that
   * network, so they cannot ask for addresses in different subnets. */
  private checkSharedNames(clients: readonly ClientSpec[]): void {
    const byName = new Map<string, ClientSpec>();
    const byParent = new Map<string, ClientSpec>();
    clients.forEach((client, index) => {
      if (client.domain === null || client.domain.startsWith(".")) return;
      const path = ["clients", index, "domain"];
      const same = byName.get(client.domain);
      if (same !== undefined) {
        this.report(path, `"${client.domain}" is already the name of client ${same.name}`, {
          expected: "one client per full name (a domain with a leading dot may be shared)",
          example: `domain: .${client.domain.split(".").slice(1).join(".")}`,
          received: { value: client.domain },
        });
        return;
      }
      byName.set(client.domain, client);
      const parent = client.domain.slice(client.domain.indexOf(".") + 1);
      const sibling = byParent.get(parent);
      if (sibling !== undefined && !sameSubnet(sibling.address, client.address)) {
        this.report(path, `clients ${sibling.name} and ${client.name} both have a name in ${parent}, which is one network, but ask for addresses in different subnets`, {
          expected: `addresses in one subnet (IPv4 /24, IPv6 /64), or no address, for names under ${parent}`,
          example: `- { name: ${client.name}, domain: ${client.domain}${sibling.address === null ? "" : `, address: ${sibling.address}`} }`,
          received: { value: client.address },
        });
      }
      byParent.set(parent, sibling ?? client);
    });
  }

  private checkUnique(first: Map<string, number>, name: string, index: number, path: Path, what: string, pathOf: (index: number) => Path): void {
    const earlier = first.get(name);
    if (earlier === undefined) {
      first.set(name, index);
      return;
    }
    const earlierAt = this.at(pathOf(earlier));
    this.report(path, `duplicate ${what} name "${name}" (first used at line ${earlierAt.line})`, {
      expected: `a ${what} name used once in the file`,
      example: `name: ${name}-2`,
      received: { value: name },
    });
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────────

  private requests(raw: readonly RawRequest[]): RequestSpec[] {
    const first = new Map<string, number>();
    return raw.map((request, index) => {
      const path = ["requests", index];
      this.checkUnique(first, request.name, index, [...path, "name"], "request", (i) => ["requests", i, "name"]);
      return this.request(request, path);
    });
  }

  private request(raw: RawRequest, path: Path): RequestSpec {
    const mode: RequestMode = raw.exec !== undefined ? "exec" : raw.raw !== undefined ? "raw" : "http";
    this.checkMode(raw, mode, path);
    if (!RESERVED_CLIENT_NAMES.includes(raw.client) && !this.clientNames.has(raw.client)) {
      const declared = [...this.clientNames];
      this.report([...path, "client"], `unknown client "${raw.client}"`, {
        expected: `${RESERVED_CLIENT_NAMES.join(", ")}${declared.length > 0 ? `, or a declared client: ${declared.join(", ")}` : " (no clients are declared)"}`,
        example: `clients: [{ name: ${raw.client} }]   # then: client: ${raw.client}`,
        received: { value: raw.client },
      });
    }
    if (raw.clientCertificate !== undefined && !raw.tls && mode !== "exec") {
      this.report([...path, "clientCertificate"], "a client certificate needs tls: true", {
        expected: "tls: true on the same request",
        example: "{ name: with-cert, path: /, tls: true, clientCertificate: valid }",
        received: { value: raw.clientCertificate },
      });
    }
    if (raw.path !== undefined) {
      this.checkVariables(raw.path, [...path, "path"]);
      if (/\s/.test(raw.path)) {
        this.report([...path, "path"], "the path contains white space", {
          expected: "a request target without spaces or line breaks (send malformed request lines with raw:)",
          example: 'raw: "GET /a b HTTP/1.0\\r\\n\\r\\n"',
          received: { value: raw.path },
        });
      }
    }
    if (raw.host !== undefined) this.checkVariables(raw.host, [...path, "host"]);
    if (raw.body !== undefined) this.checkVariables(raw.body, [...path, "body"]);
    if (raw.raw !== undefined) this.checkVariables(raw.raw, [...path, "raw"]);
    if (raw.exec !== undefined) this.checkVariables(raw.exec, [...path, "exec"]);
    const headers = raw.headers.map((line, index): [string, string] => {
      this.checkVariables(line, [...path, "headers", index]);
      const colon = line.indexOf(":");
      const value = line.slice(colon + 1).trim();
      if (/[\r\n]/.test(value)) {
        this.report([...path, "headers", index], "a header value contains a line break", {
          expected: '"Name: value" on one line (send folded or broken headers with raw:)',
          example: 'headers: ["X-Test: 1"]',
          received: { value: line },
        });
      }
      return [line.slice(0, colon), value];
    });
    const expectation = (value: RawResponseExpectation, at: Path) => this.responseExpectation(value, at, mode, raw.keepAlive);
    return {
      at: this.at(path),
      name: raw.name,
      client: raw.client,
      mode,
      method: raw.method,
      path: raw.path ?? "",
      host: raw.host ?? null,
      port: null,
      headers,
      body: raw.body ?? null,
      auth: raw.auth === undefined ? null : raw.auth.scheme === "digest" ? raw.auth : { user: raw.auth.user, password: raw.auth.password },
      tls: raw.tls,
      clientCertificate: raw.clientCertificate ?? null,
      httpVersion: raw.http === 1.1 || raw.http === "1.1" ? "1.1" : "1.0",
      raw: raw.raw ?? null,
      trickleMs: raw.trickleMs ?? null,
      exec: raw.exec ?? null,
      keepAliveRequests: raw.keepAlive,
      repeat: raw.repeat,
      timeoutMs: raw.timeoutMs,
      expect: this.byVersion(raw.expect, [...path, "expect"], expectation, mergeResponseExpectations),
      guide: this.byVersion(raw.guide, [...path, "guide"], expectation, mergeResponseExpectations),
    };
  }

  private checkMode(raw: RawRequest, mode: RequestMode, path: Path): void {
    const misplaced = (keys: readonly string[], why: string, expected: string, example: string): void => {
      for (const key of keys) {
        if (!this.written([...path, key])) continue;
        this.report([...path, key], `"${key}" ${why}`, {
          position: this.context.locator.keyPosition([...path, key]),
          expected,
          example,
          received: { value: (raw as Record<string, unknown>)[key] },
        });
      }
    };
    if (mode === "exec") {
      if (raw.raw !== undefined) misplaced(["raw"], "cannot be combined with exec", "either exec or raw in one request", 'exec: "htpasswd -nb user pass"');
      misplaced(
        NOT_IN_EXEC,
        "has no effect on an exec request (it runs a command in the server container)",
        "exec requests take name, exec, repeat, timeoutMs, expect, guide",
        '- { name: hash, exec: "htpasswd -nb user pass", expect: { "2.4": { stdout: "$apr1$" } } }',
      );
      if (raw.client !== "host") {
        this.report([...path, "client"], "an exec request runs in the server container; it has no client", {
          expected: "no client (or client: host)",
          example: '- { name: hash, exec: "htpasswd -nb user pass" }',
          received: { value: raw.client },
        });
      }
    } else if (mode === "raw") {
      misplaced(
        NOT_IN_RAW,
        "has no effect on a raw request (the raw bytes are the whole request)",
        "raw requests take name, client, raw, host (TLS SNI), tls, clientCertificate, trickleMs, repeat, timeoutMs, expect, guide",
        '- { name: http10, raw: "GET / HTTP/1.0\\r\\n\\r\\n" }',
      );
    } else {
      if (raw.path === undefined) {
        this.report(path, 'missing required key "path"', {
          expected: "path (an HTTP request), raw (bytes sent as they are) or exec (a command in the server container)",
          example: "- { name: home, path: / }",
        });
      }
      misplaced(
        ["trickleMs"],
        "only applies to raw requests",
        "raw: with trickleMs",
        '- { name: slow, raw: "GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", trickleMs: 500 }',
      );
    }
  }

  private responseExpectation(raw: RawResponseExpectation, path: Path, mode: RequestMode, keepAlive: number): ResponseExpectation {
    const fieldsFor = mode === "exec" ? RESPONSE_ONLY_FIELDS : EXEC_ONLY_FIELDS;
    for (const key of fieldsFor) {
      if (raw[key] === undefined) continue;
      this.report([...path, key], mode === "exec" ? `"${key}" does not apply to an exec request` : `"${key}" only applies to exec requests`, {
        position: this.context.locator.keyPosition([...path, key]),
        expected:
          mode === "exec"
            ? "exitCode, stdout, errorLog, noErrorLog, errorLogEmpty"
            : "status, headers, body, errorLog, noErrorLog, errorLogEmpty, transportError, connectionReused",
        example: mode === "exec" ? 'expect: { "2.4": { exitCode: 0, stdout: "$apr1$" } }' : 'expect: { "2.4": { status: 403 } }',
        received: { value: raw[key] },
      });
    }
    if (raw.connectionReused !== undefined && mode === "http" && keepAlive < 2) {
      this.report([...path, "connectionReused"], "connectionReused needs keepAlive: 2 or more on the request", {
        expected: "keepAlive: 2 (or more) next to it",
        example: "- { name: reuse, path: /, keepAlive: 2, expect: { both: { connectionReused: true } } }",
        received: { value: raw.connectionReused },
      });
    }
    const headers: HeaderExpectation[] = [];
    for (const [name, value] of Object.entries(raw.headers ?? {})) {
      const headerPath = [...path, "headers", name];
      if (headers.some((header) => header.name.toLowerCase() === name.toLowerCase())) {
        this.report(headerPath, `header "${name}" is listed twice (header names ignore case)`, {
          position: this.context.locator.keyPosition(headerPath),
          expected: "each header name once",
          example: 'headers: { ETag: "/^\\"/" }',
        });
      }
      if (typeof value === "object" && "absent" in value) headers.push({ name, absent: value.absent });
      else headers.push({ name, value: this.matcher(value, headerPath) });
    }
    const expectation: ResponseExpectation = {
      at: this.at(path),
      headers,
      errorLog: (raw.errorLog ?? []).map((line, index) => this.errorLogMatcher(line, [...path, "errorLog", index])),
      noErrorLog: (raw.noErrorLog ?? []).map((line, index) => this.errorLogMatcher(line, [...path, "noErrorLog", index])),
    };
    if (raw.status !== undefined) expectation.status = raw.status;
    if (raw.body !== undefined) expectation.body = this.matcher(raw.body, [...path, "body"]);
    if (raw.errorLogEmpty !== undefined) expectation.errorLogEmpty = raw.errorLogEmpty;
    if (raw.transportError !== undefined) expectation.transportError = this.matcher(raw.transportError, [...path, "transportError"]);
    if (raw.connectionReused !== undefined) expectation.connectionReused = raw.connectionReused;
    if (raw.exitCode !== undefined) expectation.exitCode = raw.exitCode;
    if (raw.stdout !== undefined) expectation.stdout = this.matcher(raw.stdout, [...path, "stdout"]);
    return expectation;
  }

  private errorLogMatcher(raw: RawErrorLogMatcher, path: Path): ErrorLogMatcher {
    const matcher: ErrorLogMatcher = { at: this.at(path) };
    if (raw.code === undefined && raw.level === undefined && raw.module === undefined && raw.message === undefined) {
      this.report(path, "an error-log matcher needs at least one of code, level, module, message", {
        expected: "a map with code, level, module and/or message",
        example: '{ code: AH01797, message: "client denied" }',
        received: { value: raw },
      });
    }
    if (raw.code !== undefined) matcher.code = raw.code;
    if (raw.level !== undefined) matcher.level = raw.level;
    if (raw.module !== undefined) matcher.module = raw.module;
    if (raw.message !== undefined) matcher.message = this.matcher(raw.message, [...path, "message"]);
    return matcher;
  }

  private serverExpectation(raw: RawServerExpectation, path: Path): ServerExpectation {
    const expectation: ServerExpectation = {
      at: this.at(path),
      configTestMessages: [],
      startupLog: (raw.startupLog ?? []).map((line, index) => this.errorLogMatcher(line, [...path, "startupLog", index])),
      noStartupLog: (raw.noStartupLog ?? []).map((line, index) => this.errorLogMatcher(line, [...path, "noStartupLog", index])),
    };
    const configTest = raw.configTest;
    if (configTest === "ok" || configTest === "failed") {
      expectation.configTestOk = configTest === "ok";
    } else if (configTest !== undefined) {
      if (configTest.ok !== undefined) expectation.configTestOk = configTest.ok;
      expectation.configTestMessages = (configTest.messages ?? []).map((message, index) =>
        this.matcher(message, [...path, "configTest", "messages", index]),
      );
    }
    if (raw.started !== undefined) expectation.started = raw.started;
    return expectation;
  }

  // ── predictions ──────────────────────────────────────────────────────────────────────────────────────

  private predicted(raw: ScenarioFile["predicted"], requestNames: ReadonlySet<string>): Scenario["predicted"] {
    return raw.map((prediction, index) => {
      const path = ["predicted", index];
      this.checkSeedIds(prediction.seed, [...path, "seed"]);
      const field = canonicalField(prediction.field);
      if (prediction.request !== undefined && SERVER_LEVEL_FIELDS.includes(field)) {
        this.report([...path, "request"], `"${field}" is a server-level field; it belongs to no request`, {
          position: this.context.locator.keyPosition([...path, "request"]),
          expected: "no request key for configTest, started, startupLog, missingModules",
          example: "- { field: configTest, seed: [X3] }",
          received: { value: prediction.request },
        });
      } else if (prediction.request !== undefined && !requestNames.has(prediction.request)) {
        this.report([...path, "request"], `no request is named "${prediction.request}"`, {
          expected: requestNames.size > 0 ? `one of: ${[...requestNames].join(", ")}` : "a request name (this scenario has no requests)",
          example: "- { field: status, request: status, seed: [D5] }",
          received: { value: prediction.request },
        });
      }
      return { at: this.at(path), field, request: prediction.request ?? null, seed: prediction.seed };
    });
  }
}

/** `transport` is the format's first name for what the diff calls `outcome`. */
function canonicalField(field: string): string {
  return field === "transport" ? "outcome" : field;
}

function withoutPosition<T extends { position?: SourcePosition }>(details: T): Omit<T, "position"> {
  const { position: _position, ...rest } = details;
  return rest;
}

function filePathProblem(path: string): string | null {
  if (path === "") return "is empty";
  if (path.startsWith("/")) return "is absolute";
  if (path.includes("\\")) return "contains a backslash";
  if (path.endsWith("/")) return "ends with /";
  if (path.split("/").some((part) => part === ".." || part === "." || part === "")) return "has an empty, . or .. segment";
  return null;
}

/** Both applies to each version; a version's own expectation adds to it (lists) and overrides it (single
 * values). `own` undefined: only `both` was given. */
export function mergeResponseExpectations(both: ResponseExpectation, own: ResponseExpectation | undefined): ResponseExpectation {
  if (own === undefined) return { ...both, headers: [...both.headers], errorLog: [...both.errorLog], noErrorLog: [...both.noErrorLog] };
  const ownHeaders = new Set(own.headers.map((header) => header.name.toLowerCase()));
  return {
    ...both,
    ...own,
    headers: [...both.headers.filter((header) => !ownHeaders.has(header.name.toLowerCase())), ...own.headers],
    errorLog: [...both.errorLog, ...own.errorLog],
    noErrorLog: [...both.noErrorLog, ...own.noErrorLog],
  };
}

export function mergeServerExpectations(both: ServerExpectation, own: ServerExpectation | undefined): ServerExpectation {
  if (own === undefined) {
    return { ...both, configTestMessages: [...both.configTestMessages], startupLog: [...both.startupLog], noStartupLog: [...both.noStartupLog] };
  }
  return {
    ...both,
    ...own,
    configTestMessages: [...both.configTestMessages, ...own.configTestMessages],
    startupLog: [...both.startupLog, ...own.startupLog],
    noStartupLog: [...both.noStartupLog, ...own.noStartupLog],
  };
}
