import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { createScenarioNetwork } from "../../../harness/engine/network.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { startHttpd } from "../../../harness/server/httpd-server.ts";
import { type ImageInspection, inspectImage } from "../../../harness/server/inspect-image.ts";
import { renderConfig } from "../../../harness/server/render-config.ts";

const site = `<Directory "/usr/local/apache2/htdocs">
    Order deny,allow
    Deny from all
</Directory>
`;

function minimalConfig(inspection: ImageInspection, modules: string[]): { text: string } {
  return renderConfig({
    base: "minimal",
    family: inspection.version.family,
    profile: inspection.profile,
    availableModules: inspection.modules,
    builtinModules: inspection.builtinModules,
    stockConfig: inspection.stockConfig,
    modules,
    omitModules: [],
    logLevel: "warn",
    listenTls: false,
    site,
  });
}

describe("one httpd under test", { timeout: 120_000 }, () => {
  it("detects the version of the local image from httpd -v and lists its modules", async () => {
    const engine = await connectEngine();
    await using scope = new RunScope(engine);
    const inspection = await inspectImage(scope, inject("images").candidate);
    expect(inspection.version.family).toBe("2.4");
    expect(inspection.version.text).toMatch(/^2\.4\.\d+$/);
    expect(inspection.profile.id).toBe("official");
    expect(inspection.modules.has("mod_access_compat.so")).toBe(true);
    // upstream's stock httpd.conf, with its commented-out LoadModule lines
    expect(inspection.stockConfig).toMatch(/^#LoadModule rewrite_module modules\/mod_rewrite\.so$/m);
  });

  it("records a config 2.4 rejects (Order without mod_access_compat) as a config-test observation and removes the container", async () => {
    const engine = await connectEngine();
    const scope = new RunScope(engine);
    try {
      const inspection = await inspectImage(scope, inject("images").candidate);
      const network = await createScenarioNetwork(scope, "reject");
      const config = minimalConfig(inspection, ["authz_host"]);
      const httpd = await startHttpd(scope, {
        inspection,
        scenario: "reject",
        config: { path: inspection.profile.configFile, text: config.text },
        files: [],
        prepare: [],
        network: { name: network.name, aliases: ["server"] },
        listenTls: false,
      });
      expect(httpd.boot.started).toBe(false);
      expect(httpd.boot.phases.configTest?.exitCode).toBe(1);
      expect(httpd.boot.phases.configTest?.output).toEqual([
        expect.stringMatching(/^AH00526: Syntax error on line \d+ of \/usr\/local\/apache2\/conf\/httpd\.conf:$/),
        "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
      ]);
      await httpd.stop();
    } finally {
      await scope.dispose();
    }
    expect(await listHarnessResources(engine, scope.runId)).toEqual({ containers: [], networks: [] });
  });

  it("keeps the error log apart from the access log", async () => {
    const engine = await connectEngine();
    await using scope = new RunScope(engine);
    const inspection = await inspectImage(scope, inject("images").candidate);
    const network = await createScenarioNetwork(scope, "logs");
    const config = minimalConfig(inspection, ["authz_host", "access_compat"]);
    await using httpd = await startHttpd(scope, {
      inspection,
      scenario: "logs",
      config: { path: inspection.profile.configFile, text: config.text },
      files: [{ path: "/usr/local/apache2/htdocs/index.html", content: "hi" }],
      prepare: [],
      network: { name: network.name, aliases: ["server"] },
      listenTls: false,
    });
    expect(httpd.boot.started).toBe(true);
    const mark = httpd.logMark();
    const response = await fetch(`http://${httpd.host}:${httpd.ports.http}/index.html`);
    await response.arrayBuffer();
    expect(response.status).toBe(403);
    const errorLines = await httpd.errorLinesSince(mark, { expectAccessLine: true });
    expect(errorLines).toEqual([expect.stringMatching(/\[access_compat:error\] .* AH01797: client denied by server configuration: \/usr\/local\/apache2\/htdocs\/index\.html$/)]);
    expect(httpd.container.stdout.since(mark.out)).toEqual([expect.stringMatching(/"GET \/index\.html HTTP\/1\.1" 403 \d+$/)]);
  });
});
