// The CI and Kubernetes examples in docs/ are copied into operators' repositories as they are: they must be valid,
// agree with themselves (shard counts, blob paths, artifact names) and call the CLI with exactly the commands and
// flags it has. Each harness command line is cut out of its shell text, its placeholders filled, and parsed with the
// command's own option table, strictly, so a renamed or mistyped flag fails here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Job } from "kubernetes-models/batch/v1/Job";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { FLEET_OPTIONS, MERGE_OPTIONS } from "../../../harness/cli/fleet-command.ts";
import { IMAGE_RECIPES } from "../../../harness/engine/image-recipes.ts";
import { FLEET_FORMATS, parseTargetOf, REPORT_FORMATS } from "../../../harness/cli/report-targets.ts";
import { parseShard } from "../../../harness/fleet/shard.ts";

const DOCS = new URL("../../../docs/", import.meta.url);
const BIN = "httpd-upgrade-harness.js";
/** The image of the harness the examples run: docker/harness, built by `images --build harness`. */
const HARNESS_IMAGE = IMAGE_RECIPES.find((recipe) => recipe.id === "harness")!;
const HARNESS_DOCKERFILE = readFileSync(new URL(`../../../docker/${HARNESS_IMAGE.directory}/Dockerfile`, import.meta.url), "utf8");
/** Where that image puts the repository: the Dockerfile's `COPY repository/ DIR/`. */
const HARNESS_HOME = /^COPY repository\/ (\/\S+?)\/?$/m.exec(HARNESS_DOCKERFILE)?.[1];

interface Invocation {
  command: string;
  values: Record<string, unknown>;
  positionals: string[];
}

/** The harness command lines in a shell text: what follows the bin up to `||`, `&&`, `;` or the end, split into
 * words (the examples quote nothing), parsed with the command's option table. */
function invocations(shell: string): Invocation[] {
  return shell.split(BIN).slice(1).map((rest) => {
    const words = rest.split(/\|\||&&|;/)[0]!.trim().split(/\s+/);
    const [command, ...args] = words;
    const options = command === "fleet" ? FLEET_OPTIONS : command === "merge-reports" ? MERGE_OPTIONS : null;
    if (options === null) throw new Error(`${JSON.stringify(command)} is not a command the examples may use`);
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { command: command!, values, positionals };
  });
}

/** Whether a shell glob (only `*`) matches a path. */
function globMatches(glob: string, path: string): boolean {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`).test(path);
}

function reportTargets(invocation: Invocation): Array<{ format: string; path: string }> {
  // merge-reports writes what fleet writes but the blob.
  const formats = invocation.command === "fleet" ? [...REPORT_FORMATS, ...FLEET_FORMATS] : [...REPORT_FORMATS, "sarif"];
  return (invocation.values.report as string[]).map((value) => parseTargetOf(value, formats));
}

describe("docs/ci/github-actions-fleet.yml", () => {
  const workflow = parse(readFileSync(new URL("ci/github-actions-fleet.yml", DOCS), "utf8")) as {
    env: Record<string, string>;
    jobs: Record<string, { needs?: string; if?: string; strategy?: { matrix: { shard: number[] } }; steps: Array<{ uses?: string; run?: string; with?: Record<string, unknown>; if?: string }> }>;
  };
  const shards = Number(workflow.env.SHARDS);
  const fill = (text: string, shard: number): string =>
    text.replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, String(shard)).replace(/\$\{\{\s*env\.(\w+)\s*\}\}/g, (_, name: string) => workflow.env[name] ?? `<${name}>`);
  const runs = (job: string, shard = 1): Invocation[] => workflow.jobs[job]!.steps.flatMap((step) => (step.run ? invocations(fill(step.run, shard)) : []));

  it("has a matrix of shards 1..SHARDS within GitHub's 256 jobs, and a merge job after it that runs whatever the shards did", () => {
    expect(workflow.jobs.shard!.strategy!.matrix.shard).toEqual(Array.from({ length: shards }, (_, i) => i + 1));
    expect(shards).toBeLessThanOrEqual(256);
    expect(workflow.jobs.merge!.needs).toBe("shard");
    expect(workflow.jobs.merge!.if).toBe("always()");
  });

  it("runs each shard with fleet --shard k/SHARDS and a blob, and merges every shard's blob with merge-reports", () => {
    const blobs = workflow.jobs.shard!.strategy!.matrix.shard.map((shard) => {
      const [fleet, ...others] = runs("shard", shard);
      expect(others).toEqual([]);
      expect(fleet!.command).toBe("fleet");
      expect(parseShard(fleet!.values.shard as string)).toEqual({ index: shard, count: shards });
      const blob = reportTargets(fleet!).find((t) => t.format === "blob");
      expect(blob).toBeDefined();
      return blob!.path;
    });
    expect(new Set(blobs).size).toBe(shards);
    const [merge] = runs("merge");
    expect(merge!.command).toBe("merge-reports");
    // Artifacts: each shard uploads its blob's directory under fleet-blob-<k>; the merge downloads them all into blobs/.
    const upload = workflow.jobs.shard!.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.if).toBe("always()");
    expect(fill(String(upload.with!.name), 2)).toBe("fleet-blob-2");
    const download = workflow.jobs.merge!.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"))!;
    expect(globMatches(String(download.with!.pattern), "fleet-blob-2")).toBe(true);
    for (const blob of blobs) {
      const downloaded = `${download.with!.path}/${blob.split("/").at(-1)}`;
      expect(merge!.positionals.some((glob) => globMatches(glob, downloaded)), downloaded).toBe(true);
    }
    // The reports the merge writes are the ones the later steps read: JUnit as test results, SARIF for code scanning.
    const targets = reportTargets(merge!).map((t) => `${t.format}:${t.path.replace(`${process.cwd()}/`, "")}`);
    expect(targets).toContain("junit:reports/junit.xml");
    expect(targets).toContain("sarif:reports/fleet.sarif");
    const steps = workflow.jobs.merge!.steps;
    expect(steps.find((s) => s.uses?.startsWith("mikepenz/action-junit-report@"))!.with!.report_paths).toBe("reports/junit.xml");
    expect(steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"))!.with!.sarif_file).toBe("reports/fleet.sarif");
  });

  it("lets a shard pass on exit 1 (findings, blob written) and on nothing else", () => {
    const step = workflow.jobs.shard!.steps.find((s) => s.run?.includes(BIN))!;
    expect(step.run!.trim().endsWith("|| [ $? -eq 1 ]")).toBe(true);
  });

  it("names the image of the harness, how to build it, and a shard run from it with the fleet's own flags", () => {
    const text = readFileSync(new URL("ci/github-actions-fleet.yml", DOCS), "utf8");
    expect(text).toContain("node bin/httpd-upgrade-harness.js images --build harness");
    expect(text).toContain(`docker/${HARNESS_IMAGE.directory}`);
    // The shard run from the image: its arguments after the image (the image's entrypoint is the CLI).
    const image = new RegExp(`registry\\.example\\.com/${HARNESS_IMAGE.repository}:\\S+ (.*)$`, "m").exec(text);
    expect(image).not.toBeNull();
    const [command, ...args] = image![1]!.trim().split(/\s+/);
    expect(command).toBe("fleet");
    const { values } = parseArgs({ args, options: FLEET_OPTIONS, allowPositionals: true, strict: true });
    expect(parseShard(values.shard as string)).toEqual({ index: 1, count: shards });
    expect(HARNESS_DOCKERFILE).toMatch(/^ENTRYPOINT \["httpd-upgrade-harness"\]$/m);
  });
});

describe("docs/k8s/fleet-indexed-job.yaml", () => {
  const documents = parseAllDocuments(readFileSync(new URL("k8s/fleet-indexed-job.yaml", DOCS), "utf8")).map((d) => d.toJS() as { kind: string; metadata: { name: string } });
  const byName = (name: string) => documents.find((d) => d.metadata.name === name)! as unknown as Record<string, never>;

  it("is a PersistentVolumeClaim, an Indexed Job of shards and a merge Job, each valid against its Kubernetes schema", () => {
    expect(documents.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(["PersistentVolumeClaim/httpd-fleet-blobs", "Job/httpd-fleet", "Job/httpd-fleet-merge"]);
    expect(() => new PersistentVolumeClaim(byName("httpd-fleet-blobs")).validate()).not.toThrow();
    expect(() => new Job(byName("httpd-fleet")).validate()).not.toThrow();
    expect(() => new Job(byName("httpd-fleet-merge")).validate()).not.toThrow();
    // The check can fail: a misspelt completion mode is refused by the schema.
    const broken = structuredClone(byName("httpd-fleet")) as unknown as { spec: { completionMode: string } };
    broken.spec.completionMode = "Indexd";
    expect(() => new Job(broken as never).validate()).toThrow(/completionMode/);
  });

  it("runs pod i as fleet shard i+1 of completions, against the pod's own engine, and merges every shard's blob", () => {
    const job = new Job(byName("httpd-fleet"));
    const spec = job.spec!;
    expect(spec.completionMode).toBe("Indexed");
    expect(spec.parallelism).toBe(spec.completions);
    const pod = spec.template.spec!;
    const shard = pod.containers.find((c) => c.name === "shard")!;
    const shell = shard.args!.join(" ");
    expect(shell).toContain("--shard $((JOB_COMPLETION_INDEX+1))/");
    const [fleet] = invocations(shell.replace(/\$\(\(JOB_COMPLETION_INDEX\+1\)\)/g, "3"));
    expect(fleet!.command).toBe("fleet");
    expect(parseShard(fleet!.values.shard as string)).toEqual({ index: 3, count: spec.completions });
    expect(fleet!.values.resume).toBe(true);
    const blob = reportTargets(fleet!).find((t) => t.format === "blob")!.path;
    // The engine: a sidecar whose socket the shard's DOCKER_HOST names, through a shared volume.
    const engine = pod.initContainers!.find((c) => c.name === "docker")!;
    expect(engine.restartPolicy).toBe("Always");
    expect(engine.securityContext?.privileged).toBe(true);
    const host = shard.env!.find((e) => e.name === "DOCKER_HOST")!.value!;
    const socketDir = engine.volumeMounts!.find((m) => host.startsWith(`unix://${m.mountPath}/`))!;
    expect(shard.volumeMounts!.map((m) => m.name)).toContain(socketDir.name);
    // The merge reads the blobs the shards wrote, on the same claim.
    const merge = new Job(byName("httpd-fleet-merge")).spec!.template.spec!;
    const [merged] = invocations(merge.containers[0]!.args!.join(" "));
    expect(merged!.command).toBe("merge-reports");
    expect(merged!.positionals.some((glob) => globMatches(glob, blob))).toBe(true);
    const claim = (spec: typeof pod, mount: string) => spec.volumes!.find((v) => v.name === spec.containers[0]!.volumeMounts!.find((m) => mount.startsWith(m.mountPath))!.name)!.persistentVolumeClaim!.claimName;
    expect(claim(pod, blob)).toBe("httpd-fleet-blobs");
    expect(claim(merge, blob)).toBe("httpd-fleet-blobs");
  });
});

describe("the image the Kubernetes example runs", () => {
  const text = readFileSync(new URL("k8s/fleet-indexed-job.yaml", DOCS), "utf8");
  const jobs = parseAllDocuments(text)
    .map((d) => d.toJS() as { kind: string })
    .filter((d) => d.kind === "Job")
    .map((d) => new Job(d as never));

  it("is the harness's own image, pinned by its tag, and the header says how to build and push it", () => {
    const containers = jobs.flatMap((job) => job.spec!.template.spec!.containers);
    expect(containers.map((c) => c.name)).toEqual(["shard", "merge"]);
    for (const container of containers) {
      const [registry, repository] = container.image!.split(/\/(?=[^/]*$)/);
      expect(registry).toBe("registry.example.com");
      const [name, tag] = repository!.split(":");
      expect(name).toBe(HARNESS_IMAGE.repository);
      // A moving tag could give two pods two harnesses, which the merge refuses.
      expect(tag).not.toBe("latest");
    }
    expect(text).toContain("node bin/httpd-upgrade-harness.js images --build harness");
    expect(text).toContain(`docker push registry.example.com/${HARNESS_IMAGE.repository}:`);
  });

  it("calls the CLI where that image installs the repository, from the image's working directory", () => {
    expect(HARNESS_HOME).toBe("/harness");
    for (const job of jobs) {
      const container = job.spec!.template.spec!.containers[0]!;
      expect(container.args!.join(" ")).toMatch(new RegExp(`^node ${HARNESS_HOME}/bin/${BIN.replace(".", "\\.")} `));
      expect(HARNESS_DOCKERFILE).toMatch(new RegExp(`^WORKDIR ${container.workingDir}$`, "m"));
    }
  });
});

describe("the examples' cutter", () => {
  it("refuses a flag the command does not have", () => {
    expect(() => invocations(`node ${BIN} fleet configs/ --shards 1/4`)).toThrow(/--shards/);
    expect(() => invocations(`node ${BIN} merge reports/`)).toThrow(/not a command/);
  });
});
