import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative as relativePath } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { loadScenarioFile, loadScenarios, parseScenario } from "../../../harness/scenario/load-scenario.ts";
import { forFamily, type Scenario } from "../../../harness/scenario/scenario.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/scenarios/", import.meta.url));
const FULL = join(FIXTURES, "full.scenario.yaml");
const FILE = "t.scenario.yaml";

function at(line: number, column: number, file = FILE) {
  return { file, line, column };
}

/** The HarnessError parseScenario throws for `text`. */
function parseError(text: string): HarnessError {
  try {
    parseScenario(text, FILE);
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected parseScenario to throw");
}

/** The HarnessError a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("parseScenario: a complete file", () => {
  let scenario: Scenario;
  beforeEach(async () => {
    scenario = await loadScenarioFile(FULL);
  });

  it("keeps the top-level values and the root position", () => {
    expect(scenario.file).toBe(FULL);
    expect(scenario.at).toEqual(at(3, 1, FULL));
    expect(scenario.id).toBe("server-status-directory-deny");
    expect(scenario.seed).toEqual(["A6", "T1"]);
    expect(scenario.guideClaim).toBe("2.4 answers 403 and logs AH01797 with the filesystem path");
    expect(scenario.guideNotes).toEqual(["real 2.4 logs it from access_compat"]);
    expect(scenario.guide).toEqual({
      "2.4": { ranges: [], otherwise: { at: at(9, 10, FULL), configTestOk: true, configTestMessages: [], startupLog: [], noStartupLog: [] } },
    });
  });

  it("builds the server: per-version modules and prepare, files with octal modes, tls defaults", () => {
    const { server } = scenario;
    expect(server.at).toEqual(at(11, 3, FULL));
    expect(server.base).toBe("minimal");
    expect(server.modules).toEqual({ perFamily: { "2.2": ["status"], "2.4": ["status", "access_compat"] } });
    expect(server.omitModules).toEqual({ both: ["autoindex"] });
    expect(server.logLevel).toBe("info ssl:warn");
    expect(forFamily(server.config, "2.4")).toContain("Require ip {{clients.host.ip}} {{clients.allowed.ip}}\n");
    expect(server.files).toEqual([
      { path: "htdocs/index.html", content: "<h1>It works</h1>", mode: 0o644 },
      { path: "cgi-bin/hello", content: "#!/bin/sh\necho hello\n", mode: 0o755 },
    ]);
    // A version missing from a per-version value gets the default, so forFamily never returns undefined.
    expect(server.prepare).toEqual({ perFamily: { "2.2": [], "2.4": ["htpasswd -bc {{server.root}}/conf/passwd alice secret"] } });
    expect(server.tls).toEqual({
      certificate: "valid",
      clientCa: true,
      crl: false,
      subject: [
        { attribute: "C", value: "DE" },
        { attribute: "O", value: "Example, Inc." },
        { attribute: "CN", value: "server.test" },
      ],
    });
  });

  it("builds backends and clients with their positions", () => {
    expect(scenario.backends).toEqual([
      {
        at: at(32, 5, FULL),
        name: "backend",
        kind: "https-origin",
        certificate: "expired",
        files: [{ path: "index.html", content: "hello from backend", mode: 0o644 }],
      },
    ]);
    expect(scenario.clients).toEqual([
      { at: at(34, 5, FULL), name: "allowed", address: null, domain: null },
      { at: at(35, 5, FULL), name: "denied", address: null, domain: null },
    ]);
  });

  it("merges `both` into each version: lists add up, a version's own values win", () => {
    const [status] = scenario.requests;
    // One statement per family, no version ranges.
    expect([status?.expect["2.2"]?.ranges, status?.expect["2.4"]?.ranges]).toEqual([[], []]);
    expect(status?.expect["2.2"]?.otherwise).toEqual({
      at: at(44, 9, FULL),
      status: 403,
      headers: [{ name: "Server", value: { kind: "contains", value: "Apache" } }],
      errorLog: [
        {
          at: at(44, 20, FULL),
          message: { kind: "contains", value: "client denied by server configuration: /usr/local/apache2/htdocs/server-status" },
        },
      ],
      noErrorLog: [],
    });
    expect(status?.expect["2.4"]?.otherwise).toEqual({
      at: at(46, 9, FULL),
      status: 403,
      headers: [
        { name: "ETag", absent: true },
        { name: "Server", value: { kind: "equals", value: "Apache" } },
      ],
      errorLog: [
        {
          at: at(46, 20, FULL),
          code: "AH01797",
          module: "access_compat",
          level: "error",
          message: { kind: "matches", pattern: "client denied .*htdocs\\/server-status", flags: "" },
        },
      ],
      noErrorLog: [{ at: at(47, 22, FULL), code: "AH01630" }],
    });
    expect(status?.guide).toEqual({ "2.4": { ranges: [], otherwise: { at: at(49, 21, FULL), status: 403, headers: [], errorLog: [], noErrorLog: [] } } });
  });

  it("reads an http request with every option", () => {
    const request = scenario.requests[1];
    expect(request).toMatchObject({
      at: at(50, 5, FULL),
      name: "from-denied",
      client: "denied",
      mode: "http",
      method: "POST",
      path: "/form",
      body: "a=1",
      auth: { user: "alice", password: "secret" },
      tls: true,
      clientCertificate: "valid",
      httpVersion: "1.0",
      keepAliveRequests: 2,
      repeat: false,
      timeoutMs: 5000,
    });
    expect(scenario.requests[0]?.headers).toEqual([
      ["Accept-Encoding", "gzip"],
      ["X-Dup", "1"],
      ["X-Dup", "2"],
    ]);
    expect(scenario.requests[0]?.host).toBe("www.example.com");
  });

  it("reads raw and exec requests, with YAML escapes applied to raw bytes", () => {
    const [, , raw, exec] = scenario.requests;
    expect(raw).toMatchObject({
      mode: "raw",
      raw: "GET / HTTP/1.0\r\nHost: {{backends.backend.host}}\r\n\r\n",
      trickleMs: 500,
      path: "",
    });
    expect(raw?.expect["2.4"]?.otherwise).toMatchObject({
      transportError: { kind: "contains", value: "ECONNRESET" },
      body: { kind: "matches", pattern: "^<h1>", flags: "i" },
    });
    expect(exec).toMatchObject({ mode: "exec", exec: "htpasswd -nb user pass", client: "host" });
    expect(exec?.expect["2.4"]?.otherwise).toMatchObject({ exitCode: 0, stdout: { kind: "matches", pattern: "\\$apr1\\$", flags: "" } });
  });

  it("reads server expectations in short and long form", () => {
    expect(scenario.expect["2.2"]?.otherwise).toEqual({
      at: at(74, 10, FULL),
      configTestOk: true,
      configTestMessages: [],
      started: true,
      startupLog: [],
      noStartupLog: [],
    });
    expect(scenario.expect["2.4"]?.otherwise).toEqual({
      at: at(76, 5, FULL),
      configTestOk: true,
      configTestMessages: [{ kind: "contains", value: "Syntax OK" }],
      startupLog: [{ at: at(77, 18, FULL), level: "notice", message: { kind: "contains", value: "resuming normal operations" } }],
      noStartupLog: [{ at: at(78, 20, FULL), level: "error" }],
    });
  });

  it("reads predictions and ignore rules; `transport` is stored as the diff's `outcome`", () => {
    expect(scenario.predicted).toEqual([
      { at: at(80, 5, FULL), field: "status", request: "status", seed: ["D5"] },
      { at: at(81, 5, FULL), field: "configTest", request: null, seed: ["X3"] },
    ]);
    expect(scenario.ignore).toEqual([
      { at: at(83, 5, FULL), field: "header:Server", reason: "version banner" },
      { at: at(84, 5, FULL), field: "outcome", reason: "timing" },
    ]);
  });
});

describe("parseScenario: defaults", () => {
  it("fills in every default of a minimal file", () => {
    const scenario = parseScenario("id: minimal\ntitle: Minimal\nrequests:\n  - name: home\n    path: /\n", FILE);
    expect(scenario).toMatchObject({
      seed: [],
      guideClaim: null,
      guideNotes: [],
      backends: [],
      clients: [],
      expect: {},
      guide: {},
      predicted: [],
      ignore: [],
    });
    expect(scenario.server).toEqual({
      at: at(1, 1),
      base: "minimal",
      modules: { both: [] },
      omitModules: { both: [] },
      config: { both: "" },
      files: [],
      logLevel: "warn",
      prepare: { both: [] },
      tls: null,
      tree: null,
    });
    expect(scenario.requests).toEqual([
      {
        at: at(4, 5),
        name: "home",
        client: "host",
        mode: "http",
        method: "GET",
        path: "/",
        host: null,
        port: null,
        headers: [],
        body: null,
        auth: null,
        tls: false,
        clientCertificate: null,
        httpVersion: "1.1",
        raw: null,
        trickleMs: null,
        exec: null,
        keepAliveRequests: 1,
        repeat: true,
        timeoutMs: 10_000,
        expect: {},
        guide: {},
      },
    ]);
  });

  it("reads `tls: true` as a valid certificate without client CA or CRL", () => {
    const scenario = parseScenario("id: t\ntitle: T\nserver: { tls: true }\n", FILE);
    expect(scenario.server.tls).toEqual({ certificate: "valid", clientCa: false, crl: false, subject: null });
  });

  it("accepts unquoted version keys and an unquoted http version", () => {
    const scenario = parseScenario(
      "id: t\ntitle: T\nserver:\n  config:\n    2.2: Order allow,deny\n    2.4: Require all granted\nrequests:\n  - { name: a, path: /, http: 1.0 }\n",
      FILE,
    );
    expect(scenario.server.config).toEqual({ perFamily: { "2.2": "Order allow,deny", "2.4": "Require all granted" } });
    expect(scenario.requests[0]?.httpVersion).toBe("1.0");
  });

  it("gives only `both` to each version when no version key is present", () => {
    const scenario = parseScenario("id: t\ntitle: T\nrequests:\n  - name: a\n    path: /\n    expect: { both: { status: 200 } }\n", FILE);
    expect(scenario.requests[0]?.expect).toEqual({
      "2.2": { ranges: [], otherwise: { at: at(6, 21), status: 200, headers: [], errorLog: [], noErrorLog: [] } },
      "2.4": { ranges: [], otherwise: { at: at(6, 21), status: 200, headers: [], errorLog: [], noErrorLog: [] } },
    });
  });

  it.each([
    ['"0644"', 0o644],
    ["0755", 0o755],
    ["0o700", 0o700],
    ['"600"', 0o600],
  ])("reads file mode %s as octal", (written, mode) => {
    const scenario = parseScenario(`id: t\ntitle: T\nserver:\n  files:\n    a.sh: { content: x, mode: ${written} }\n`, FILE);
    expect(scenario.server.files[0]?.mode).toBe(mode);
  });
});

describe("parseScenario: version ranges", () => {
  const RANGED = [
    "id: t",
    "title: T",
    "requests:",
    "  - name: a",
    "    path: /",
    "    expect:",
    "      both: { headers: { Server: Apache } }",
    '      "2.2": { status: 403 }',
    '      "2.4":',
    '        ">=2.4.63": { status: 200 }',
    '        ">=2.4.60 <2.4.63": { status: 500, errorLog: [{ code: AH01084 }] }',
    "        default: { status: 403 }",
    "expect:",
    '  both: { configTest: ok }',
    '  "2.4": { "2.4.62": { started: false }, default: { started: true } }',
    "",
  ].join("\n");
  const server = { name: "Server", value: { kind: "contains", value: "Apache" } };

  it("loads a family's ranges in the order written, `both` merged into each range and into the default", () => {
    const scenario = parseScenario(RANGED, FILE);
    const expectation = scenario.requests[0]!.expect;
    expect(expectation["2.2"]).toEqual({ ranges: [], otherwise: { at: at(8, 14), status: 403, headers: [server], errorLog: [], noErrorLog: [] } });
    expect(expectation["2.4"]).toEqual({
      ranges: [
        {
          range: { text: ">=2.4.63", bounds: [{ op: ">=", major: 2, minor: 4, patch: 63 }] },
          value: { at: at(10, 21), status: 200, headers: [server], errorLog: [], noErrorLog: [] },
        },
        {
          range: {
            text: ">=2.4.60 <2.4.63",
            bounds: [
              { op: ">=", major: 2, minor: 4, patch: 60 },
              { op: "<", major: 2, minor: 4, patch: 63 },
            ],
          },
          value: { at: at(11, 29), status: 500, headers: [server], errorLog: [{ at: at(11, 55), code: "AH01084" }], noErrorLog: [] },
        },
      ],
      otherwise: { at: at(12, 18), status: 403, headers: [server], errorLog: [], noErrorLog: [] },
    });
  });

  it("loads ranged server expectations the same way, a bare version being a range of one", () => {
    const scenario = parseScenario(RANGED, FILE);
    expect(scenario.expect["2.2"]).toEqual({ ranges: [], otherwise: expect.objectContaining({ configTestOk: true }) });
    expect(scenario.expect["2.4"]).toEqual({
      ranges: [{ range: { text: "2.4.62", bounds: [{ op: "=", major: 2, minor: 4, patch: 62 }] }, value: expect.objectContaining({ configTestOk: true, started: false }) }],
      otherwise: expect.objectContaining({ configTestOk: true, started: true }),
    });
  });

  it("states `both` alone for versions no range holds when a ranged family has no default", () => {
    const text = ["id: t", "title: T", "expect:", "  both: { configTest: ok }", '  "2.4": { ">=2.4.63": { started: false } }', ""].join("\n");
    const ranged = parseScenario(text, FILE).expect["2.4"];
    expect(ranged?.ranges.map((r) => [r.range.text, r.value.configTestOk, r.value.started])).toEqual([[">=2.4.63", true, false]]);
    expect(ranged?.otherwise).toMatchObject({ configTestOk: true });
    expect(ranged?.otherwise?.started).toBeUndefined();
    const alone = parseScenario(["id: t", "title: T", "expect:", '  "2.4": { ">=2.4.63": { started: false } }', ""].join("\n"), FILE).expect["2.4"];
    expect(alone?.otherwise).toBeUndefined();
  });

  it("reports a range of another family at its key, with file:line:column", () => {
    const text = ["id: t", "title: T", "requests:", "  - name: a", "    path: /", "    expect:", '      "2.4": { ">=2.2.1": { status: 200 }, default: { status: 403 } }', ""].join("\n");
    const error = parseError(text);
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(7, 16));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:7:16: requests[0].expect["2.4"][">=2.2.1"]: ">=2.2.1" is not a version range of httpd 2.4
        expected: a range of 2.4 versions such as ">=2.4.63", "<2.4.63", "2.4.62", or default
        example:  "2.4": { ">=2.4.63": { status: 200 }, default: { status: 500 } }"
    `);
  });

  it("reports a range that leaves the family partway, in a server expectation and in the guide", () => {
    const text = ["id: t", "title: T", "expect:", '  "2.2": { ">=2.2.30 <2.4.1": { started: true } }', "guide:", '  "2.4": { "2.2.34": { started: true } }', ""].join("\n");
    const error = parseError(text);
    expect(error.message).toMatch(/^t\.scenario\.yaml: 2 problems/);
    expect(error.message).toContain('4:12 expect["2.2"][">=2.2.30 <2.4.1"]: ">=2.2.30 <2.4.1" is not a version range of httpd 2.2');
    expect(error.message).toContain('6:12 guide["2.4"]["2.2.34"]: "2.2.34" is not a version range of httpd 2.4');
  });

  it("refuses a key that is neither a range nor an expectation field", () => {
    const text = ["id: t", "title: T", "requests:", "  - name: a", "    path: /", "    expect:", '      "2.4": { ">=2.4": { status: 200 } }', ""].join("\n");
    const error = parseError(text);
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(7, 16));
    expect(error.message).toContain('requests[0].expect["2.4"][">=2.4"]');
  });

  it("points a wrong type inside a range at that value", () => {
    const text = ["id: t", "title: T", "requests:", "  - name: a", "    path: /", "    expect:", '      "2.4": { ">=2.4.63": { status: "403" } }', ""].join("\n");
    const error = parseError(text);
    expect(error.position).toEqual(at(7, 38));
    expect(error.message).toContain('requests[0].expect["2.4"][">=2.4.63"].status: wrong type: a string where a number is needed');
  });
});

describe("parseScenario: YAML and schema errors", () => {
  it("reports a YAML syntax error as HARNESS_SCENARIO_PARSE with its line and column", () => {
    const error = parseError("id: x\ntitle: [unclosed\nseed: []\n");
    expect(error.code).toBe("HARNESS_SCENARIO_PARSE");
    expect(error.position).toEqual(at(3, 1));
    expect(error.message).toMatch(/^t\.scenario\.yaml:3:1: YAML syntax error: /);
  });

  it("reports duplicate keys as a YAML error", () => {
    const error = parseError("id: x\ntitle: T\nid: y\n");
    expect(error.code).toBe("HARNESS_SCENARIO_PARSE");
    expect(error.position).toEqual(at(3, 1));
  });

  it("points a missing `id` at the map that lacks it", () => {
    const error = parseError("# comment\ntitle: No id\nrequests: []\n");
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(2, 1));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:2:1: (top level): missing required key "id"
        expected: lower-case letters, digits and single dashes
        example:  id: server-status-directory-deny"
    `);
  });

  it("points a missing key of a nested map at that map", () => {
    const error = parseError("id: t\ntitle: T\nrequests:\n  - path: /\n    method: GET\n");
    expect(error.position).toEqual(at(4, 5));
    expect(error.message).toContain('requests[0]: missing required key "name"');
  });

  it("points a wrong type at a nested path at exactly that value", () => {
    const error = parseError(
      ["id: t", "title: T", "requests:", "  - name: a", "    path: /", "    expect:", '      "2.4": { status: "403" }', ""].join("\n"),
    );
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(7, 24));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:7:24: requests[0].expect["2.4"].status: wrong type: a string where a number is needed
        expected: an HTTP status code, 100 to 599
        example:  status: 403
        received: "403""
    `);
  });

  it("narrows a failed per-version union to the value that is wrong", () => {
    const error = parseError('id: t\ntitle: T\nserver:\n  modules: { "2.2": [status], "2.4": [7] }\n');
    expect(error.position).toEqual(at(4, 39));
    expect(error.message).toContain('server.modules["2.4"][0]: wrong type: an integer where a string is needed');
  });

  it("names an unknown key, where it is, and the closest known one", () => {
    const error = parseError("id: t\ntitle: T\nrequests:\n  - name: a\n    path: /\n    expcet: {}\n");
    expect(error.position).toEqual(at(6, 5));
    expect(error.message).toContain('requests[0].expcet: unknown key "expcet" (did you mean "expect"?)');
    expect(error.message).toContain("expected: one of: name, client, method, path,");
  });

  it("describes a text matcher that fits no form", () => {
    const error = parseError('id: t\ntitle: T\nrequests:\n  - name: a\n    path: /\n    expect: { both: { body: { equal: "x" } } }\n');
    expect(error.position).toEqual(at(6, 29));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:6:29: requests[0].expect.both.body: not in any accepted form
        expected: a text matcher: "substring", "/regex/flags", { equals: "..." }, { contains: "..." } or { matches: "...", flags: "i" }
        example:  body: { contains: "It works" }
        received: {"equal":"x"}"
    `);
  });

  it("truncates a long received value", () => {
    const error = parseError(`id: t\ntitle: T\nserver: { base: "${"x".repeat(200)}" }\n`);
    const received = error.message.split("\n").find((line) => line.includes("received:"));
    expect(received?.length).toBeLessThan(100);
    expect(received).toMatch(/…$/);
  });

  it("reports every schema problem of a file in one error, positioned at the first", () => {
    const error = parseError(
      ["id: Bad Id", "title: T", "server:", "  base: tiny", "requests:", "  - name: a", "    path: /", "    keepAlive: 0", ""].join("\n"),
    );
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(1, 5));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml: 3 problems
        1:5 id: not in the expected form
            expected: lower-case letters, digits and single dashes
            example:  id: server-status-directory-deny
            received: "Bad Id"
        4:9 server.base: not one of the allowed values
            expected: minimal, stock or none
            example:  base: minimal
            received: "tiny"
        8:16 requests[0].keepAlive: out of range: at least 1 expected
            expected: how many requests to send on one connection, 1 to 100
            example:  keepAlive: 2
            received: 0"
    `);
    expect(error.hint).toContain("docs/scenario-format.md");
  });

  it("rejects a file whose top level is not a map", () => {
    const error = parseError("- id: t\n");
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(1, 1));
    expect(error.message).toContain("(top level): wrong type: a list where a map is needed");
  });

  it("rejects an empty file", () => {
    const error = parseError("");
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(1, 1));
  });
});

describe("loadScenarioFile", () => {
  it("reports all problems of a file, schema first (meaning is checked once the shape is right)", async () => {
    const file = join(FIXTURES, "invalid", "many-problems.scenario.yaml");
    const error = await rejection(loadScenarioFile(file));
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(9, 24, file));
    expect(error.message).toContain('requests[0].expect["2.4"].status: wrong type');
    // The seed id and the client are checked once the file has the right shape.
    expect(error.message).not.toContain("A4");
  });

  it("reports a missing file as HARNESS_SCENARIO_NOT_FOUND", async () => {
    await expect(loadScenarioFile(join(FIXTURES, "nope.scenario.yaml"))).rejects.toMatchObject({
      code: "HARNESS_SCENARIO_NOT_FOUND",
    });
  });
});

describe("loadScenarios", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "scenarios-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const scenarioText = (id: string): string => `id: ${id}\ntitle: ${id}\nrequests:\n  - { name: home, path: / }\n`;

  it("finds *.scenario.yaml files recursively, sorted, skipping other files and dot-directories", async () => {
    await mkdir(join(dir, "b", "deep"), { recursive: true });
    await mkdir(join(dir, "a"));
    await mkdir(join(dir, ".hidden"));
    await writeFile(join(dir, "b", "deep", "z.scenario.yaml"), scenarioText("z"));
    await writeFile(join(dir, "b", "c.scenario.yaml"), scenarioText("c"));
    await writeFile(join(dir, "a", "y.scenario.yaml"), scenarioText("y"));
    await writeFile(join(dir, "a", "notes.yaml"), "not: a scenario\n");
    await writeFile(join(dir, ".hidden", "h.scenario.yaml"), scenarioText("h"));
    const scenarios = await loadScenarios([dir]);
    expect(scenarios.map((scenario) => scenario.id)).toEqual(["y", "c", "z"]);
    expect(scenarios[0]?.file).toBe(join(dir, "a", "y.scenario.yaml"));
  });

  it("keeps the order of the arguments and loads a file named twice once", async () => {
    await writeFile(join(dir, "one.scenario.yaml"), scenarioText("one"));
    await writeFile(join(dir, "two.scenario.yaml"), scenarioText("two"));
    const two = join(dir, "two.scenario.yaml");
    const scenarios = await loadScenarios([two, dir]);
    expect(scenarios.map((scenario) => scenario.id)).toEqual(["two", "one"]);
  });

  it("loads one file spelled two ways (a.yaml, ./a.yaml, a symbolic link) once", async () => {
    await writeFile(join(dir, "one.scenario.yaml"), scenarioText("one"));
    await symlink(join(dir, "one.scenario.yaml"), join(dir, "link.scenario.yaml"));
    const relative = relativePath(process.cwd(), join(dir, "one.scenario.yaml"));
    const scenarios = await loadScenarios([relative, `./${relative}`, join(dir, "link.scenario.yaml"), dir]);
    expect(scenarios.map((scenario) => [scenario.id, scenario.file])).toEqual([["one", relative]]);
  });

  it("reports a missing path as HARNESS_SCENARIO_NOT_FOUND", async () => {
    await expect(loadScenarios([join(dir, "missing")])).rejects.toMatchObject({
      code: "HARNESS_SCENARIO_NOT_FOUND",
      message: expect.stringContaining("does not exist"),
    });
  });

  it("reports a directory without scenario files as HARNESS_SCENARIO_NOT_FOUND", async () => {
    await writeFile(join(dir, "readme.md"), "nothing here\n");
    await expect(loadScenarios([dir])).rejects.toMatchObject({ code: "HARNESS_SCENARIO_NOT_FOUND" });
    await expect(loadScenarios([])).rejects.toMatchObject({ code: "HARNESS_SCENARIO_NOT_FOUND" });
  });

  it("reports an id used by two files as HARNESS_SCENARIO_INVALID naming both", async () => {
    await mkdir(join(dir, "x"));
    await writeFile(join(dir, "a.scenario.yaml"), scenarioText("same"));
    await writeFile(join(dir, "x", "b.scenario.yaml"), `# second\n${scenarioText("same")}`);
    const error = await rejection(loadScenarios([dir]));
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(2, 1, join(dir, "x", "b.scenario.yaml")));
    expect(error.message).toContain(join(dir, "a.scenario.yaml"));
    expect(error.message).toContain(join(dir, "x", "b.scenario.yaml"));
  });

  it("reports the problems of several files together", async () => {
    await writeFile(join(dir, "a.scenario.yaml"), "id: a\n");
    await writeFile(join(dir, "b.scenario.yaml"), "id: [\n");
    await writeFile(join(dir, "c.scenario.yaml"), scenarioText("c"));
    const error = await rejection(loadScenarios([dir]));
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position?.file).toBe(join(dir, "a.scenario.yaml"));
    expect(error.message).toMatch(/^2 problems in the scenario files:/);
    expect(error.message).toContain("YAML syntax error");
  });

});
