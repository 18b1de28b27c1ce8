import { extract } from "tar-stream";
import { type Duplex, PassThrough } from "node:stream";
import type Dockerode from "dockerode";
import { changeEndpoints, limitEngineCall } from "./endpoint-changes.ts";
import { HarnessError } from "../errors.ts";
import { LABEL_PUBLISHES, type ResourceRole, resourceLabels } from "./labels.ts";
import { EXEC_AGENT_COMMAND, ExecAgent } from "./exec-agent.ts";
import { ExecDemuxer } from "./exec-demuxer.ts";
import { LineStream } from "./line-stream.ts";
import { log } from "./log.ts";
import type { RunScope } from "./run-scope.ts";

export interface ContainerSpec {
  image: string;
  name?: string;
  role: ResourceRole;
  scenario?: string;
  command?: string[];
  entrypoint?: string[];
  env?: Record<string, string>;
  /** Container ports published on 127.0.0.1 (random host ports). */
  publish?: number[];
  /** The network it starts on; `address`: a fixed IPv4 or IPv6 address there (the network's subnet holds it). */
  network?: { name: string; aliases: string[]; address?: string };
  /** Further networks it is connected to before it starts (the servers join the clients' fixed-address
   * networks), each with an engine-chosen address. */
  extraNetworks?: string[];
  /** Joins this container's network namespace instead of a network (Docker's `container:<id>` mode): it shares
   * its addresses, loopback included, and publishes nothing of its own. */
  joinNetworkOf?: string;
  /** Turns IPv6 on in the container's network namespace as a host has it: ::1 on lo and a link-local address on
   * eth0. Docker turns it off where the network has no IPv6; without a non-loopback IPv6 address getaddrinfo's
   * AI_ADDRCONFIG (which APR uses for httpd's `Listen 80`) leaves IPv6 out, so httpd would not answer on ::1. */
  ipv6?: boolean;
  /** A tar archive extracted at / before start (the staged site bundle, certificates, ...). */
  archive?: Buffer;
  /** Runs the tools image's exec agent as its command (`command` is not given): execs go to it over the attach
   * stream instead of through the engine (engine/exec-agent.ts). Its output is not logged. */
  agent?: boolean;
  /** Its main process's stdin stays open for the harness to write to (`write`), and its output comes through the
   * attach stream, not the engine's logs: to the stdout and stderr line streams, or where `routeOutput` says. A
   * server host's command loop (server/server-host.ts) runs this way. */
  attached?: boolean;
}

/** Where an attached container's output goes (HarnessContainer.routeOutput). */
export interface OutputRoute {
  stdout: (chunk: Buffer) => void;
  stderr: (chunk: Buffer) => void;
  /** The stream ended: the container's main process is gone, or the harness let go of it. */
  end: () => void;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout as received, for binary output (compressed bodies). */
  stdoutBytes: Buffer;
}

/** A created container whose stdout and stderr are collected apart, from its first line on. */
export class HarnessContainer {
  readonly stdout = new LineStream();
  readonly stderr = new LineStream();
  private exited: Promise<number | null> | undefined;
  #agent: ExecAgent | null = null;
  /** An attached container's stream (spec.attached) and where its output goes now (null: the line streams). */
  #input: Duplex | null = null;
  #route: OutputRoute | null = null;

  private constructor(
    readonly scope: RunScope,
    readonly container: Dockerode.Container,
    readonly spec: ContainerSpec,
  ) {}

  get id(): string {
    return this.container.id;
  }

  get shortId(): string {
    return this.container.id.slice(0, 12);
  }

  static async create(scope: RunScope, spec: ContainerSpec): Promise<HarnessContainer> {
    const { docker } = scope.engine;
    if (spec.joinNetworkOf !== undefined && (spec.network !== undefined || (spec.publish ?? []).length > 0)) {
      throw new HarnessError("HARNESS_INTERNAL", "A container that joins another's network namespace has no network or ports of its own.");
    }
    if (spec.agent && spec.command !== undefined) throw new HarnessError("HARNESS_INTERNAL", "A container with the exec agent runs the agent as its command.");
    const attached = spec.agent === true || spec.attached === true;
    const exposed = Object.fromEntries((spec.publish ?? []).map((port) => [`${port}/tcp`, {}]));
    const bindings = Object.fromEntries((spec.publish ?? []).map((port) => [`${port}/tcp`, [{ HostIp: scope.engine.publishIp, HostPort: "" }]]));
    let container: Dockerode.Container;
    try {
      container = await docker.createContainer({
        Image: spec.image,
        name: spec.name,
        Cmd: spec.agent ? [...EXEC_AGENT_COMMAND] : spec.command,
        Entrypoint: spec.entrypoint,
        // The agent's (or an attached command's) stdin stays open for the run's commands, and its output is no log.
        ...(attached ? { OpenStdin: true, StdinOnce: false, AttachStdin: true, AttachStdout: true, AttachStderr: true } : {}),
        Env: Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`),
        Labels: { ...resourceLabels(scope.runId, spec.role, spec.scenario), ...((spec.publish ?? []).length > 0 ? { [LABEL_PUBLISHES]: spec.publish!.join(",") } : {}) },
        ExposedPorts: exposed,
        HostConfig: {
          PortBindings: bindings,
          NetworkMode: spec.joinNetworkOf !== undefined ? `container:${spec.joinNetworkOf}` : (spec.network?.name ?? "bridge"),
          ...(spec.ipv6 ? { Sysctls: { "net.ipv6.conf.all.disable_ipv6": "0" } } : {}),
          // Servers under test are small; a cap keeps a runaway config from taking the machine.
          Memory: 512 * 1024 * 1024,
          ...(attached ? { LogConfig: { Type: "none", Config: {} } } : {}),
        },
        NetworkingConfig: spec.network
          ? { EndpointsConfig: { [spec.network.name]: { Aliases: spec.network.aliases, ...fixedAddress(spec.network.address) } } }
          : undefined,
      });
    } catch (cause) {
      throw new HarnessError("HARNESS_CONTAINER", `Could not create a container from ${spec.image}: ${(cause as Error).message}`, { cause });
    }
    await scope.trackContainer(container.id);
    log("[%s] created from %s (%s)", container.id.slice(0, 12), spec.image, spec.role);
    for (const network of spec.extraNetworks ?? []) {
      try {
        await limitEngineCall(scope.engine, `connecting ${container.id.slice(0, 12)} to ${network}`, () => docker.getNetwork(network).connect({ Container: container.id }));
      } catch (cause) {
        throw new HarnessError("HARNESS_CONTAINER", `Could not connect ${container.id.slice(0, 12)} to the network ${network}: ${(cause as Error).message}`, { cause });
      }
    }
    const created = new HarnessContainer(scope, container, spec);
    if (spec.archive) await container.putArchive(spec.archive, { path: "/" });
    return created;
  }

  /** Connects the running container to one more network (a seat joining a scenario's client network), under
   * `aliases` there when given. */
  async connect(network: string, aliases: readonly string[] = []): Promise<void> {
    try {
      await limitEngineCall(this.scope.engine, `connecting ${this.shortId} to ${network}`, () =>
        this.scope.engine.docker
          .getNetwork(network)
          .connect({ Container: this.container.id, ...(aliases.length > 0 ? { EndpointConfig: { Aliases: [...aliases] } } : {}) }),
      );
    } catch (cause) {
      throw new HarnessError("HARNESS_CONTAINER", `Could not connect ${this.shortId} to the network ${network}: ${(cause as Error).message}`, { cause });
    }
  }

  /** Takes it off a network again; a network or container already gone is no error. */
  async disconnect(network: string): Promise<void> {
    await changeEndpoints(this.scope.engine, `disconnecting ${this.shortId} from ${network}`, () =>
      this.scope.engine.docker.getNetwork(network).disconnect({ Container: this.container.id, Force: true }),
    ).catch(() => undefined);
  }

  async start(): Promise<void> {
    if (this.spec.agent) return this.#startWithAgent();
    if (this.spec.attached) return this.#startAttached();
    await this.container.start();
    const stream = (await this.container.logs({ follow: true, stdout: true, stderr: true, since: 0 })) as NodeJS.ReadableStream;
    const out = new PassThrough();
    const err = new PassThrough();
    this.scope.engine.docker.modem.demuxStream(stream, out, err);
    out.pipe(this.stdout.sink);
    err.pipe(this.stderr.sink);
    stream.on("end", () => {
      out.end();
      err.end();
    });
    this.#watchExit();
  }

  /** The main process's exit status, asked for once it runs. */
  #watchExit(): void {
    this.exited = this.container.wait().then(
      (result: { StatusCode?: number }) => result.StatusCode ?? null,
      () => null,
    );
  }

  /** Attached before it starts (stdin written early waits in the engine's pipe), then up once the agent says so. */
  async #startWithAgent(): Promise<void> {
    const stream = (await this.container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as unknown as Duplex;
    this.#agent = new ExecAgent(stream, this.shortId);
    await this.container.start();
    this.#watchExit();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new HarnessError("HARNESS_CONTAINER", `The exec agent of ${this.shortId} did not come up within 30 s.`)), 30_000);
    });
    try {
      await Promise.race([this.#agent.ready, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Attached before it starts, so that nothing it writes is missed; its output goes to the line streams until a
   * route is set. */
  async #startAttached(): Promise<void> {
    const stream = (await this.container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as unknown as Duplex;
    this.#input = stream;
    const demuxer = new ExecDemuxer(
      (chunk) => (this.#route === null ? this.stdout.sink.write(Buffer.from(chunk)) : this.#route.stdout(chunk)),
      (chunk) => (this.#route === null ? this.stderr.sink.write(Buffer.from(chunk)) : this.#route.stderr(chunk)),
    );
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.#input = null;
      this.#route?.end();
      this.stdout.sink.end();
      this.stderr.sink.end();
    };
    stream.on("data", (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch (error) {
        log("[%s] attach stream: %s", this.shortId, (error as Error).message);
        stream.destroy();
      }
    });
    stream.on("end", end);
    stream.on("close", end);
    stream.on("error", end);
    await this.container.start();
    this.#watchExit();
  }

  /** Sends bytes to an attached container's main process (spec.attached); false once its stream is gone. */
  write(bytes: Buffer): boolean {
    if (this.#input === null) return false;
    this.#input.write(bytes);
    return true;
  }

  /** Where an attached container's output goes from now on (null: its line streams again). A route set after the
   * stream ended is ended at once. */
  routeOutput(route: OutputRoute | null): void {
    this.#route = route;
    if (route !== null && this.#input === null && this.spec.attached) route.end();
  }

  /** The exec agent it runs (spec.agent), once started; null for any other container. */
  get agent(): ExecAgent | null {
    return this.#agent;
  }

  /** Resolves with the exit status once the main process has ended. */
  waitForExit(): Promise<number | null> {
    if (!this.exited) throw new HarnessError("HARNESS_INTERNAL", "waitForExit() was called on a container that was never started.");
    return this.exited;
  }

  async mappedPort(port: number): Promise<number> {
    return (await this.mappedPorts([port])).get(port)!;
  }

  /** Container port → host port for each of `ports`, from one inspection. */
  async mappedPorts(ports: readonly number[]): Promise<Map<number, number>> {
    return (await this.attachment(ports)).published;
  }

  /** The networks the container is on (by name), and container port → host port for each of `ports`, from one
   * inspection. */
  async attachment(ports: readonly number[]): Promise<{ networks: Set<string>; published: Map<number, number> }> {
    const info = await this.container.inspect();
    const networks = new Set(Object.keys(info.NetworkSettings.Networks ?? {}));
    const mapped = new Map<number, number>();
    for (const port of ports) {
      const binding = info.NetworkSettings.Ports[`${port}/tcp`]?.[0];
      if (!binding) throw new HarnessError("HARNESS_CONTAINER", `Port ${port} of ${this.shortId} is not published.`);
      mapped.set(port, Number(binding.HostPort));
    }
    return { networks, published: mapped };
  }

  async ipAddress(network: string): Promise<string> {
    const info = await this.container.inspect();
    const address = info.NetworkSettings.Networks[network]?.IPAddress;
    if (!address) throw new HarnessError("HARNESS_CONTAINER", `${this.shortId} has no address on ${network}.`);
    return address;
  }

  /** Its IPv4 and global IPv6 address on a network (null where it has none). */
  async addresses(network: string): Promise<{ ipv4: string | null; ipv6: string | null }> {
    const info = await this.container.inspect();
    const endpoint = info.NetworkSettings.Networks[network];
    return { ipv4: endpoint?.IPAddress || null, ipv6: endpoint?.GlobalIPv6Address || null };
  }

  /** Runs a command to its end and returns its output whole: for small outputs. */
  async exec(command: string[], options: { timeoutMs?: number; stdin?: string | Buffer } = {}): Promise<ExecResult> {
    const stdout: Buffer[] = [];
    const result = await this.execStream(command, { ...options, onStdout: (chunk) => stdout.push(Buffer.from(chunk)) });
    const stdoutBytes = Buffer.concat(stdout);
    return { exitCode: result.exitCode, stdoutBytes, stdout: stdoutBytes.toString("utf8"), stderr: result.stderr };
  }

  /**
   * Runs a command to its end, handing its stdout to `onStdout` chunk by chunk as the engine delivers it
   * (views of the stream's buffers: copy to keep); nothing of stdout is held here, so an output of any size
   * passes in bounded memory. stderr is collected, up to `stderrLimit` bytes (default 1 MiB).
   */
  async execStream(
    command: string[],
    options: { timeoutMs?: number; stdin?: string | Buffer; onStdout: (chunk: Buffer) => void; stderrLimit?: number },
  ): Promise<{ exitCode: number; stderr: string }> {
    if (this.#agent !== null) return this.#agent.run(command, options);
    const exec = await this.container.exec({ Cmd: command, AttachStdout: true, AttachStderr: true, AttachStdin: options.stdin !== undefined });
    const stream = await exec.start({ hijack: true, stdin: options.stdin !== undefined });
    const stderrLimit = options.stderrLimit ?? 1024 * 1024;
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    const demuxer = new ExecDemuxer(options.onStdout, (chunk) => {
      if (stderrBytes >= stderrLimit) return;
      const part = Buffer.from(chunk.subarray(0, stderrLimit - stderrBytes));
      stderr.push(part);
      stderrBytes += part.length;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stream.destroy();
        reject(new HarnessError("HARNESS_CONTAINER", `exec ${command.join(" ")} in ${this.shortId} timed out`));
      }, options.timeoutMs ?? 60_000);
      stream.on("data", (chunk: Buffer) => {
        try {
          demuxer.push(chunk);
        } catch (error) {
          clearTimeout(timer);
          stream.destroy();
          reject(error);
        }
      });
      stream.on("end", () => {
        clearTimeout(timer);
        resolve();
      });
      stream.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      if (options.stdin !== undefined) stream.end(options.stdin);
    });
    const info = await exec.inspect();
    return { exitCode: info.ExitCode ?? -1, stderr: Buffer.concat(stderr, stderrBytes).toString("utf8") };
  }

  /** Runs a long-lived command inside the container (tail -F of a log file) and collects its stdout as
   * lines, until the command or the container ends. */
  async follow(command: string[]): Promise<LineStream> {
    return (await this.followPair(command)).stdout;
  }

  /** Runs a long-lived command and collects its stdout and its stderr as two streams of lines. */
  async followPair(command: string[]): Promise<{ stdout: LineStream; stderr: LineStream }> {
    const lines = { stdout: new LineStream(), stderr: new LineStream() };
    await this.followInto(command, lines.stdout.sink, lines.stderr.sink);
    return lines;
  }

  /** Runs a long-lived command and writes its stdout and its stderr into the given streams, ended with it. */
  async followInto(command: string[], stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<void> {
    const exec = await this.container.exec({ Cmd: command, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    const out = new PassThrough();
    const err = new PassThrough();
    this.scope.engine.docker.modem.demuxStream(stream, out, err);
    out.pipe(stdout);
    err.pipe(stderr);
    const end = (): void => {
      out.end();
      err.end();
    };
    stream.on("end", end);
    stream.on("error", end);
  }

  /** A file or directory of the container's file system as a tar stream (`docker cp` out); the container need
   * not be running. Entries are named from the path's last component (`conf/httpd.conf` for /x/conf). */
  async readArchive(path: string): Promise<NodeJS.ReadableStream> {
    try {
      return await this.container.getArchive({ path });
    } catch (cause) {
      throw new HarnessError("HARNESS_CONTAINER", `Could not read ${path} from ${this.shortId}: ${(cause as Error).message}`, { cause });
    }
  }

  /** The text of one file of the container (running or exited), at most `limit` bytes of its end; null when it
   * is not there. */
  async readTextFile(path: string, limit = 64 * 1024): Promise<string | null> {
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.container.getArchive({ path });
    } catch {
      return null;
    }
    const unpack = extract();
    let text: string | null = null;
    const done = (async () => {
      for await (const entry of unpack) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        if (text === null && entry.header.type === "file") {
          const bytes = Buffer.concat(chunks);
          text = bytes.subarray(Math.max(0, bytes.length - limit)).toString("utf8");
        }
      }
    })();
    stream.pipe(unpack);
    await done;
    return text;
  }

  async remove(): Promise<void> {
    await this.scope.removeContainer(this.id, this.spec.joinNetworkOf === undefined);
    this.#agent?.close();
    this.#input?.destroy();
  }
}

/** The endpoint settings that pin an address (Docker takes it only on a network with a user-given subnet). */
function fixedAddress(address: string | undefined): { IPAMConfig?: { IPv4Address?: string; IPv6Address?: string } } {
  if (address === undefined) return {};
  return { IPAMConfig: address.includes(":") ? { IPv6Address: address } : { IPv4Address: address } };
}
