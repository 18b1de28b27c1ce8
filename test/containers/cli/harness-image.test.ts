// The harness's own image (docker/harness, `images --build harness`) as a cluster's pod runs it: built here, or
// reused when this checkout's tag is there, it lints a configs/ sample with lint's exit status and the very JSON the
// checkout's CLI writes, starts from its bundle on a read-only root file system, and lints a tree put under /work.
import { readFileSync } from "node:fs";
import { pack } from "tar-stream";
import { beforeAll, describe, expect, it } from "vitest";
import { connectEngine, type Engine } from "../../../harness/engine/engine.ts";
import { ensureRecipeImage } from "../../../harness/engine/images.ts";
import { runCli } from "../../helpers/run-cli.ts";

/** A fresh machine builds the image from the base: Debian's packages and npm ci take minutes. */
const BUILD_TIMEOUT_MS = 900_000;

interface Outcome {
  status: number;
  stdout: string;
  stderr: string;
}

/** Stdout and stderr of a container without a TTY, from the engine's frames (8-byte header: stream, 0, 0, 0, size). */
function demux(frames: Buffer): { stdout: string; stderr: string } {
  const parts: { 1: Buffer[]; 2: Buffer[] } = { 1: [], 2: [] };
  for (let at = 0; at + 8 <= frames.length; ) {
    const size = frames.readUInt32BE(at + 4);
    const stream = frames[at] === 2 ? 2 : 1;
    parts[stream].push(frames.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return { stdout: Buffer.concat(parts[1]).toString("utf8"), stderr: Buffer.concat(parts[2]).toString("utf8") };
}

describe("the image of the harness", { timeout: 120_000 }, () => {
  let engine: Engine;
  let image: string;

  beforeAll(async () => {
    engine = await connectEngine();
    image = await ensureRecipeImage(engine, "harness");
  }, BUILD_TIMEOUT_MS);

  /** One container of the image, with no network (lint is offline), run to its end and removed. */
  async function runInImage(
    cmd: string[],
    options: { entrypoint?: string[]; workingDir?: string; readOnly?: boolean; files?: Record<string, string> } = {},
  ): Promise<Outcome> {
    const container = await engine.docker.createContainer({
      Image: image,
      Cmd: cmd,
      ...(options.entrypoint ? { Entrypoint: options.entrypoint } : {}),
      ...(options.workingDir ? { WorkingDir: options.workingDir } : {}),
      HostConfig: { NetworkMode: "none", ReadonlyRootfs: options.readOnly === true },
    });
    try {
      if (options.files) {
        // A tree put where a pod mounts its configs: under the image's working directory.
        const archive = pack();
        for (const [name, content] of Object.entries(options.files)) archive.entry({ name, mode: 0o644 }, content);
        archive.finalize();
        await container.putArchive(archive as unknown as NodeJS.ReadableStream, { path: "/work" });
      }
      await container.start();
      const { StatusCode } = (await container.wait()) as { StatusCode: number };
      const logs = (await container.logs({ stdout: true, stderr: true, follow: false })) as unknown as Buffer;
      return { status: StatusCode, ...demux(logs) };
    } finally {
      await container.remove({ force: true });
    }
  }

  it("is listed by `images` as present under the tag `images --build harness` builds", async () => {
    expect(image).toMatch(/^httpd-upgrade-harness:[0-9a-f]{12}$/);
    const listed = await runCli(["images"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^  present +${image.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} +the harness itself`, "m"));
  });

  it("lints configs/rhel-balancer as the checkout does: exit 1 for its blocking findings, R9 on LockFile, the same JSON", async () => {
    const args = ["lint", "configs/rhel-balancer", "--format", "json"];
    const inImage = await runInImage(args, { workingDir: "/harness" });
    expect(inImage.stderr).toBe("");
    expect(inImage.status).toBe(1);
    const report = JSON.parse(inImage.stdout) as { tool: { name: string; version: string }; findings: Array<{ rule: string; severity: string; file: string; directive: string }> };
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(report.tool).toEqual({ name: "httpd-upgrade-harness", version: pkg.version });
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: "R9", severity: "blocking", file: "conf/httpd.conf", directive: expect.stringMatching(/^LockFile /) }));
    // The image is this checkout: its lint answers byte for byte as the checkout's CLI does.
    const checkout = await runCli(args);
    expect(checkout.status).toBe(1);
    expect(inImage.stdout).toBe(checkout.stdout);
  });

  it("starts as a pod starts it: the CLI as the entrypoint, from its bundle on a read-only root file system", async () => {
    const result = await runInImage(["lint", "/harness/configs/staging-lock"], { readOnly: true });
    expect(result.stderr).toBe("");
    // Findings below --fail-on blocking: reported, exit 0.
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\/harness\/configs\/staging-lock {2}\(layout fragment, 2\.4 target official, 1 file, [1-9]\d* findings?\)$/m);
    expect(result.stdout).toMatch(/^PASS: nothing at blocking or above \(--fail-on blocking\)$/m);
  });

  it("lints a tree put under its working directory, as the Kubernetes example mounts the configs", async () => {
    const result = await runInImage(["lint", "site"], {
      files: { "site/conf/httpd.conf": "ServerRoot /usr/local/apache2\nListen 80\nLockFile logs/accept.lock\nDocumentRoot /usr/local/apache2/htdocs\n" },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^ {2}blocking +R9 .*\n {6}conf\/httpd\.conf:3:1 {2}LockFile /m);
    expect(result.stdout).toMatch(/^FAIL/m);
  });

  it("holds Debian's Node.js at package.json's engines or newer and the docker CLI, and neither npm nor the build machine's CA bundle", async () => {
    const result = await runInImage(["node --version; docker --version; cat /etc/debian_version; command -v npm || echo no-npm; ls /tmp"], { entrypoint: ["sh", "-c"] });
    expect(result.status).toBe(0);
    const [node, docker, debian, npm, tmp = ""] = result.stdout.split("\n");
    const engines = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { engines: { node: string } };
    const want = engines.engines.node.replace(/^>=/, "").split(".").map(Number);
    const have = node!.replace(/^v/, "").split(".").map(Number);
    const first = want.findIndex((n, i) => have[i] !== n);
    expect(first < 0 || have[first]! > want[first]!, `${node} against ${engines.engines.node}`).toBe(true);
    expect(docker).toMatch(/^Docker version \d+\./);
    expect(debian).toMatch(/^13\./);
    expect(npm).toBe("no-npm");
    expect(tmp).toBe("");
  });
});
