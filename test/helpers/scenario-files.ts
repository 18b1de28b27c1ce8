// Scenario files the CLI tests write to a temporary directory: one small scenario that answers a status.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** GET / of a page every client may read, expecting `status` on both versions. */
export function statusScenario(status: number, id = `status-${status}`): string {
  return `
id: ${id}
title: GET / answers ${status}
seed: [U1]
server:
  config: |
    <Directory "{{server.docroot}}">
        Require all granted
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: index, path: /, expect: { both: { status: ${status} } } }
`;
}

/** A temporary directory holding the given files (name → text). */
export function scenarioDir(files: Record<string, string>, prefix = "harness-cli-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A difference planted for the version matrix and bisect tests: a config that answers differently from httpd
 * 2.4.68 on (<IfVersion >= 2.4.68>): /planted is 410 Gone there, 404 before. */
export const PLANTED = `
id: planted-ifversion
title: a config that answers differently from httpd 2.4.68 on
seed: [U1]
server:
  modules: [version, alias]
  config: |
    <IfVersion >= 2.4.68>
        Redirect gone /planted
    </IfVersion>
    <Directory "{{server.docroot}}">
        Require all granted
    </Directory>
requests:
  - { name: planted, path: /planted }
`;
