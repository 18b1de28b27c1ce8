// The raw shape of a scenario file, as written in YAML. Defaults live here (single source for the loader and for
// the JSON Schema that editors read); meaning (seed ids exist, clients are declared, variables resolve, regular
// expressions compile, request modes do not mix) is checked afterwards by build-scenario.ts.
// scripts/write-scenario-schema.ts turns this into schema/scenario.schema.json.
import { LAYOUTS } from "../conf/effective-config.ts";
import { z } from "zod";
import { LOG_LEVELS } from "../logs/error-log-record.ts";
import { CERTIFICATE_KINDS } from "./certificate-kinds.ts";

export const SCENARIO_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Names of clients and backends: they appear in variables such as {{clients.NAME.ip}}. */
export const RESOURCE_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
export const REQUEST_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const SEED_ID_PATTERN = /^[A-Z][0-9]+$/;
export const MODULE_NAME_PATTERN = /^[a-z0-9_]+$/;
/** RFC 9110 token: header names and methods. */
export const TOKEN_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const HEADER_LINE_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;
export const ERROR_CODE_PATTERN = /^AH[0-9]{5}$/;
/** Fields a difference can be predicted on (request level first, then server level). */
/** Request-level fields: what diff/observed-fields.ts compares per request ("outcome" is the kind of answer,
 * "transport-error CODE" for failures; "transport" is accepted as the name the format used first). */
export const PREDICTED_FIELD_PATTERN =
  /^(?:status|body|errorLog|transport|outcome|exec|httpVersion|configTest|started|startupLog|trailingLog|missingModules|header:[!#$%&'*+.^_`|~0-9A-Za-z-]+)$/;
export const SERVER_LEVEL_FIELDS: readonly string[] = ["configTest", "started", "startupLog", "trailingLog", "missingModules"];
export const IGNORE_FIELD_PATTERN = /^(?:status|body|errorLog|transport|outcome|exec|httpVersion|trailingLog|header:[!#$%&'*+.^_`|~0-9A-Za-z-]+)$/;
export { CERTIFICATE_KINDS };
export const BACKEND_KINDS = ["http-origin", "https-origin", "scgi-origin", "forward-proxy-target"] as const;

const TEXT_MATCHER_EXPECTED =
  'a text matcher: a string (substring), "/regex/flags", { equals: "..." }, { contains: "..." } or { matches: "regex", flags: "i" }';

/** One value for both versions, or one per version: { "2.2": ..., "2.4": ... }. */
function perFamily<T extends z.ZodType>(schema: T, expected: string) {
  return z.union([schema, z.strictObject({ "2.2": schema.optional(), "2.4": schema.optional() })], {
    error: `${expected}, or one per version: { "2.2": ..., "2.4": ... }`,
  });
}

export const textMatcherSchema = z
  .union(
    [
      z.string(),
      z.strictObject({ equals: z.string() }),
      z.strictObject({ contains: z.string() }),
      z.strictObject({ matches: z.string(), flags: z.string().regex(/^[dimsuv]*$/).optional() }),
    ],
    { error: TEXT_MATCHER_EXPECTED },
  )
  .meta({
    id: "TextMatcher",
    description:
      'A plain string matches as a substring; "/re/flags" as a regular expression; or an explicit { equals }, { contains }, { matches, flags }.',
  });

export const errorLogMatcherSchema = z
  .strictObject({
    code: z.string().regex(ERROR_CODE_PATTERN).optional().meta({ description: "2.4 error code, e.g. AH01797" }),
    level: z.enum(LOG_LEVELS).optional(),
    module: z.string().regex(MODULE_NAME_PATTERN).optional().meta({ description: "as the log writes it: authz_core" }),
    message: textMatcherSchema.optional(),
  })
  .meta({ id: "ErrorLogMatcher", description: "An error-log line: every given field must match." });

const headerExpectationSchema = z.union([textMatcherSchema, z.strictObject({ absent: z.boolean() })], {
  error: `${TEXT_MATCHER_EXPECTED}, or { absent: true }`,
});

export const responseExpectationSchema = z
  .strictObject({
  status: z.int().min(100).max(599).optional(),
  headers: z
    .record(z.string().regex(TOKEN_PATTERN), headerExpectationSchema)
    .optional()
    .meta({ description: "Header name -> text matcher, or { absent: true }." }),
  body: textMatcherSchema.optional(),
  errorLog: z.array(errorLogMatcherSchema).optional().meta({ description: "Lines that must be logged." }),
  noErrorLog: z.array(errorLogMatcherSchema).optional().meta({ description: "Lines that must not be logged." }),
  errorLogEmpty: z.boolean().optional(),
  transportError: textMatcherSchema.optional().meta({ description: "ECONNRESET, TIMEOUT, ..." }),
  connectionReused: z.boolean().optional(),
  exitCode: z.int().min(0).max(255).optional(),
  stdout: textMatcherSchema.optional(),
  })
  .meta({ id: "ResponseExpectation", description: "What one version's answer to a request must look like." });

export const serverExpectationSchema = z
  .strictObject({
  configTest: z
    .union(
      [
        z.enum(["ok", "failed"]),
        z.strictObject({ ok: z.boolean().optional(), messages: z.array(textMatcherSchema).optional() }),
      ],
      { error: "ok, failed, or { ok: false, messages: [...] }" },
    )
    .optional(),
  started: z.boolean().optional(),
  startupLog: z.array(errorLogMatcherSchema).optional(),
  noStartupLog: z.array(errorLogMatcherSchema).optional(),
  })
  .meta({ id: "ServerExpectation", description: "What one version's config test and start-up must look like." });

/** A version-range key inside a family: ">=2.4.63", "<2.4.63", "2.4.62", ">=2.4.60 <2.4.63", or "default". */
export const VERSION_RANGE_KEY_PATTERN = /^(?:default|(?:(?:>=|<=|>|<|=)?\d+\.\d+\.\d+)(?: +(?:>=|<=|>|<|=)?\d+\.\d+\.\d+)*)$/;

/** A family's statements by version range. */
function versionRanges<T extends z.ZodType>(schema: T) {
  return z.record(z.string().regex(VERSION_RANGE_KEY_PATTERN), schema);
}

/** One family's statement: a single expectation, or one per version range where patch levels differ. */
function rangedExpectation<T extends z.ZodType>(schema: T) {
  const ranged = versionRanges(schema)
    .refine((value) => Object.keys(value).length > 0, { error: "at least one version range" })
    .meta({ description: 'Per patch level: { ">=2.4.63": {...}, default: {...} }; the first range holding the version wins.' });
  return z.union([schema, ranged]);
}

function byVersion<T extends z.ZodType>(schema: T) {
  return z
    .strictObject({ "2.2": rangedExpectation(schema).optional(), "2.4": rangedExpectation(schema).optional(), both: schema.optional() })
    .meta({
      description:
        'Per version: "2.2", "2.4", or both (applies to each; a version key adds to it). A version key may hold ranges: { ">=2.4.63": {...}, default: {...} }.',
    });
}

const fileEntrySchema = z
  .union(
  [
    z.string(),
    z.strictObject({
      content: z.string(),
      mode: z
        .union([z.string().regex(/^(?:0o?)?[0-7]{3,4}$/), z.int()])
        .optional()
        .meta({ description: 'Octal, e.g. "0755" [0644].' }),
    }),
  ],
  { error: 'the file content as a string, or { content: "...", mode: "0755" }' },
  )
  .meta({ id: "FileEntry", description: 'The content, or { content, mode } with an octal mode ["0644"].' });

const filesSchema = z
  .record(z.string(), fileEntrySchema)
  .default({})
  .meta({ description: "Path relative to the root -> content, or { content, mode }." });

const serverTlsSchema = z.union(
  [
    z.boolean(),
    z.strictObject({
      certificate: z.enum(CERTIFICATE_KINDS).default("valid"),
      clientCa: z.boolean().default(false),
      crl: z.boolean().default(false),
      subject: z
        .string()
        .optional()
        .meta({
          description:
            'The server certificate\'s subject in OpenSSL\'s form, most significant part first, e.g. "/C=DE/O=Example, Inc./OU=Web/CN=server.test" (types C, ST, L, O, OU, CN, title, serialNumber, GN, SN, emailAddress, DC; \\ escapes / and \\) [CN=server]. The SAN stays the server\'s DNS name.',
        }),
    }),
  ],
  { error: 'true, false, or { certificate: valid, clientCa: false, crl: false, subject: "/CN=..." }' },
);

/** An operator's configuration tree instead of inline config text (docs/config-input.md). */
function treeConfigSchema() {
  return z
    .strictObject({
      tree: z.string().min(1).meta({ description: "A directory (such as a copy of /etc/apache2) or one config file, relative to the scenario file." }),
      candidate: z.string().min(1).optional().meta({ description: "The operator's own 2.4 port of the tree, run on the candidate instead of `tree`." }),
      layout: z.enum(LAYOUTS).optional().meta({ description: "official, debian, rhel or fragment; recognised from the tree when not given." }),
      defines: z.array(z.string().min(1)).default([]).meta({ description: "Names defined as httpd's -D NAME does." }),
      world: z.enum(["probes"]).optional().meta({
        description:
          "probes: stage the probe world prove generates from the trees on both sides (its users in every auth store, an object with a marker behind every path it probes), so that a request for one of its paths is judged by what came back (executed, served, source served, denied, ...).",
      }),
    })
    .meta({ id: "TreeConfig", description: "Run a configuration tree of the operator's on both versions." });
}

export const serverSchema = z.strictObject({
  base: z.enum(["minimal", "stock", "none"]).default("minimal"),
  modules: perFamily(z.array(z.string().regex(MODULE_NAME_PATTERN)), "a list of module names").default([]),
  omitModules: perFamily(z.array(z.string().regex(MODULE_NAME_PATTERN)), "a list of module names").default([]),
  logLevel: z.string().default("warn"),
  config: z
    .union([perFamily(z.string(), "a string"), treeConfigSchema()], {
      error: 'a string, one per version ({ "2.2": ..., "2.4": ... }), or a configuration tree: { tree: PATH, candidate: PATH, layout: debian, defines: [SSL] }',
    })
    .default(""),
  files: filesSchema,
  prepare: perFamily(z.array(z.string()), "a list of shell commands").default([]),
  tls: serverTlsSchema.optional(),
});

export const backendSchema = z.strictObject({
  name: z.string().regex(RESOURCE_NAME_PATTERN),
  kind: z.enum(BACKEND_KINDS).default("http-origin"),
  certificate: z.enum(CERTIFICATE_KINDS).default("valid"),
  files: filesSchema,
});

// A client's DNS name is the one Docker's DNS gives its address ({{clients.NAME.hostname}}): `<container>.<network>`.
// A `domain` makes the harness name the container and its network so that the name is, or ends in, the one asked
// for; an `address` puts the client on a network whose subnet holds it (build-scenario.ts checks both).
export const clientSchema = z.strictObject({
  name: z
    .string()
    .regex(RESOURCE_NAME_PATTERN)
    .meta({ description: "Not host, localhost or localhost6: those clients are always there (build-scenario.ts rejects them here)." }),
  address: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        "A fixed IPv4 or IPv6 address the server sees for this client (not loopback: use client localhost/localhost6; not multicast). The harness makes a network whose subnet holds it (IPv4 /24, IPv6 /64). [the engine's choice]",
    }),
  domain: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        'The name the server finds for this client by reverse and forward DNS: a full name ("www.example.com") or a domain the name ends in (".example.com"), for Allow from .example.com and Require host. [<container>.<network>]',
    }),
});

export const requestSchema = z.strictObject({
  name: z.string().regex(REQUEST_NAME_PATTERN),
  client: z
    .string()
    .default("host")
    .meta({
      description:
        "host (the harness's machine, through the published port), localhost / localhost6 (from inside the server's own network namespace, to 127.0.0.1 / ::1), or a declared client.",
    }),
  method: z.string().regex(TOKEN_PATTERN).default("GET"),
  path: z.string().min(1).optional(),
  host: z.string().min(1).optional(),
  headers: z.array(z.string().regex(HEADER_LINE_PATTERN)).default([]),
  body: z.string().optional(),
  auth: z
    .strictObject({
      user: z.string(),
      password: z.string(),
      scheme: z.enum(["basic", "digest"]).default("basic").meta({ description: "basic, or digest: the client answers the server's Digest challenge (curl --digest)." }),
    })
    .optional(),
  tls: z.boolean().default(false),
  clientCertificate: z.enum(["valid", "revoked"]).optional(),
  http: z
    .union([z.enum(["1.1", "1.0"]), z.literal(1.1), z.literal(1)], { error: 'the HTTP version: "1.1" or "1.0"' })
    .default("1.1"),
  raw: z.string().min(1).optional(),
  trickleMs: z.int().min(1).max(60_000).optional(),
  exec: z.string().min(1).optional(),
  keepAlive: z.int().min(1).max(100).default(1),
  repeat: z.boolean().default(true),
  timeoutMs: z.int().min(1).max(600_000).default(10_000),
  expect: byVersion(responseExpectationSchema).default({}),
  guide: byVersion(responseExpectationSchema).default({}),
});

export const scenarioFileSchema = z
  .strictObject({
    id: z.string().regex(SCENARIO_ID_PATTERN),
    title: z.string().min(1),
    seed: z.array(z.string().regex(SEED_ID_PATTERN)).default([]),
    guide: z
      .strictObject({
        claim: z.string().optional(),
        notes: z.array(z.string()).default([]),
        "2.2": rangedExpectation(serverExpectationSchema).optional(),
        "2.4": rangedExpectation(serverExpectationSchema).optional(),
        both: serverExpectationSchema.optional(),
      })
      .optional(),
    server: serverSchema.prefault({}),
    backends: z.array(backendSchema).default([]),
    clients: z.array(clientSchema).default([]),
    requests: z.array(requestSchema).default([]),
    expect: byVersion(serverExpectationSchema).default({}),
    predicted: z
      .array(
        z.strictObject({
          field: z.string().regex(PREDICTED_FIELD_PATTERN),
          request: z.string().optional(),
          seed: z.array(z.string().regex(SEED_ID_PATTERN)).min(1),
        }),
      )
      .default([]),
    timeLimit: z
      .int()
      .min(1)
      .max(3600)
      .optional()
      .meta({ description: "Seconds the whole scenario may take on all sides (boot, requests, clean-up); past it the scenario is an error naming what was pending. Default: the run's --scenario-time-limit (300)." }),
    ignore: z
      .array(z.strictObject({ field: z.string().regex(IGNORE_FIELD_PATTERN), reason: z.string().min(1) }))
      .default([]),
  })
  .meta({
    title: "httpd-upgrade-harness scenario",
    description: "One scenario: a site configuration, requests, and what httpd 2.2 and 2.4 are expected to do.",
  });

/** A scenario file as written (before defaults). */
/** A scenario file after the schema: defaults applied, not yet checked for meaning. */
export type ScenarioFile = z.output<typeof scenarioFileSchema>;
export type RawTextMatcher = z.output<typeof textMatcherSchema>;
export type RawErrorLogMatcher = z.output<typeof errorLogMatcherSchema>;
export type RawResponseExpectation = z.output<typeof responseExpectationSchema>;
export type RawServerExpectation = z.output<typeof serverExpectationSchema>;
export type RawRequest = z.output<typeof requestSchema>;

/** The JSON Schema (draft 2020-12) of the file format, as committed in schema/scenario.schema.json. It describes
 * the file as written (io: "input"), so keys with defaults are optional and carry their default. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(scenarioFileSchema, { target: "draft-2020-12", io: "input" });
}

/** The exact text of schema/scenario.schema.json. */
export function scenarioJsonSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}

/** For error reporting: a value whose keys are all version ranges is checked against these alone, since zod's
 * union keeps only the single-expectation branch's "unknown key" when the ranges' values are wrong. */
export const RANGES_SCHEMAS = {
  response: versionRanges(responseExpectationSchema),
  server: versionRanges(serverExpectationSchema),
};
