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
