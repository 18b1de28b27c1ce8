import { describe, expect, it } from "vitest";
import { COMPILED_IN_MODULES, compiledInModules, versionFor } from "../../../harness/cli/config-command.ts";
import { builtinModuleId } from "../../../harness/conf/queries/loaded-modules.ts";
import { officialDefaults } from "../../../harness/server/official-defaults.ts";
import { FIXTURES, runCli } from "./config-command-output.ts";

describe("config: text output", () => {
  it("prints the files, modules, vhosts and every directive with file:line for 2.4", async () => {
    const { status, stdout, stderr } = await runCli("config", `${FIXTURES}official`);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toContain("httpd 2.4.68, layout official, main file conf/httpd.conf\n");
    expect(stdout).toContain("Included configuration files:\n  (*) conf/httpd.conf\n      conf/extra/vhosts.conf\n");
    expect(stdout).toContain(" core_module (static)\n so_module (static)\n http_module (static)\n version_module (shared)  conf/httpd.conf:6\n mpm_event_module (shared)  conf/httpd.conf:8\n");
    expect(stdout).toContain("Server MPM: event (conf/httpd.conf:8)\n");
    expect(stdout).toContain(
      [
        "*:80                   is a NameVirtualHost",
        "         default server www.example.test (conf/extra/vhosts.conf:1)",
        "         port 80 namevhost www.example.test (conf/extra/vhosts.conf:1)",
        "                 alias example.test",
        "         port 80 namevhost shop.example.test (conf/extra/vhosts.conf:10)",
        "*:443                  www.example.test (conf/extra/vhosts.conf:15) [TLS]",
        'ServerRoot: "/usr/local/apache2"',
      ].join("\n"),
    );
    expect(stdout).toMatch(/^conf\/httpd\.conf:25:9 +      Require all granted$/m);
    // The longest position sets the column; one level of section indents by two more.
    expect(stdout).toMatch(/^conf\/extra\/vhosts\.conf:12:5 {4}Alias \/static\/ \/srv\/static\/$/m);
    expect(stdout).not.toContain("Order allow,deny");
    expect(stdout).not.toContain("Problems:");
  });

  it("evaluates for 2.2 with -D: the builtin prefork MPM, the 2.2 branch, the IfDefine content", async () => {
    const { status, stdout } = await runCli("config", `${FIXTURES}official`, "--for", "2.2", "-D", "STAGING");
    expect(status).toBe(0);
    expect(stdout).toContain("httpd 2.2.34, layout official");
    expect(stdout).toContain(" core_module (static)\n mpm_prefork_module (static)\n http_module (static)\n so_module (static)\n");
    expect(stdout).toContain("Server MPM: prefork (compiled in)\n");
    expect(stdout).not.toContain("mpm_event_module");
    expect(stdout).toContain("Order allow,deny");
    expect(stdout).toContain("ServerAlias staging.example.test");
    expect(stdout).toContain("Define: STAGING\n");
    // No NameVirtualHost line: 2.2 does not match names on *:80, each vhost stands alone.
    expect(stdout).toContain("*:80                   www.example.test (conf/extra/vhosts.conf:1)\n*:80                   shop.example.test");
  });

  it("reads a Debian tree with its envvars and wildcard includes", async () => {
    const { status, stdout } = await runCli("config", `${FIXTURES}debian`);
    expect(status).toBe(0);
    expect(stdout).toContain("layout debian, main file apache2.conf");
    expect(stdout).toContain("  (*) apache2.conf\n      mods-enabled/mpm_prefork.load\n      sites-enabled/000-default.conf\n");
    expect(stdout).toContain(" unixd_module (static)\n");
    expect(stdout).toContain('User: name="www-data" (apache2.conf:4)');
    expect(stdout).toContain('PidFile: "/var/run/apache2/apache2.pid" (apache2.conf:3)');
    expect(stdout).toContain("*:80                   debian.example.test (sites-enabled/000-default.conf:1)");
  });

  it("prints everything, then the error, and exits 2 when the tree holds an error", async () => {
    const { status, stdout } = await runCli("config", `${FIXTURES}broken`);
    expect(status).toBe(2);
    expect(stdout).toContain("ServerName broken.example.test");
    // The evaluator words the message; the command's part is where it stands and that it comes last.
    expect(stdout).toMatch(/\nProblems:\nconf\/httpd\.conf:3:1: error: [^\n]*VirtualHost[^\n]*\n(?: {4}[^\n]*\n)?$/);
  });
});

describe("config: options", () => {
  it.each([
    [["config"], /one PATH/],
    [["config", "a", "b"], /one PATH/],
    [["config", `${FIXTURES}official`, "--for", "3.0"], /--for "3.0"/],
    [["config", `${FIXTURES}official`, "--for", "2.4.x"], /--for "2.4.x"/],
    [["config", `${FIXTURES}official`, "--layout", "suse"], /--layout "suse"/],
    [["config", `${FIXTURES}official`, "--format", "yaml"], /--format "yaml"/],
    [["config", `${FIXTURES}official`, "--bogus"], /bogus/],
  ])("refuses %j with HARNESS_USAGE and status 2", async (argv, message) => {
    const { status, stderr, stdout } = await runCli(...argv);
    expect(status).toBe(2);
    expect(stderr).toContain("HARNESS_USAGE");
    expect(stderr).toMatch(message);
    expect(stdout).toBe("");
  });

  it("names a missing path as bad input", async () => {
    const { status, stderr } = await runCli("config", `${FIXTURES}no-such-tree`);
    expect(status).toBe(2);
    expect(stderr).toContain("HARNESS_CONFIG_FILE");
  });

  it("takes a family or a release for --for", () => {
    expect(versionFor("2.2").text).toBe("2.2.34");
    expect(versionFor("2.4").text).toBe("2.4.68");
    expect(versionFor("2.4.62").text).toBe("2.4.62");
  });

  it("lists in the usage text", async () => {
    const { stdout } = await runCli("help");
    expect(stdout).toContain("httpd-upgrade-harness config PATH [--for 2.2|2.4|X.Y.Z] [-D NAME]...");
  });
});

describe("compiledInModules", () => {
  it("agrees with the official images' builtin modules the plan stage uses", () => {
    for (const family of ["2.2", "2.4"] as const) {
      const ids = COMPILED_IN_MODULES[family].map(builtinModuleId).map((id) => id.replace(/_module$/, ""));
      expect(new Set(ids)).toEqual(officialDefaults("httpd", versionFor(family)).builtinModules);
    }
  });

  it("has Debian's own list for its 2.4 build", () => {
    expect(compiledInModules("2.4", "debian")).toContain("mod_unixd.c");
    expect(compiledInModules("2.4", "rhel")).toEqual(["core.c", "mod_so.c", "http_core.c"]);
  });
});
