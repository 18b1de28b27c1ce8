import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it, vi } from "vitest";
import { connectEngine, type Engine } from "../../../harness/engine/engine.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { createScenarioNetwork } from "../../../harness/engine/network.ts";
import { LABEL_ROLE, LABEL_RUN_ID } from "../../../harness/engine/labels.ts";
import { recordEngineEvents } from "../../helpers/engine-events.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { startHttpd } from "../../../harness/server/httpd-server.ts";
import { type ImageInspection, inspectImage, probeImage } from "../../../harness/server/inspect-image.ts";
import { renderConfig } from "../../../harness/server/render-config.ts";
import { STAGED_MTIME } from "../../../harness/server/site-bundle.ts";

const site = `<Directory "/usr/local/apache2/htdocs">
    Order deny,allow
    Deny from all
</Directory>
`;

function minimalConfig(inspection: ImageInspection, modules: string[], siteText = site): { text: string } {
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
    site: siteText,
  });
}

/** `image` with `paths` removed, committed as `name` (the caller removes it). */
async function imageWithout(engine: Engine, image: string, paths: readonly string[], name: string): Promise<void> {
  const stripping = await engine.docker.createContainer({ Image: image, Entrypoint: ["/bin/rm", "-f", ...paths], Cmd: [] });
  await stripping.start();
  await stripping.wait();
  const [repo, tag] = name.split(":");
  await stripping.commit({ repo, tag });
  await stripping.remove();
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

  it("probes an image id once: a later probe of the same image reads the first one's output, with the same facts", async () => {
    vi.stubEnv("HARNESS_CACHE_DIR", mkdtempSync(join(tmpdir(), "probe-cache-")));
    const engine = await connectEngine();
    const recording = await recordEngineEvents({ type: ["container"], event: ["create"] });
    await using scope = new RunScope(engine);
    const first = await probeImage(scope, inject("images").candidate);
    const second = await probeImage(scope, inject("images").candidate);
    const probes = (await recording.stop()).filter((event) => event.Actor.Attributes[LABEL_RUN_ID] === scope.runId && event.Actor.Attributes[LABEL_ROLE] === "probe");
    expect(probes).toHaveLength(1);
    expect({ ...second, modules: [...second.modules].sort() }).toEqual({ ...first, modules: [...first.modules].sort() });
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

  it("keeps the error log apart from the access log, in the order httpd wrote them where the config logs to the container's streams", async () => {
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
    expect(config.text).toMatch(/^ErrorLog \/proc\/self\/fd\/2$/m);
    expect(httpd.logs.access.since(mark.out)).toEqual([expect.stringMatching(/"GET \/index\.html HTTP\/1\.1" 403 \d+$/)]);
    // Both came through the start script's one follower: the error line is placed before the access line.
    const errorOrder = httpd.logs.error.orders[mark.err]!;
    const accessOrder = httpd.logs.access.orders[mark.out]!;
    expect(errorOrder).toBeLessThan(accessOrder);
    expect(httpd.container.stdout.lines.filter((line) => line.includes("GET /index.html"))).toEqual([]);
  });

  it("follows log files from its start script, apart from httpd's own output, and by an exec where the image has no grep for the GNU sed check", async () => {
    const engine = await connectEngine();
    const scope = new RunScope(engine);
    const bare = `harness-test-no-grep:${scope.runId}`.toLowerCase();
    try {
      const candidate = await inspectImage(scope, inject("images").candidate);
      await imageWithout(engine, candidate.image, ["/usr/bin/grep", "/bin/grep"], bare);
      const network = await createScenarioNetwork(scope, "script-follow");
      for (const image of [candidate.image, bare]) {
        const inspection = await inspectImage(scope, image);
        const text = minimalConfig(inspection, ["authz_host", "access_compat"])
          .text.replace(/^ErrorLog .*$/m, "ErrorLog logs/error_log")
          .replace(/^CustomLog .* common$/m, "CustomLog logs/access_log common");
        const httpd = await startHttpd(scope, {
          inspection,
          scenario: "script-follow",
          config: { path: inspection.profile.configFile, text },
          files: [{ path: "/usr/local/apache2/htdocs/index.html", content: "hi" }],
          prepare: [],
          network: { name: network.name, aliases: ["server"] },
          listenTls: false,
        });
        expect(httpd.boot.started, image).toBe(true);
        const mark = httpd.logMark();
        const response = await fetch(`http://${httpd.host}:${httpd.ports.http}/index.html`);
        await response.arrayBuffer();
        expect(response.status).toBe(403);
        expect(await httpd.errorLinesSince(mark, { expectAccessLine: true }), image).toEqual([expect.stringMatching(/\[access_compat:error\] .* AH01797: client denied/)]);
        expect(httpd.logs.access.since(mark.out), image).toEqual([expect.stringMatching(/"GET \/index\.html HTTP\/1\.1" 403 \d+$/)]);
        // The files' lines reach their streams without the tag, and nothing of them is left on the container's own.
        expect([...httpd.logs.error.lines, ...httpd.logs.access.lines].some((line) => line.startsWith("@@harness"))).toBe(false);
        expect(httpd.container.stdout.lines.filter((line) => line.includes("GET /index.html"))).toEqual([]);
        // An exec follows the files only where the script could not.
        const execs = (await engine.docker.getContainer(httpd.container.id).inspect()).ExecIDs ?? [];
        expect(execs.length, image).toBe(image === bare ? 1 : 0);
        await httpd.stop();
      }
    } finally {
      await scope.dispose();
      await engine.docker.getImage(bare).remove({ force: true }).catch(() => undefined);
    }
    expect(await listHarnessResources(engine, scope.runId)).toEqual({ containers: [], networks: [] });
  });

  it("stages a bundle too large to travel plain gzipped in its command line, and by the engine's copy where the image has no gzip", async () => {
    const engine = await connectEngine();
    const scope = new RunScope(engine);
    const bare = `harness-test-no-gzip:${scope.runId}`.toLowerCase();
    try {
      const candidate = await inspectImage(scope, inject("images").candidate);
      await imageWithout(engine, candidate.image, ["/bin/gzip", "/usr/bin/gzip"], bare);
      const network = await createScenarioNetwork(scope, "staging-gzip");
      // A tree of many small files: a tar header and padding each pass the command line's limit as a plain archive.
      const files = Array.from({ length: 300 }, (_, index) => ({ path: `/usr/local/apache2/htdocs/page-${index}.html`, content: `page ${index}\n` }));
      for (const image of [candidate.image, bare]) {
        const inspection = await inspectImage(scope, image);
        const httpd = await startHttpd(scope, {
          inspection,
          scenario: "staging-gzip",
          config: { path: inspection.profile.configFile, text: minimalConfig(inspection, ["authz_core"], "").text },
          files,
          prepare: [],
          network: { name: network.name, aliases: ["server"] },
          listenTls: false,
        });
        expect(httpd.boot.started, image).toBe(true);
        const response = await fetch(`http://${httpd.host}:${httpd.ports.http}/page-299.html`);
        expect([response.status, await response.text()]).toEqual([200, "page 299\n"]);
        const args = (await engine.docker.getContainer(httpd.container.id).inspect()).Args;
        if (image === bare) expect(args).toHaveLength(2);
        else expect([args.length, Buffer.from(args[3]!, "base64").subarray(0, 2).toString("hex")]).toEqual([4, "1f8b"]);
        await httpd.stop();
      }
    } finally {
      await scope.dispose();
      await engine.docker.getImage(bare).remove({ force: true }).catch(() => undefined);
    }
    expect(await listHarnessResources(engine, scope.runId)).toEqual({ containers: [], networks: [] });
  });

  it("stages its files from its own start script as the engine's copy would, and by the engine's copy where the image has no base64", async () => {
    const engine = await connectEngine();
    const scope = new RunScope(engine);
    const bare = `harness-test-no-base64:${scope.runId}`.toLowerCase();
    try {
      const candidate = await inspectImage(scope, inject("images").candidate);
      // The same image without base64: its start script cannot extract a bundle.
      await imageWithout(engine, candidate.image, ["/usr/bin/base64"], bare);
      const network = await createScenarioNetwork(scope, "staging");
      for (const image of [candidate.image, bare]) {
        const inspection = await inspectImage(scope, image);
        const httpd = await startHttpd(scope, {
          inspection,
          scenario: "staging",
          config: { path: inspection.profile.configFile, text: minimalConfig(inspection, ["authz_core"], "").text },
          files: [
            { path: "/usr/local/apache2/htdocs/index.html", content: "hi\n" },
            { path: "/srv/new/dir/secret.txt", content: "s", mode: 0o600 },
          ],
          prepare: [],
          network: { name: network.name, aliases: ["server"] },
          listenTls: false,
        });
        expect(httpd.boot.started, image).toBe(true);
        const response = await fetch(`http://${httpd.host}:${httpd.ports.http}/index.html`);
        expect([response.status, await response.text()]).toEqual([200, "hi\n"]);
        // Owner, mode and mtime from the archive, parents made 0755, as the engine's copy makes them.
        const dirs = await httpd.container.exec(["stat", "-c", "%n %a %u", "/srv/new", "/srv/new/dir"]);
        expect(dirs.stdout.trim().split("\n")).toEqual(["/srv/new 755 0", "/srv/new/dir 755 0"]);
        const files = await httpd.container.exec(["stat", "-c", "%n %a %u %Y", "/srv/new/dir/secret.txt", "/usr/local/apache2/htdocs/index.html"]);
        const mtime = STAGED_MTIME.getTime() / 1000;
        expect(files.stdout.trim().split("\n")).toEqual([`/srv/new/dir/secret.txt 600 0 ${mtime}`, `/usr/local/apache2/htdocs/index.html 644 0 ${mtime}`]);
        // Only where base64 is missing does the bundle go by the engine's copy (not in the command line).
        const args = (await engine.docker.getContainer(httpd.container.id).inspect()).Args;
        expect(args.length, image).toBe(image === bare ? 2 : 4);
        await httpd.stop();
      }
    } finally {
      await scope.dispose();
      await engine.docker.getImage(bare).remove({ force: true }).catch(() => undefined);
    }
    expect(await listHarnessResources(engine, scope.runId)).toEqual({ containers: [], networks: [] });
  });
});
