// Prepare commands run in the server image, and the baseline image (httpd:2.2.34) has httpd's tools and a bare
// Debian base only: no openssl, Perl modules or network tools. Every catalogue scenario must keep to the list in
// harness/scenario/prepare-tools.ts. The commands are read from the YAML itself, not through the loader, so this
// holds even if the loader's own check went missing.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { findScenarioFiles, loadScenarios } from "../../../harness/scenario/load-scenario.ts";
import { commandPrograms, prepareToolProblems } from "../../../harness/scenario/prepare-tools.ts";
import type { Family } from "../../../harness/scenario/scenario.ts";

const CATALOGUE = fileURLToPath(new URL("../../../scenarios/catalogue/", import.meta.url));

interface PrepareCommand {
  file: string;
  /** "both" for a list that runs on both versions. */
  version: "both" | Family;
  command: string;
}

/** The server.prepare commands of a scenario file as written. */
function prepareCommands(file: string, text: string): PrepareCommand[] {
  const prepare = (parse(text) as { server?: { prepare?: unknown } } | null)?.server?.prepare;
  if (prepare === undefined || prepare === null) return [];
  const lists: Array<[string, unknown]> = Array.isArray(prepare) ? [["both", prepare]] : Object.entries(prepare as object);
  return lists.flatMap(([version, commands]) =>
    (commands as unknown[]).map((command) => ({ file, version: version as PrepareCommand["version"], command: String(command) })),
  );
}

/** One line per program a command may not run: the file, the command and the program. */
function offences(commands: readonly PrepareCommand[]): string[] {
  return commands.flatMap(({ file, version, command }) =>
    prepareToolProblems(command, version === "both" ? ["2.2", "2.4"] : [version]).map(
      (problem) => `${file}: prepare${version === "both" ? "" : `["${version}"]`} "${command}" runs ${problem.name}: ${problem.problem}`,
    ),
  );
}

async function catalogueCommands(): Promise<PrepareCommand[]> {
  const files = await findScenarioFiles([CATALOGUE]);
  return files.flatMap((file) => prepareCommands(relative(CATALOGUE, file), readFileSync(file, "utf8")));
}

describe("catalogue prepare commands", () => {
  it("run only httpd's tools and POSIX sh utilities, which every httpd image has", async () => {
    const commands = await catalogueCommands();
    // Not vacuous: the catalogue prepares password files, DBM files, cache directories and test files.
    expect(commands.length).toBeGreaterThan(30);
    for (const { command } of commands) expect(commandPrograms(command).length, command).toBeGreaterThan(0);
    expect(offences(commands)).toEqual([]);
  });

  it("fails on the openssl command the S8 DN scenarios used to run, naming the file, command and program", () => {
    const old =
      "openssl req -x509 -newkey rsa:2048 -sha256 -nodes -days 30 -subj '/C=DE/O=Example, Inc./OU=Web/CN=server.test' " +
      "-addext basicConstraints=critical,CA:FALSE -addext subjectAltName=DNS:server.test -keyout /tmp/dn-server.key " +
      "-out /tmp/dn-server.crt >/dev/null 2>&1";
    const text = ["id: ssl-dn-format-default", "title: T", "server:", "  prepare:", `    - ${JSON.stringify(old)}`, ""].join("\n");
    expect(offences(prepareCommands("ssl-proxy/ssl-dn-format-default.scenario.yaml", text))).toEqual([
      `ssl-proxy/ssl-dn-format-default.scenario.yaml: prepare "${old}" runs openssl: runs "openssl", which is not a program every httpd image has`,
    ]);
  });

  it("also finds a program hidden in a substitution or sh -c, and a 2.4-only tool in a list for both", () => {
    const text = [
      "server:",
      "  prepare:",
      "    \"2.2\": ['echo \"$(perl -e 1)\" > x', \"sh -c 'mkdir -p /a && curl -o /a/f http://h/'\"]",
      "    \"2.4\": ['fcgistarter -c /bin/true -p 9000']",
      "",
    ].join("\n");
    const found = offences(prepareCommands("x.scenario.yaml", text)).map((line) => line.replace(/: runs "[^"]*", .*$/, ""));
    expect(found).toEqual([
      'x.scenario.yaml: prepare["2.2"] "echo "$(perl -e 1)" > x" runs perl',
      `x.scenario.yaml: prepare["2.2"] "sh -c 'mkdir -p /a && curl -o /a/f http://h/'" runs curl`,
    ]);
    const both = prepareCommands("y.scenario.yaml", "server:\n  prepare: ['fcgistarter -c /bin/true -p 9000']\n");
    expect(offences(both)).toEqual([
      `y.scenario.yaml: prepare "fcgistarter -c /bin/true -p 9000" runs fcgistarter: runs "fcgistarter", which only httpd 2.4's image has; this command also runs on 2.2`,
    ]);
  });

  it("pass the loader's own check: the whole catalogue loads", async () => {
    await expect(loadScenarios([CATALOGUE])).resolves.not.toHaveLength(0);
  });
});
