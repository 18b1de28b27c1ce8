import { describe, expect, it } from "vitest";
import { guessedServerName, parseConfigRefusal, parseIncludesDump, parseModulesDump, parseRunSettings, parseVhostsDump } from "../../../harness/conf/httpd-dumps.ts";

describe("httpd's dumps read back", () => {
  it("reads -t -D DUMP_INCLUDES with the Include line and depth of every file", () => {
    const stdout = [
      "Included configuration files:",
      "  (*) /usr/local/apache2/conf/httpd.conf",
      "    (101) /usr/local/apache2/conf/extra/site.conf",
      "      (24) /usr/local/apache2/conf/extra/shared.conf",
      "    (102) /usr/local/apache2/conf/extra/tls.conf",
      "",
    ].join("\n");
    expect(parseIncludesDump(stdout)).toEqual([
      { path: "/usr/local/apache2/conf/httpd.conf", includedAt: null, depth: 0 },
      { path: "/usr/local/apache2/conf/extra/site.conf", includedAt: 101, depth: 1 },
      { path: "/usr/local/apache2/conf/extra/shared.conf", includedAt: 24, depth: 2 },
      { path: "/usr/local/apache2/conf/extra/tls.conf", includedAt: 102, depth: 1 },
    ]);
  });

  it("reads -M, static and shared", () => {
    expect(parseModulesDump("Loaded Modules:\n core_module (static)\n mpm_prefork_module (static)\n rewrite_module (shared)\n")).toEqual([
      { id: "core_module", origin: "static" },
      { id: "mpm_prefork_module", origin: "static" },
      { id: "rewrite_module", origin: "shared" },
    ]);
  });

  it("reads 2.4's -S: name-based addresses with aliases and wild aliases, single vhosts, and stops at the run settings", () => {
    const stdout = [
      "VirtualHost configuration:",
      "192.0.2.7:443          secure.example.test (/srv/conf/tls.conf:3)",
      "*:80                   is a NameVirtualHost",
      "         default server first.example.test (/srv/conf/sites.conf:8)",
      "         port 80 namevhost first.example.test (/srv/conf/sites.conf:8)",
      "         port 80 namevhost blog.example.test (/srv/conf/sites.conf:32)",
      "                 alias blog.example.net",
      "                 wild alias *.blog.example.test",
      'ServerRoot: "/usr/local/apache2"',
      "User: name=\"daemon\" id=1",
    ].join("\n");
    expect(parseVhostsDump(stdout)).toEqual([
      {
        address: "192.0.2.7:443",
        nameBased: false,
        defaultServer: { name: "secure.example.test", file: "/srv/conf/tls.conf", line: 3 },
        vhosts: [{ name: "secure.example.test", file: "/srv/conf/tls.conf", line: 3, aliases: [], wildAliases: [] }],
      },
      {
        address: "*:80",
        nameBased: true,
        defaultServer: { name: "first.example.test", file: "/srv/conf/sites.conf", line: 8 },
        vhosts: [
          { name: "first.example.test", file: "/srv/conf/sites.conf", line: 8, aliases: [], wildAliases: [] },
          { name: "blog.example.test", file: "/srv/conf/sites.conf", line: 32, aliases: ["blog.example.net"], wildAliases: ["*.blog.example.test"] },
        ],
      },
    ]);
  });

  it("reads 2.2's -S with its wildcard header and _default_ addresses; no vhost is no address", () => {
    const stdout = [
      "VirtualHost configuration:",
      "wildcard NameVirtualHosts and _default_ servers:",
      "_default_:443          172.17.0.2 (/etc/apache2/sites-enabled/default-ssl:2)",
      "*:80                   is a NameVirtualHost",
      "         default server 172.17.0.2 (/etc/apache2/sites-enabled/000-default:1)",
      "         port 80 namevhost 172.17.0.2 (/etc/apache2/sites-enabled/000-default:1)",
      "",
    ].join("\n");
    expect(parseVhostsDump(stdout).map((a) => [a.address, a.nameBased, a.defaultServer.file, a.vhosts.length])).toEqual([
      ["_default_:443", false, "/etc/apache2/sites-enabled/default-ssl", 1],
      ["*:80", true, "/etc/apache2/sites-enabled/000-default", 1],
    ]);
    expect(parseVhostsDump("VirtualHost configuration:\n")).toEqual([]);
    expect(parseVhostsDump("VirtualHost configuration:\nServerRoot: \"/usr/local/apache2\"\n")).toEqual([]);
  });

  it("reads the refusal a config test ends with, on 2.4 (AH00526) and 2.2", () => {
    const on24 = [
      "AH00548: NameVirtualHost has no effect and will be removed in the next release /usr/local/apache2/conf/extra/sites.conf:5",
      "AH00526: Syntax error on line 27 of /usr/local/apache2/conf/extra/sites.conf:",
      "Invalid command 'RewriteLog', perhaps misspelled or defined by a module not included in the server configuration",
    ].join("\n");
    expect(parseConfigRefusal(on24)).toEqual({
      file: "/usr/local/apache2/conf/extra/sites.conf",
      line: 27,
      message: "Invalid command 'RewriteLog', perhaps misspelled or defined by a module not included in the server configuration",
    });
    expect(parseConfigRefusal("Syntax error on line 3 of /etc/httpd/conf/httpd.conf:\nInvalid command 'Require'\n")).toMatchObject({ file: "/etc/httpd/conf/httpd.conf", line: 3 });
    expect(parseConfigRefusal("Syntax OK\n")).toBeNull();
  });

  it("reads the address httpd names itself by without a ServerName, in both versions' wording", () => {
    expect(guessedServerName("httpd: Could not reliably determine the server's fully qualified domain name, using 172.17.0.2 for ServerName\nSyntax OK")).toBe("172.17.0.2");
    expect(
      guessedServerName("AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 172.17.0.2. Set the 'ServerName' directive globally to suppress this message"),
    ).toBe("172.17.0.2");
    expect(guessedServerName("Syntax OK")).toBeNull();
  });
});

describe("2.4's run settings after -S's vhosts", () => {
  it("reads ServerRoot, the main DocumentRoot and ErrorLog, PidFile, User and Group; null where a line is missing", () => {
    const stdout = [
      "VirtualHost configuration:",
      'ServerRoot: "/usr/local/apache2"',
      'Main DocumentRoot: "/usr/local/apache2/htdocs"',
      'Main ErrorLog: "/proc/self/fd/2"',
      'Mutex default: dir="/usr/local/apache2/logs/" mechanism=default ',
      'PidFile: "/usr/local/apache2/logs/httpd.pid"',
      "Define: DUMP_VHOSTS",
      'User: name="daemon" id=1',
      'Group: name="daemon" id=1',
    ].join("\n");
    expect(parseRunSettings(stdout)).toEqual({
      serverRoot: "/usr/local/apache2",
      documentRoot: "/usr/local/apache2/htdocs",
      errorLog: "/proc/self/fd/2",
      pidFile: "/usr/local/apache2/logs/httpd.pid",
      user: "daemon",
      group: "daemon",
    });
    expect(parseRunSettings("VirtualHost configuration:\n").user).toBeNull();
  });
});
