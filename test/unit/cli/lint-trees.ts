// Configuration trees for the lint command's tests, written into temp dirs, and an in-process runner for
// `runLintCommand` with the rules a test chooses (the CLI's own path runs every registered rule).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { runLintCommand } from "../../../harness/cli/lint-command.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import type { CliRun } from "./config-command-output.ts";

export function writeTree(files: Record<string, string>, prefix = "lint-tree-"): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A Debian /etc/apache2 whose site file is reached through `Include sites-enabled/` on line 6: a 2.2
 * LockFile (R9) in apache2.conf, a RewriteEngine of a module the tree never loads (B4) in the site. */
export const DEBIAN_TREE: Record<string, string> = {
  "apache2.conf": [
    "# Debian's main file",
    "PidFile ${APACHE_PID_FILE}",
    "LockFile ${APACHE_LOCK_DIR}/accept.lock",
    "IncludeOptional mods-enabled/*.load",
    "Listen 80",
    "Include sites-enabled/",
    "",
  ].join("\n"),
  envvars: "export APACHE_LOCK_DIR=/var/lock/apache2\nexport APACHE_PID_FILE=/var/run/apache2.pid\nexport APACHE_RUN_USER=www-data\n",
  "mods-enabled/mpm_prefork.load": "LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so\n",
  "sites-enabled/000-default.conf": "<VirtualHost *:80>\n    ServerName a.example.test\n    RewriteEngine on\n</VirtualHost>\n",
};

/** An official-layout tree already written for 2.4: nothing above deprecated. */
export const PORTED_TREE: Record<string, string> = {
  "conf/httpd.conf": [
    'ServerRoot "/usr/local/apache2"',
    "LoadModule mpm_event_module modules/mod_mpm_event.so",
    "LoadModule authz_core_module modules/mod_authz_core.so",
    "LoadModule unixd_module modules/mod_unixd.so",
    "Listen 80",
    "ServerName ported.example.test",
    'DocumentRoot "/usr/local/apache2/htdocs"',
    '<Directory "/usr/local/apache2/htdocs">',
    "    Require all granted",
    "</Directory>",
    "",
  ].join("\n"),
};

/** A tree httpd cannot read as given: a section never closed. */
export const UNCLOSED_TREE: Record<string, string> = {
  "conf/httpd.conf": 'ServerRoot "/usr/local/apache2"\nListen 80\n<VirtualHost *:80>\n    ServerName open.example.test\n',
};

/** runLintCommand in-process with stdout captured; a HarnessError is thrown, not turned into a status. */
export async function runLint(args: string[], rules?: readonly Rule[]): Promise<CliRun> {
  let stdout = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const status = await runLintCommand(args, rules);
    return { status, stdout, stderr: "" };
  } finally {
    out.mockRestore();
  }
}
