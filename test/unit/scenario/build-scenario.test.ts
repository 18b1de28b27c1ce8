import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { mergeResponseExpectations, mergeServerExpectations } from "../../../harness/scenario/build-scenario.ts";
import { parseScenario } from "../../../harness/scenario/load-scenario.ts";
import { forFamily } from "../../../harness/scenario/scenario.ts";

const FILE = "t.scenario.yaml";
const SEED_IDS = new Set(["A6", "T1", "D5", "X3"]);

function at(line: number, column: number) {
  return { file: FILE, line, column };
}

function lines(...text: string[]): string {
  return `${text.join("\n")}\n`;
}

/** The position of the n-th (1-based) occurrence of `needle` in `text`. */
function where(text: string, needle: string, occurrence = 1) {
  let index = -1;
  for (let seen = 0; seen < occurrence; seen += 1) index = text.indexOf(needle, index + 1);
  if (index === -1) throw new Error(`${needle} not in text`);
  const before = text.slice(0, index).split("\n");
  return at(before.length, (before[before.length - 1]?.length ?? 0) + 1);
}

function parseError(text: string): HarnessError {
  try {
    parseScenario(text, FILE, { seedIds: SEED_IDS });
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected parseScenario to throw");
}

const HEAD = ["id: t", "title: T"];

describe("seed ids", () => {
  it("rejects an id that is not in the seed-rows table, at that id", () => {
    const error = parseError(lines(...HEAD, "seed: [A6, A4]"));
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(at(3, 12));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:3:12: seed[1]: unknown seed row "A4"
        expected: an id from spec/seed-rows.tsv; with A: A6
        example:  seed: [A6, T1]
        received: "A4""
    `);
  });

  it("checks the seed ids of predictions too", () => {
    const text = lines(...HEAD, "predicted:", "  - { field: configTest, seed: [Z9] }");
    const error = parseError(text);
    expect(error.position).toEqual(where(text, "Z9"));
    expect(error.message).toContain('predicted[0].seed[0]: unknown seed row "Z9"');
  });

  it("reads the repository's seed-rows table by default", () => {
    expect(() => parseScenario(lines(...HEAD, "seed: [A6, D5, X3, S16]"), FILE)).not.toThrow();
    expect(() => parseScenario(lines(...HEAD, "seed: [A4]"), FILE)).toThrow(/unknown seed row "A4"/);
  });
});

describe("clients and names", () => {
  it("rejects a request from an undeclared client", () => {
    const text = lines(...HEAD, "clients: [{ name: allowed }]", "requests:", "  - { name: a, path: /, client: denied }");
    const error = parseError(text);
    expect(error.position).toEqual(where(text, "denied"));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:5:33: requests[0].client: unknown client "denied"
        expected: host, localhost, localhost6, or a declared client: allowed
        example:  clients: [{ name: denied }]   # then: client: denied
        received: "denied""
    `);
  });

  it("rejects duplicate request names, pointing at the second", () => {
    const error = parseError(lines(...HEAD, "requests:", "  - { name: a, path: / }", "  - { name: a, path: /x }"));
    expect(error.position).toEqual(at(5, 13));
    expect(error.message).toContain('requests[1].name: duplicate request name "a" (first used at line 4)');
  });

  it("rejects duplicate client and backend names and a client called host", () => {
    const error = parseError(
      lines(...HEAD, "clients: [{ name: c }, { name: c }, { name: host }]", "backends: [{ name: b }, { name: b }]"),
    );
    expect(error.message).toMatch(/^t\.scenario\.yaml: 3 problems/);
    expect(error.message).toContain('clients[1].name: duplicate client name "c"');
    expect(error.message).toContain('clients[2].name: "host" is reserved');
    expect(error.message).toContain('backends[1].name: duplicate backend name "b"');
  });
});

describe("client addresses and domains", () => {
  it("keeps a fixed address in Docker's canonical text and a domain in lower case; absent is null", () => {
    const text = lines(
      ...HEAD,
      "clients:",
      "  - { name: office, address: 10.77.1.5 }",
      '  - { name: v6, address: "2001:DB8:77:0::5", domain: .Probe.Test }',
      "  - { name: plain }",
    );
    const scenario = parseScenario(text, FILE, { seedIds: SEED_IDS });
    expect(scenario.clients.map(({ name, address, domain }) => ({ name, address, domain }))).toEqual([
      { name: "office", address: "10.77.1.5", domain: null },
      { name: "v6", address: "2001:db8:77::5", domain: ".probe.test" },
      { name: "plain", address: null, domain: null },
    ]);
  });

  it("rejects loopback, multicast and malformed addresses and bad domains, each at its value", () => {
    const text = lines(
      ...HEAD,
      "clients:",
      "  - { name: a, address: 127.0.0.2 }",
      "  - { name: b, address: ff02::1 }",
      "  - { name: c, address: 10.1.2.0/24 }",
      "  - { name: d, domain: www }",
      "  - { name: e, domain: www..example.com }",
    );
    const error = parseError(text);
    expect(error.message).toMatch(/^t\.scenario\.yaml: 5 problems/);
    expect(error.position).toEqual(where(text, "127.0.0.2"));
    expect(error.message).toContain(`${where(text, "127.0.0.2").line}:${where(text, "127.0.0.2").column} clients[0].address: "127.0.0.2" is a loopback address: send from the server itself with client: localhost`);
    expect(error.message).toContain(`${where(text, "ff02::1").line}:${where(text, "ff02::1").column} clients[1].address: "ff02::1" is a multicast address`);
    expect(error.message).toContain(`${where(text, "10.1.2.0/24").line}:${where(text, "10.1.2.0/24").column} clients[2].address: "10.1.2.0/24" is not an IPv4 or IPv6 address`);
    expect(error.message).toContain(`${where(text, "www }").line}:${where(text, "www }").column} clients[3].domain: "www" is a single label`);
    expect(error.message).toContain(`${where(text, "www..").line}:${where(text, "www..").column} clients[4].domain: "www..example.com" has an empty label`);
  });

  it("rejects one full name for two clients, and names under one domain asking for two subnets", () => {
    const text = lines(
      ...HEAD,
      "clients:",
      "  - { name: a, domain: www.example.com, address: 10.1.1.4 }",
      "  - { name: b, domain: www.example.com }",
      "  - { name: c, domain: mail.example.com, address: 10.1.2.4 }",
      "  - { name: d, domain: .example.com, address: 10.1.3.4 }",
    );
    const error = parseError(text);
    expect(error.message).toMatch(/^t\.scenario\.yaml: 2 problems/);
    expect(error.message).toContain(`${where(text, "www.example.com", 2).line}:${where(text, "www.example.com", 2).column} clients[1].domain: "www.example.com" is already the name of client a`);
    expect(error.message).toContain("clients[2].domain: clients a and c both have a name in example.com, which is one network, but ask for addresses in different subnets");
  });
});

describe("local clients", () => {
  it("accepts requests from localhost and localhost6 without declaring them", () => {
    const scenario = parseScenario(
      lines(...HEAD, "requests:", "  - { name: v4, path: /server-status, client: localhost }", '  - { name: v6, raw: "GET / HTTP/1.0\\r\\n\\r\\n", client: localhost6 }'),
      FILE,
      { seedIds: SEED_IDS },
    );
    expect(scenario.requests.map((request) => [request.client, request.mode])).toEqual([
      ["localhost", "http"],
      ["localhost6", "raw"],
    ]);
  });

  it("rejects a declared client named localhost or localhost6, saying what the name means", () => {
    const text = lines(...HEAD, "clients: [{ name: localhost }, { name: localhost6 }]");
    const error = parseError(text);
    expect(error.position).toEqual(where(text, "localhost"));
    expect(error.message).toContain(`clients[0].name: "localhost" is reserved: it sends from inside the server's network namespace to 127.0.0.1`);
    expect(error.message).toContain(`clients[1].name: "localhost6" is reserved: it sends from inside the server's network namespace to ::1`);
    expect(error.message).toContain("expected: any name but host, localhost, localhost6; requests use client: localhost without declaring it");
  });

  it("rejects an exec request from a local client: it already runs in the server container", () => {
    const error = parseError(lines(...HEAD, "requests:", '  - { name: e, exec: "true", client: localhost }'));
    expect(error.message).toContain("requests[0].client: an exec request runs in the server container; it has no client");
  });

  it("gives the local clients' variables without a declaration", () => {
    const text = lines(...HEAD, "server:", "  config: Require ip {{clients.localhost.ip}} {{clients.localhost6.ip}} {{clients.localhost.hostname}} {{clients.localhost6.nope}}");
    const error = parseError(text);
    expect(error.message).toMatch(/^t\.scenario\.yaml:\d+:\d+: server\.config: unknown variable \{\{clients\.localhost6\.nope\}\}: clients have no "nope"/);
  });
});

describe("variables", () => {
  it("rejects an unknown variable in the config at its own line and column", () => {
    const error = parseError(
      lines(...HEAD, "server:", "  config: |", "    <Directory {{server.docroot}}>", "      Require ip {{clients.nobody.ip}}", "    </Directory>"),
    );
    expect(error.position).toEqual(at(6, 18));
    expect(error.message).toContain('server.config: unknown variable {{clients.nobody.ip}}: no client "nobody" is declared');
    expect(error.hint).toContain("{{{{");
    expect(error.message).toContain("{{server.root}}, {{server.docroot}}");
  });

  it("points each use of an unknown variable at itself, skipping {{{{ escapes", () => {
    const text = lines(...HEAD, "server:", "  config:", '    "2.4": "Define x {{{{server.nope}} {{server.nope}} {{server.nope}}"');
    const error = parseError(text);
    const second = where(text, " {{server.nope}}", 1);
    const third = where(text, " {{server.nope}}", 2);
    const [secondAt, thirdAt] = [at(second.line, second.column + 1), at(third.line, third.column + 1)];
    expect(error.position).toEqual(secondAt);
    expect(error.message).toContain(`${secondAt.line}:${secondAt.column} server.config["2.4"]: unknown variable {{server.nope}}`);
    expect(error.message).toContain(`${thirdAt.line}:${thirdAt.column} server.config["2.4"]: unknown variable {{server.nope}}`);
  });

  it("points an unterminated {{ at itself, in a block scalar", () => {
    const text = lines(...HEAD, "server:", "  config: |", "    Define A {{server.root}}", "    <Directory {{server.docroot>", "    </Directory>");
    const error = parseError(text);
    expect(error.position).toEqual(where(text, "{{server.docroot>"));
    expect(error.message).toContain('server.config: a "{{" has no closing "}}" on its line');
  });

  it("suggests the name when a variable has spaces inside the braces", () => {
    const error = parseError(lines(...HEAD, "server:", "  config: |", "    DocumentRoot {{ server.docroot }}"));
    expect(error.message).toContain("unknown variable {{ server.docroot }}: write {{server.docroot}}, without spaces inside the braces");
  });

  it("passes httpd's own ${VAR} and ${map:key} through every interpolated field", () => {
    const scenario = parseScenario(
      lines(
        ...HEAD,
        "server:",
        "  config: |",
        "    Define LOGS ${APACHE_LOG_DIR}",
        "    RewriteRule ^/u/(.*) ${users:$1|nobody}",
        "  files: { htdocs/a.shtml: '<!--#echo var=\"${DOCUMENT_URI}\" -->' }",
        "  prepare: ['echo ${HOME} > {{server.root}}/home']",
        "requests:",
        "  - { name: h, path: '/${q}', host: '${h}', headers: ['X: ${x}'], body: '${b}' }",
        "  - { name: r, raw: '${r}' }",
        "  - { name: e, exec: '${e}' }",
      ),
      FILE,
      { seedIds: SEED_IDS },
    );
    expect(forFamily(scenario.server.config, "2.4")).toBe("Define LOGS ${APACHE_LOG_DIR}\nRewriteRule ^/u/(.*) ${users:$1|nobody}\n");
    expect(scenario.requests.map((request) => [request.path, request.host, request.raw, request.exec])).toEqual([
      ["/${q}", "${h}", null, null],
      ["", null, "${r}", null],
      ["", null, null, "${e}"],
    ]);
    expect(scenario.requests[0]?.headers).toEqual([["X", "${x}"]]);
    expect(scenario.server.files[0]?.content).toBe('<!--#echo var="${DOCUMENT_URI}" -->');
    expect(forFamily(scenario.server.prepare, "2.2")).toEqual(["echo ${HOME} > {{server.root}}/home"]);
  });

  it("accepts every declared variable, the host client and {{{{ escapes", () => {
    const scenario = parseScenario(
      lines(
        ...HEAD,
        "clients: [{ name: c1 }]",
        "backends: [{ name: b1 }]",
        "server:",
        "  config: |",
        "    # {{server.root}} {{server.docroot}} {{server.config}} {{network.gateway}} {{network.subnet}} {{certs.dir}}",
        "    # {{clients.c1.ip}} {{clients.c1.hostname}} {{clients.host.ip}} {{clients.host.hostname}}",
        "    # {{backends.b1.host}} {{backends.b1.ip}} {{backends.b1.port}} {{{{APACHE_VAR}}",
        "  files: { htdocs/a: 'x {{certs.dir}} {{{{template}}' }",
        "  prepare: ['echo {{{{HOME}} {{server.root}}']",
      ),
      FILE,
      { seedIds: SEED_IDS },
    );
    expect(scenario.clients).toHaveLength(1);
  });

  it("checks variables in files, prepare commands and every interpolated request field", () => {
    const error = parseError(
      lines(
        ...HEAD,
        "server:",
        "  files: { a.txt: '{{f}}', b.txt: { content: '{{g}}' } }",
        "  prepare: { '2.2': ['{{p}}'] }",
        "requests:",
        "  - { name: h, path: '/{{q}}', host: '{{h}}', headers: ['X: {{x}}'], body: '{{b}}' }",
        "  - { name: r, raw: '{{r}}' }",
        "  - { name: e, exec: '{{e}}' }",
        "  - { name: u, path: '/{{unterminated' }",
      ),
    );
    const reported = [...error.message.matchAll(/unknown variable \{\{(\w+)\}\}/g)].map((match) => match[1]);
    expect(reported).toEqual(["f", "g", "p", "q", "h", "x", "b", "r", "e"]);
    expect(error.message).toContain('requests[3].path: a "{{" has no closing "}}" on its line');
  });

  it("leaves backend files alone (they are served as written)", () => {
    expect(() => parseScenario(lines(...HEAD, "backends: [{ name: b, files: { x: '{{anything}}' } }]"), FILE, { seedIds: SEED_IDS })).not.toThrow();
  });
});

describe("text matchers", () => {
  it("rejects a regular expression that does not compile, at the matcher", () => {
    const text = lines(...HEAD, "requests:", "  - name: a", "    path: /", "    expect:", '      "2.4": { errorLog: [{ message: "/client (denied/" }] }');
    const error = parseError(text);
    expect(error.position).toEqual(where(text, '"/client'));
    expect(error.message).toContain('requests[0].expect["2.4"].errorLog[0].message: invalid regular expression /client (denied/: Unterminated group');
  });

  it("points an invalid explicit pattern at its `matches` key", () => {
    const text = lines(...HEAD, "requests:", "  - { name: a, path: /, expect: { both: { body: { matches: '[' } } } }");
    const error = parseError(text);
    expect(error.position).toEqual(where(text, "'['"));
  });

  it("rejects the stateful flags g and y", () => {
    const error = parseError(lines(...HEAD, "requests:", "  - { name: a, path: /, expect: { both: { body: '/x/g' } } }"));
    expect(error.message).toContain("g and y are not allowed");
  });
});

describe("request modes", () => {
  it("requires path, raw or exec", () => {
    const error = parseError(lines(...HEAD, "requests:", "  - name: a", "    method: GET"));
    expect(error.position).toEqual(at(4, 5));
    expect(error.message).toContain('requests[0]: missing required key "path"');
  });

  it("rejects http-only keys on raw requests and network keys on exec requests, at the key", () => {
    const text = lines(
      ...HEAD,
      "clients: [{ name: c }]",
      "requests:",
      "  - { name: r, raw: 'GET / HTTP/1.0\\r\\n\\r\\n', headers: ['X: 1'] }",
      "  - { name: e, exec: 'true', tls: true, client: c }",
      "  - { name: h, path: /, trickleMs: 5 }",
    );
    const error = parseError(text);
    expect(error.message).toContain('requests[0].headers: "headers" has no effect on a raw request');
    expect(error.message).toContain('requests[1].tls: "tls" has no effect on an exec request');
    expect(error.message).toContain("requests[1].client: an exec request runs in the server container");
    expect(error.message).toContain('requests[2].trickleMs: "trickleMs" only applies to raw requests');
    expect(error.position).toEqual(where(text, "headers"));
  });

  it("rejects expectations that do not fit the request's mode", () => {
    const error = parseError(
      lines(
        ...HEAD,
        "requests:",
        "  - { name: e, exec: 'true', expect: { both: { status: 200 } } }",
        "  - { name: h, path: /, expect: { both: { exitCode: 0, connectionReused: true } } }",
      ),
    );
    expect(error.message).toContain('requests[0].expect.both.status: "status" does not apply to an exec request');
    expect(error.message).toContain('requests[1].expect.both.exitCode: "exitCode" only applies to exec requests');
    expect(error.message).toContain("connectionReused needs keepAlive: 2 or more");
  });

  it("needs tls for a client certificate and a path without white space", () => {
    const error = parseError(lines(...HEAD, "requests:", "  - { name: a, path: '/a b', clientCertificate: valid }"));
    expect(error.message).toContain("a client certificate needs tls: true");
    expect(error.message).toContain("the path contains white space");
  });
});

describe("server checks", () => {
  it("rejects a file path that leaves the root, at its key", () => {
    const error = parseError(lines(...HEAD, "server:", "  files:", "    ../etc/passwd: x"));
    expect(error.position).toEqual(at(5, 5));
    expect(error.message).toContain('file path "../etc/passwd" has an empty, . or .. segment');
  });

  it("rejects a mode that is not octal and an unknown log level", () => {
    const error = parseError(lines(...HEAD, "server:", "  logLevel: loud", "  files: { a: { content: x, mode: 999 } }"));
    expect(error.message).toContain('server.logLevel: "loud" is not a level or module:level');
    expect(error.message).toContain('server.files.a.mode: not an octal file mode');
  });

  it("rejects an empty error-log matcher", () => {
    const error = parseError(lines(...HEAD, "expect: { both: { startupLog: [{}] } }"));
    expect(error.message).toContain("an error-log matcher needs at least one of code, level, module, message");
  });
});

describe("server TLS subject", () => {
  it("reads OpenSSL's slash form into typed parts, order kept", () => {
    const scenario = parseScenario(
      lines(...HEAD, "server:", '  tls: { certificate: self-signed, subject: "/C=DE/O=Example, Inc./OU=Web/CN=server.test" }'),
      FILE,
      { seedIds: SEED_IDS },
    );
    expect(scenario.server.tls).toEqual({
      certificate: "self-signed",
      clientCa: false,
      crl: false,
      subject: [
        { attribute: "C", value: "DE" },
        { attribute: "O", value: "Example, Inc." },
        { attribute: "OU", value: "Web" },
        { attribute: "CN", value: "server.test" },
      ],
    });
  });

  it("rejects a bad subject at the offending field", () => {
    const text = lines(...HEAD, "server:", '  tls: { subject: "/C=DE/Org=Example/CN=x" }');
    const error = parseError(text);
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(where(text, "Org="));
    expect(error.message).toMatchInlineSnapshot(`
      "t.scenario.yaml:4:26: server.tls.subject: not a subject: unknown attribute "Org"; known: C, ST, L, O, OU, CN, title, serialNumber, GN, SN, emailAddress, DC
        expected: OpenSSL's form, most significant part first: /type=value/type=value...; types C, ST, L, O, OU, CN, title, serialNumber, GN, SN, emailAddress, DC; a backslash escapes / and \\
        example:  subject: "/C=DE/O=Example, Inc./OU=Web/CN=server.test"
        received: "/C=DE/Org=Example/CN=x""
    `);
  });

  it("points at the value's start when escapes make the source differ from the text, and rejects wrong-name", () => {
    const text = lines(...HEAD, "server:", "  tls:", "    certificate: wrong-name", '    subject: "/O=a\\\\/b/C=Germany"');
    const error = parseError(text);
    expect(error.message).toMatch(/^t\.scenario\.yaml: 2 problems/);
    expect(error.message).toContain(`${where(text, '"/O=').line}:${where(text, '"/O=').column} server.tls.subject: not a subject: C: countryName takes exactly 2 characters, got 7`);
    expect(error.message).toContain("server.tls.subject: a wrong-name certificate takes no subject");
  });
});

describe("prepare commands", () => {
  it("rejects a program the httpd images do not have, at the program, with the certificate factory as hint", () => {
    const command = "mkdir -p /tmp/x && openssl req -x509 -subj '/CN=server.test' -out /tmp/x/s.crt";
    const text = lines(...HEAD, "server:", "  prepare:", `    - "${command}"`);
    const error = parseError(text);
    expect(error.code).toBe("HARNESS_SCENARIO_INVALID");
    expect(error.position).toEqual(where(text, "openssl"));
    expect(error.message).toContain('server.prepare[0]: runs "openssl", which is not a program every httpd image has');
    expect(error.message).toContain("example:  tls: { certificate: valid, subject:");
    expect(error.hint).toContain("Use the harness's certificate factory: server.tls.subject");
  });

  it("finds programs inside substitutions and sh -c scripts, and tells to stage other files", () => {
    const text = lines(...HEAD, "server:", "  prepare:", `    - 'echo "$(perl -e 1)" > a'`, `    - "sh -c 'cd /tmp && curl -o x http://h/'"`);
    const error = parseError(text);
    expect(error.message).toContain('server.prepare[0]: runs "perl"');
    expect(error.message).toContain(`${where(text, "curl").line}:${where(text, "curl").column} server.prepare[1]: runs "curl"`);
    expect(error.hint).toContain("Stage the file with server.files");
  });

  it("accepts httpd's tools and sh utilities, and a 2.4-only tool only in the 2.4 list", () => {
    const ok = lines(
      ...HEAD,
      "server:",
      "  prepare:",
      '    "2.2": ["htpasswd -bc {{server.root}}/conf/passwd alice secret && chmod 0644 {{server.root}}/conf/passwd"]',
      '    "2.4": ["i=0; while [ $i -lt 3 ]; do printf x >> f; i=$((i+1)); done", "fcgistarter -c /bin/true -p 9000 -N 1 || true"]',
    );
    expect(() => parseScenario(ok, FILE, { seedIds: SEED_IDS })).not.toThrow();
    const error = parseError(lines(...HEAD, "server:", '  prepare: ["fcgistarter -c x -p 9000"]'));
    expect(error.message).toContain(`runs "fcgistarter", which only httpd 2.4's image has; this command also runs on 2.2`);
  });
});

describe("predictions and ignore rules", () => {
  it("rejects a prediction for a request that does not exist", () => {
    const text = lines(...HEAD, "requests: [{ name: a, path: / }]", "predicted:", "  - { field: status, request: b, seed: [D5] }");
    const error = parseError(text);
    expect(error.position).toEqual(where(text, "b, seed"));
    expect(error.message).toContain('predicted[0].request: no request is named "b"');
    expect(error.message).toContain("expected: one of: a");
  });

  it("rejects a request on a server-level prediction", () => {
    const error = parseError(lines(...HEAD, "requests: [{ name: a, path: / }]", "predicted:", "  - { field: configTest, request: a, seed: [X3] }"));
    expect(error.message).toContain('"configTest" is a server-level field');
  });

  it("accepts only the known fields", () => {
    const error = parseError(lines(...HEAD, "ignore:", "  - { field: headers, reason: x }"));
    expect(error.message).toContain("ignore[0].field: not in the expected form");
    expect(error.message).toContain("expected: status, body, errorLog, outcome (or transport), exec or header:<Name>");
  });
});

describe("merging `both` with a version", () => {
  const position = at(1, 1);
  it("adds lists, lets the version's single values and same-named headers win", () => {
    const merged = mergeResponseExpectations(
      {
        at: position,
        status: 200,
        body: { kind: "contains", value: "a" },
        headers: [
          { name: "ETag", absent: true },
          { name: "Server", value: { kind: "contains", value: "Apache" } },
        ],
        errorLog: [{ at: position, code: "AH00001" }],
        noErrorLog: [],
      },
      { at: at(2, 1), status: 403, headers: [{ name: "etag", value: { kind: "contains", value: "-" } }], errorLog: [{ at: position, code: "AH00002" }], noErrorLog: [] },
    );
    expect(merged).toEqual({
      at: at(2, 1),
      status: 403,
      body: { kind: "contains", value: "a" },
      headers: [
        { name: "Server", value: { kind: "contains", value: "Apache" } },
        { name: "etag", value: { kind: "contains", value: "-" } },
      ],
      errorLog: [
        { at: position, code: "AH00001" },
        { at: position, code: "AH00002" },
      ],
      noErrorLog: [],
    });
  });

  it("does the same for server expectations", () => {
    const merged = mergeServerExpectations(
      { at: position, configTestOk: true, configTestMessages: [{ kind: "contains", value: "x" }], startupLog: [], noStartupLog: [] },
      { at: position, configTestOk: false, configTestMessages: [{ kind: "contains", value: "y" }], started: false, startupLog: [], noStartupLog: [] },
    );
    expect(merged).toMatchObject({ configTestOk: false, started: false, configTestMessages: [{ value: "x" }, { value: "y" }] });
  });
});

describe("server.config naming a configuration tree", () => {
  it("resolves the tree and the port against the scenario file's directory, with layout and defines", () => {
    const scenario = parseScenario(
      lines(...HEAD, "server:", "  config: { tree: ../configs/debian-ssl, candidate: ports/debian-ssl-24, layout: debian, defines: [SSL] }"),
      "/work/scenarios/x.scenario.yaml",
    );
    expect(scenario.server.tree).toEqual({
      baseline: expect.objectContaining({ path: "/work/configs/debian-ssl", layout: "debian", defines: ["SSL"], writtenFor: "2.2" }),
      candidate: expect.objectContaining({ path: "/work/scenarios/ports/debian-ssl-24", layout: "debian", defines: ["SSL"], writtenFor: "2.4" }),
    });
    expect(forFamily(scenario.server.config, "2.4")).toBe("");
  });

  it("runs the same tree on both sides when no port is named", () => {
    const scenario = parseScenario(lines(...HEAD, "server:", "  config: { tree: /srv/conf }"), "/work/x.scenario.yaml");
    expect(scenario.server.tree?.candidate).toBe(scenario.server.tree?.baseline);
    expect(scenario.server.tree?.baseline).toMatchObject({ path: "/srv/conf", layout: null, defines: [] });
  });

  it("refuses modules next to a tree: the tree's own LoadModule lines are used", () => {
    const error = parseError(lines(...HEAD, "server:", "  modules: [rewrite]", "  config: { tree: /srv/conf }"));
    expect(error.message).toContain("server.modules: has no effect with a configuration tree");
  });

  it("refuses a tree object with an unknown key or layout", () => {
    expect(parseError(lines(...HEAD, "server:", "  config: { tree: /srv/conf, layout: suse }")).message).toMatch(/server\.config/);
    expect(parseError(lines(...HEAD, "server:", "  config: { tre: /srv/conf }")).message).toMatch(/server\.config/);
  });
});

describe("a harness variable written in httpd's ${...} syntax", () => {
  it("is refused with the {{name}} form to write, since httpd would receive it as written", () => {
    const error = parseError(lines(...HEAD, "server:", "  config: SSLCertificateFile ${certs.dir}/server.crt"));
    expect(error.message).toContain("server.config: ${certs.dir} is httpd's own syntax, which the harness passes to httpd untouched; the harness's variable is written {{certs.dir}}");
  });

  it("leaves httpd's own variables alone", () => {
    expect(() => parseScenario(lines(...HEAD, "server:", "  config: ErrorLog ${APACHE_LOG_DIR}/error.log"), FILE)).not.toThrow();
  });
});
