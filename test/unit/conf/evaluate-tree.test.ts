import { describe, expect, test } from "vitest";
import type { EffectiveConfig, EffectiveNode, EvaluateOptions } from "../../../harness/conf/effective-config.ts";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { memoryTree, type MemoryTreeOptions } from "./memory-tree.ts";

const V24 = httpdVersion("2.4.62");
const V22 = httpdVersion("2.2.34");

function evaluate(files: Record<string, string>, options: Partial<EvaluateOptions> = {}, tree: MemoryTreeOptions = {}): EffectiveConfig {
  return evaluateTree(memoryTree(files, tree), { version: V24, defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c"], ...options });
}

/** Every directive, depth first, as "Name arg arg" (sections as "<Name args>"). */
function lines(nodes: readonly EffectiveNode[]): string[] {
  return nodes.flatMap((node) =>
    node.kind === "directive" ? [[node.name, ...node.args].join(" ")] : [`<${[node.name, ...node.args].join(" ")}>`, ...lines(node.children)],
  );
}

const problems = (config: EffectiveConfig): string[] => config.problems.map((p) => `${p.severity} ${p.file}:${p.line} ${p.message}`);

describe("Include", () => {
  test("reads wildcard matches sorted, and a directory recursively in sorted order, with spans in the included files", () => {
    const config = evaluate({
      "conf/httpd.conf": "Listen 80\nInclude conf/extra/*.conf\nInclude conf/d\nServerName after\n",
      "conf/extra/b.conf": "# b\nListen 82\n",
      "conf/extra/a.conf": "Listen 81\n",
      "conf/extra/skip.txt": "Listen 99\n",
      "conf/extra/.hidden.conf": "Listen 98\n",
      "conf/d/z.conf": "Listen 85\n",
      "conf/d/sub/y": "Listen 84\n",
      "conf/d/.x": "Listen 83\n",
    });
    expect(lines(config.nodes)).toEqual(["Listen 80", "Listen 81", "Listen 82", "Listen 83", "Listen 84", "Listen 85", "ServerName after"]);
    expect(config.files).toEqual(["conf/httpd.conf", "conf/extra/a.conf", "conf/extra/b.conf", "conf/d/.x", "conf/d/sub/y", "conf/d/z.conf"]);
    const listen82 = config.nodes[2]!;
    expect(listen82.span).toMatchObject({ file: "conf/extra/b.conf", line: 2, column: 1 });
    expect(config.problems).toEqual([]);
  });

  test("nested includes keep each directive's own file and line", () => {
    const config = evaluate({
      "conf/httpd.conf": "\n\nInclude conf/one.conf\n",
      "conf/one.conf": "ServerAdmin a@b\n\nInclude conf/two.conf\nServerName one\n",
      "conf/two.conf": "\n\n\n  DocumentRoot /srv\n",
    });
    expect(config.nodes.map((n) => [n.name, n.span.file, n.span.line, n.span.column])).toEqual([
      ["ServerAdmin", "conf/one.conf", 1, 1],
      ["DocumentRoot", "conf/two.conf", 4, 3],
      ["ServerName", "conf/one.conf", 4, 1],
    ]);
  });

  test("an Include inside a VirtualHost puts the file's directives in that VirtualHost", () => {
    const config = evaluate({
      "conf/httpd.conf": "<VirtualHost *:80>\n  Include conf/vh.conf\n</VirtualHost>\n",
      "conf/vh.conf": "ServerName vh\n",
    });
    expect(lines(config.nodes)).toEqual(["<VirtualHost *:80>", "ServerName vh"]);
  });

  test("glob tricks: [c]onf.d/*.conf walks a wildcard directory on 2.4 and is refused on 2.2", () => {
    const files = { "conf/httpd.conf": "Include [c]onf.d/*.conf\n", "conf.d/a.conf": "Listen 81\n", "conf.d/b.txt": "Listen 82\n" };
    const on24 = evaluate(files);
    expect(lines(on24.nodes)).toEqual(["Listen 81"]);
    expect(on24.problems).toEqual([]);
    const on22 = evaluate(files, { version: V22 });
    expect(lines(on22.nodes)).toEqual([]);
    expect(problems(on22)).toEqual(["refusal conf/httpd.conf:1 Wildcard patterns not allowed in Include /usr/local/apache2/[c]onf.d/*.conf"]);
  });

  test("a wildcard that matches nothing is refused by 2.4, ignored by 2.2, and fine for IncludeOptional", () => {
    const files = { "conf/httpd.conf": "Include conf/none/*.conf\nInclude conf/*.none\nServerName x\n", "conf/none/readme": "" };
    expect(problems(evaluate(files))).toEqual([
      "refusal conf/httpd.conf:1 Include: No matches for the wildcard '*.conf' in '/usr/local/apache2/conf/none', failing",
      "refusal conf/httpd.conf:2 Include: No matches for the wildcard '*.none' in '/usr/local/apache2/conf', failing",
    ]);
    expect(problems(evaluate(files, { version: V22 }))).toEqual([]);
    const optional = evaluate({ "conf/httpd.conf": "IncludeOptional conf/none/*.conf\nIncludeOptional conf/missing.conf\nIncludeOptional nodir/*.conf\n" });
    expect(optional.problems).toEqual([]);
  });

  test("IncludeOptional on 2.2 is an invalid command: kept as written, with a refusal, and nothing is read", () => {
    const config = evaluate({ "conf/httpd.conf": "IncludeOptional conf/x.conf\n", "conf/x.conf": "Listen 81\n" }, { version: V22 });
    expect(lines(config.nodes)).toEqual(["IncludeOptional conf/x.conf"]);
    expect(config.files).toEqual(["conf/httpd.conf"]);
    expect(problems(config)).toEqual([
      "refusal conf/httpd.conf:1 Invalid command 'IncludeOptional', perhaps misspelled or defined by a module not included in the server configuration",
    ]);
  });

  test("a missing file without wildcard is an error", () => {
    const config = evaluate({ "conf/httpd.conf": "Include conf/gone.conf\nServerName x\n" });
    expect(problems(config)).toEqual(["error conf/httpd.conf:1 Could not open configuration file /usr/local/apache2/conf/gone.conf: No such file or directory"]);
    expect(lines(config.nodes)).toEqual(["ServerName x"]);
  });

  test("an include cycle is an error at the Include line and evaluation goes on", () => {
    const config = evaluate({
      "conf/httpd.conf": "Include conf/a.conf\nServerName main\n",
      "conf/a.conf": "Listen 81\nInclude conf/b.conf\n",
      "conf/b.conf": "Listen 82\nInclude conf/a.conf\nListen 83\n",
    });
    expect(lines(config.nodes)).toEqual(["Listen 81", "Listen 82", "Listen 83", "ServerName main"]);
    expect(problems(config)).toEqual([
      "error conf/b.conf:2 Include cycle: conf/a.conf → conf/b.conf → conf/a.conf; httpd would include these files until its depth limit and then refuse to start",
    ]);
  });

  test("Include nests at most 128 deep, as httpd's AP_MAX_INCLUDE_DEPTH", () => {
    const files: Record<string, string> = { "conf/httpd.conf": "Include conf/1.conf\n" };
    for (let i = 1; i <= 130; i++) files[`conf/${i}.conf`] = `Listen ${i}\nInclude conf/${i + 1}.conf\n`;
    const config = evaluate(files);
    expect(config.files).toHaveLength(129);
    expect(lines(config.nodes).at(-1)).toBe("Listen 128");
    expect(problems(config)).toEqual(["refusal conf/128.conf:2 Exceeded maximum include depth of 128"]);
  });

  test("a file including itself through a wildcard is a cycle too", () => {
    const config = evaluate({ "conf/httpd.conf": "Include conf/*.conf\n", "conf/x.conf": "Listen 1\n" });
    expect(lines(config.nodes)).toEqual(["Listen 1"]);
    expect(config.problems.map((p) => [p.severity, p.file, p.line])).toEqual([["error", "conf/httpd.conf", 1]]);
  });

  test("relative paths follow a ServerRoot written before them", () => {
    const config = evaluate(
      { "conf/httpd.conf": 'ServerRoot "/usr/local/apache2/conf"\nInclude extra/a.conf\n', "conf/extra/a.conf": "Listen 81\n" },
    );
    expect(config.serverRoot).toBe("/usr/local/apache2/conf");
    expect(lines(config.nodes)).toEqual(["ServerRoot /usr/local/apache2/conf", "Listen 81"]);
  });

  test("a ServerRoot that is no directory of the tree is refused and the previous one stays", () => {
    const config = evaluate({ "conf/httpd.conf": "ServerRoot /usr/local/apache2/nope\nServerRoot conf\n" });
    expect(problems(config)).toEqual(["refusal conf/httpd.conf:1 ServerRoot must be a valid directory"]);
    expect(config.serverRoot).toBe("/usr/local/apache2/conf");
  });

  test("an absolute path outside the tree, or a link leading out of it, is an error naming the path; nothing is read", () => {
    const config = evaluate(
      { "conf/httpd.conf": "Include /etc/shadow\nInclude conf/root/etc/shadow\nInclude ../../../etc/passwd\n" },
      {},
      { links: { "conf/root": "/" } },
    );
    expect(problems(config)).toEqual([
      "error conf/httpd.conf:1 Include: /etc/shadow leads out of the configuration tree (not under /usr/local/apache2); it was not read",
      "error conf/httpd.conf:2 Include: /usr/local/apache2/conf/root/etc/shadow leads out of the configuration tree (link conf/root -> /); it was not read",
      "error conf/httpd.conf:3 Include: /etc/passwd leads out of the configuration tree (not under /usr/local/apache2); it was not read",
    ]);
    expect(config.files).toEqual(["conf/httpd.conf"]);
  });

  test("a relative link inside the tree is followed, as Debian's mods-enabled links are", () => {
    const config = evaluate(
      { "apache2.conf": "IncludeOptional mods-enabled/*.load\n", "mods-available/ssl.load": "LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so\n" },
      {},
      { layout: "debian", mount: "/etc/apache2", mainFile: "apache2.conf", links: { "mods-enabled/ssl.load": "mods-available/ssl.load" } },
    );
    expect(lines(config.nodes)).toEqual(["LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so"]);
    // httpd names the file by the path it opened (DUMP_INCLUDES on 2.4.68, -S on 2.2.34): the link's.
    expect(config.files).toEqual(["apache2.conf", "mods-enabled/ssl.load"]);
    expect(config.nodes[0]!.span.file).toBe("mods-enabled/ssl.load");
  });
});

describe("IfModule", () => {
  test("takes the module id or the source file, negation, LoadModule lines read so far and built-in modules", () => {
    const config = evaluate({
      "conf/httpd.conf": [
        "<IfModule ssl_module>",
        "Listen 1",
        "</IfModule>",
        "LoadModule ssl_module modules/mod_ssl.so",
        "<IfModule ssl_module>",
        "Listen 2",
        "</IfModule>",
        "<IfModule mod_ssl.c>",
        "Listen 3",
        "</IfModule>",
        "<IfModule !mod_rewrite.c>",
        "Listen 4",
        "</IfModule>",
        "<IfModule prefork.c>",
        "Listen 5",
        "</IfModule>",
        "<IfModule mpm_prefork_module>",
        "Listen 6",
        "</IfModule>",
        "",
      ].join("\n"),
    }, { builtinModules: ["core.c", "prefork.c"] });
    expect(lines(config.nodes)).toEqual(["LoadModule ssl_module modules/mod_ssl.so", "Listen 2", "Listen 3", "Listen 4", "Listen 5", "Listen 6"]);
    const listen3 = config.nodes[2]!;
    expect(listen3.guards).toEqual([{ name: "IfModule", condition: "mod_ssl.c", span: expect.objectContaining({ line: 8 }) }]);
  });

  test("a VirtualHost inside an IfModule of a module not loaded is not there, nor is what it includes", () => {
    const config = evaluate({
      "conf/httpd.conf": "<IfModule mod_ssl.c>\n<VirtualHost *:443>\nInclude conf/ssl.conf\n</VirtualHost>\n</IfModule>\nServerName x\n",
      "conf/ssl.conf": "SSLEngine on\n",
    });
    expect(lines(config.nodes)).toEqual(["ServerName x"]);
    expect(config.files).toEqual(["conf/httpd.conf"]);
  });

  test("guards nest, innermost last", () => {
    const config = evaluate(
      { "conf/httpd.conf": "<IfDefine SSL>\n<IfModule !mod_x.c>\nListen 443\n</IfModule>\n</IfDefine>\n" },
      { defines: ["SSL"] },
    );
    expect(config.nodes[0]!.guards.map((g) => `${g.name} ${g.condition}`)).toEqual(["IfDefine SSL", "IfModule !mod_x.c"]);
  });
});

describe("IfDefine, Define and ${VAR}", () => {
  test("-D names in any spelling: NAME, -DNAME, -D NAME; NAME=value is one name as httpd's main.c keeps it", () => {
    const conf = "<IfDefine A>\nListen 1\n</IfDefine>\n<IfDefine B>\nListen 2\n</IfDefine>\n<IfDefine C>\nListen 3\n</IfDefine>\n<IfDefine !D>\nListen 4\n</IfDefine>\n<IfDefine D=1>\nListen 5\n</IfDefine>\n";
    const config = evaluate({ "conf/httpd.conf": conf }, { defines: ["A", "-DB", "-D C", "D=1"] });
    expect(lines(config.nodes)).toEqual(["Listen 1", "Listen 2", "Listen 3", "Listen 4", "Listen 5"]);
    expect(config.defines).toEqual({ A: "", B: "", C: "", "D=1": "" });
  });

  test("Define acts in file order: before it the name is undefined, after UnDefine too", () => {
    const config = evaluate({
      "conf/httpd.conf": "<IfDefine X>\nListen 1\n</IfDefine>\nDefine X\n<IfDefine X>\nListen 2\n</IfDefine>\nUnDefine X\n<IfDefine X>\nListen 3\n</IfDefine>\n",
    });
    expect(lines(config.nodes)).toEqual(["Define X", "Listen 2", "UnDefine X"]);
    expect(config.defines).toEqual({});
  });

  test("a Define inside a VirtualHost is global on 2.4 (it runs while the file is read)", () => {
    const config = evaluate({
      "conf/httpd.conf": "<VirtualHost *:80>\nDefine ROOT /srv/site\n</VirtualHost>\nDocumentRoot ${ROOT}\n",
    });
    expect(lines(config.nodes)).toEqual(["<VirtualHost *:80>", "Define ROOT /srv/site", "DocumentRoot /srv/site"]);
    expect(config.defines).toEqual({ ROOT: "/srv/site" });
  });

  test("a Define value may hold '=' and spaces; substitution happens before the line is split, as httpd does", () => {
    const config = evaluate({
      "conf/httpd.conf": 'Define OPTS "a=b c=d"\nSetEnv ${OPTS}\nHeader set X "${OPTS}"\n',
    });
    expect(lines(config.nodes)).toEqual(["Define OPTS a=b c=d", "SetEnv a=b c=d", "Header set X a=b c=d"]);
    expect(config.nodes[1]!.args).toEqual(["a=b", "c=d"]);
    expect(config.nodes[2]!.args).toEqual(["set", "X", "a=b c=d"]);
  });

  test("an undefined ${VAR} stays as written with an AH00111 warning on 2.4, silently on 2.2", () => {
    const files = { "conf/httpd.conf": "DocumentRoot ${NOPE}/x\nServerName ${HOST}\n" };
    const on24 = evaluate(files, { environment: { HOST: "h.example" } });
    expect(lines(on24.nodes)).toEqual(["DocumentRoot ${NOPE}/x", "ServerName h.example"]);
    expect(problems(on24)).toEqual(["warning conf/httpd.conf:1 Config variable ${NOPE} is not defined (AH00111); httpd keeps the text as written"]);
    const on22 = evaluate(files, { version: V22, environment: { HOST: "h.example" } });
    expect(lines(on22.nodes)).toEqual(["DocumentRoot ${NOPE}/x", "ServerName h.example"]);
    expect(on22.problems).toEqual([]);
  });

  test("2.2 has no Define: it is refused and its value is never a variable; ${ENV} still comes from the environment", () => {
    const config = evaluate({ "conf/httpd.conf": "Define X 1\nListen ${X}\nServerName ${H}\n" }, { version: V22, environment: { H: "env.example" } });
    expect(lines(config.nodes)).toEqual(["Define X 1", "Listen ${X}", "ServerName env.example"]);
    expect(problems(config)).toEqual([
      "refusal conf/httpd.conf:1 Invalid command 'Define', perhaps misspelled or defined by a module not included in the server configuration",
    ]);
  });

  test("a Define'd value wins over the environment on 2.4", () => {
    const config = evaluate({ "conf/httpd.conf": "Define H def\nServerName ${H}\n" }, { environment: { H: "env" } });
    expect(config.nodes[1]!.args).toEqual(["def"]);
  });

  test("a variable in a conditional's argument is substituted first", () => {
    const config = evaluate({ "conf/httpd.conf": "Define M mod_ssl.c\nLoadModule ssl_module m.so\n<IfModule ${M}>\nListen 443\n</IfModule>\n" });
    expect(lines(config.nodes)).toContain("Listen 443");
    expect(config.nodes[2]!.guards.map((g) => g.condition)).toEqual(["${M}"]);
  });
});

describe("IfVersion", () => {
  const sections = [
    "<IfVersion 2.4.62>", // 1
    "<IfVersion = 2.4>", // 2: 2.4 means 2.4.0
    "<IfVersion >= 2.4>", // 3
    "<IfVersion < 2.4>", // 4
    "<IfVersion <= 2.2.34>", // 5
    "<IfVersion > 2.2>", // 6
    "<IfVersion != 2.2.34>", // 7
    "<IfVersion ~ ^2\\.4\\.>", // 8
    "<IfVersion = /^2\\.2/>", // 9
    "<IfVersion !~ ^2\\.2>", // 10
    "<IfVersion == 2.2.34>", // 11
  ];
  const conf = sections.map((open, i) => `${open}\nListen ${i + 1}\n</IfVersion>`).join("\n") + "\n";
  const withModule = `LoadModule version_module modules/mod_version.so\n${conf}`;
  const held = (config: EffectiveConfig): string[] => lines(config.nodes).filter((l) => l.startsWith("Listen"));

  test("operators and regexes on 2.4.62", () => {
    expect(held(evaluate({ "conf/httpd.conf": withModule }))).toEqual(["Listen 1", "Listen 3", "Listen 6", "Listen 7", "Listen 8", "Listen 10"]);
  });

  test("operators and regexes on 2.2.34", () => {
    expect(held(evaluate({ "conf/httpd.conf": withModule }, { version: V22 }))).toEqual(["Listen 4", "Listen 5", "Listen 6", "Listen 9", "Listen 11"]);
  });

  test("mod_version built in works like loaded", () => {
    expect(held(evaluate({ "conf/httpd.conf": conf }, { builtinModules: ["core.c", "mod_version.c"] }))).toHaveLength(6);
  });

  test("without mod_version <IfVersion> is an unknown section: kept with its content, and refused", () => {
    const config = evaluate({ "conf/httpd.conf": "<IfVersion >= 2.4>\nListen 1\n</IfVersion>\n" });
    expect(lines(config.nodes)).toEqual(["<IfVersion >= 2.4>", "Listen 1"]);
    expect(config.problems.map((p) => [p.severity, p.line])).toEqual([["refusal", 1]]);
  });

  test("an unrecognized operator is refused", () => {
    const config = evaluate({ "conf/httpd.conf": "LoadModule version_module m.so\n<IfVersion =~ 2.4>\nListen 1\n</IfVersion>\n" });
    expect(problems(config)).toEqual(["refusal conf/httpd.conf:2 unrecognized operator '=~'"]);
    expect(lines(config.nodes)).toEqual(["LoadModule version_module m.so"]);
  });
});

describe("other conditionals", () => {
  test("<IfFile> (2.4) tests a path relative to ServerRoot in the tree; 2.2 refuses it as unknown", () => {
    const files = { "conf/httpd.conf": "<IfFile conf/extra.conf>\nListen 1\n</IfFile>\n<IfFile !/usr/local/apache2/nope>\nListen 2\n</IfFile>\n", "conf/extra.conf": "" };
    expect(lines(evaluate(files).nodes)).toEqual(["Listen 1", "Listen 2"]);
    const on22 = evaluate(files, { version: V22 });
    expect(lines(on22.nodes)).toEqual(["<IfFile conf/extra.conf>", "Listen 1", "<IfFile !/usr/local/apache2/nope>", "Listen 2"]);
    expect(on22.problems.map((p) => [p.severity, p.line])).toEqual([["refusal", 1], ["refusal", 4]]);
  });

  test("a section that does not hold is not read at all: no Include, no Define, no variable warnings", () => {
    const config = evaluate({
      "conf/httpd.conf": "<IfDefine NOPE>\nInclude conf/x.conf\nDefine Y\nServerName ${UNSET}\n</IfDefine>\n<IfDefine Y>\nListen 1\n</IfDefine>\n",
      "conf/x.conf": "Listen 2\n",
    });
    expect(config.nodes).toEqual([]);
    expect(config.files).toEqual(["conf/httpd.conf"]);
    expect(config.problems).toEqual([]);
  });
});

describe("Macro", () => {
  const conf = [
    "LoadModule macro_module modules/mod_macro.so",
    "<Macro VHost $host $port>",
    "<VirtualHost *:$port>",
    "  ServerName $host",
    "  DocumentRoot /srv/${host}",
    "</VirtualHost>",
    "</Macro>",
    "Use VHost a.example 80",
    "Use vhost b.example 8080",
    "",
  ].join("\n");

  test("Use expands the body with its arguments, spans on the body's lines", () => {
    const config = evaluate({ "conf/httpd.conf": conf });
    expect(lines(config.nodes)).toEqual([
      "LoadModule macro_module modules/mod_macro.so",
      "<VirtualHost *:80>",
      "ServerName a.example",
      "DocumentRoot /srv/${host}",
      "<VirtualHost *:8080>",
      "ServerName b.example",
      "DocumentRoot /srv/${host}",
    ]);
    const vhost = config.nodes[1]!;
    expect(vhost.kind === "section" && vhost.children[0]!.span).toMatchObject({ file: "conf/httpd.conf", line: 4, column: 3 });
    expect(vhost.viaMacro).toEqual({ name: "vhost", span: expect.objectContaining({ line: 8 }) });
    expect(config.nodes[0]!.viaMacro).toBeUndefined();
    // `${host}` is no parameter here (mod_macro replaces names literally), so 2.4 warns about it as a variable.
    expect(config.problems.map((p) => [p.severity, p.line])).toEqual([["warning", 5], ["warning", 5]]);
  });

  test("without mod_macro, Macro stays a plain section and Use is refused", () => {
    const config = evaluate({ "conf/httpd.conf": conf.split("\n").slice(1).join("\n") });
    expect(lines(config.nodes)[0]).toBe("<Macro VHost $host $port>");
    expect(config.problems.filter((p) => p.severity === "refusal").map((p) => p.line)).toEqual([1, 7, 8]);
  });

  test("a wrong argument count is refused", () => {
    const config = evaluate({ "conf/httpd.conf": "LoadModule macro_module m.so\n<Macro M $a>\nListen $a\n</Macro>\nUse M 1 2\n" });
    expect(problems(config)).toEqual(["refusal conf/httpd.conf:5 macro 'm' used with 2 arguments instead of 1"]);
  });
});

describe("envvars", () => {
  test("a Debian tree's envvars feed ${APACHE_*}; the caller's environment wins", () => {
    const envvars = [
      "unset HOME",
      'if [ "${APACHE_CONFDIR##/etc/apache2-}" != "${APACHE_CONFDIR}" ] ; then',
      '\tSUFFIX="-${APACHE_CONFDIR##/etc/apache2-}"',
      "else",
      "\tSUFFIX=",
      "fi",
      "export APACHE_RUN_USER=www-data",
      "export APACHE_RUN_GROUP=www-data",
      "export APACHE_PID_FILE=/var/run/apache2$SUFFIX/apache2.pid",
      "export APACHE_LOG_DIR=/var/log/apache2$SUFFIX",
      "",
    ].join("\n");
    const config = evaluate(
      { "apache2.conf": "User ${APACHE_RUN_USER}\nPidFile ${APACHE_PID_FILE}\nErrorLog ${APACHE_LOG_DIR}/error.log\n", envvars },
      { environment: { APACHE_LOG_DIR: "/logs" } },
      { layout: "debian", mount: "/etc/apache2", mainFile: "apache2.conf" },
    );
    expect(lines(config.nodes)).toEqual(["User www-data", "PidFile /var/run/apache2/apache2.pid", "ErrorLog /logs/error.log"]);
    expect(config.environment).toMatchObject({ APACHE_RUN_USER: "www-data", APACHE_LOG_DIR: "/logs", APACHE_CONFDIR: "/etc/apache2", APACHE_ENVVARS: "/etc/apache2/envvars" });
    expect(config.environment).not.toHaveProperty("SUFFIX");
    expect(config.problems).toEqual([]);
  });
});

describe("two evaluations of one tree", () => {
  const files = {
    "conf/httpd.conf": [
      "LoadModule version_module modules/mod_version.so",
      "ServerName example.test",
      "ErrorLog ${LOGS}/error.log",
      "<VirtualHost *:80>",
      "  ServerName a.example.test",
      "  <Directory /srv/a>",
      "    Order allow,deny",
      "  </Directory>",
      "</VirtualHost>",
      "<VirtualHost *:80>",
      "  ServerName b.example.test",
      "  <IfVersion >= 2.4>",
      "    Require all granted",
      "  </IfVersion>",
      "</VirtualHost>",
      "",
    ].join("\n"),
  };
  const tree = memoryTree(files);
  const options = { defines: [], builtinModules: ["core.c", "mod_so.c"] };
  const on22 = evaluateTree(tree, { ...options, version: V22, environment: { LOGS: "/var/log/a" } });
  const on24 = evaluateTree(tree, { ...options, version: V24, environment: { LOGS: "/var/log/b" } });

  test("share the nodes that read the same on both versions, and each view keeps its own reading", () => {
    // The views differ in the ErrorLog's ${LOGS} and in the second vhost's <IfVersion >= 2.4> content.
    const read = (logs: string): string[] => [
      "LoadModule version_module modules/mod_version.so",
      "ServerName example.test",
      `ErrorLog ${logs}/error.log`,
      "<VirtualHost *:80>",
      "ServerName a.example.test",
      "<Directory /srv/a>",
      "Order allow,deny",
      "<VirtualHost *:80>",
      "ServerName b.example.test",
    ];
    expect(lines(on22.nodes)).toEqual(read("/var/log/a"));
    expect(lines(on24.nodes)).toEqual([...read("/var/log/b"), "Require all granted"]);
    // Same reading, same object: the first vhost whole, the lines around.
    expect(on24.nodes[1]).toBe(on22.nodes[1]);
    expect(on24.nodes[3]).toBe(on22.nodes[3]);
    // A line whose ${VAR} reads differently, and a section whose content differs, are each view's own.
    expect(on24.nodes[2]).not.toBe(on22.nodes[2]);
    expect(on24.nodes[4]).not.toBe(on22.nodes[4]);
    const [vhost22, vhost24] = [on22.nodes[4], on24.nodes[4]];
    expect(vhost22?.kind === "section" && vhost24?.kind === "section" && vhost24.children[0] === vhost22.children[0]).toBe(true);
  });

  test("a third evaluation like the first gives the first's reading, not the second's", () => {
    const again = evaluateTree(tree, { ...options, version: V22, environment: { LOGS: "/var/log/a" } });
    expect(lines(again.nodes)).toEqual(lines(on22.nodes));
    expect(again.nodes[2]?.kind === "directive" && again.nodes[2].args).toEqual(["/var/log/a/error.log"]);
  });
});
