// The harness's end of docker/tools/exec-agent.py: a client container's main process that runs commands sent over
// the container's attach stream, in place of one `docker exec` per command (about 50 ms of the engine's CPU and
// three API round trips each; a fleet config sends two request batches per side). What a caller sees is what
// HarnessContainer.execStream gives for an exec: stdout chunk by chunk, stderr collected up to a limit, the exit
// status (128 + the signal). Frames are described in the agent.
import type { Duplex } from "node:stream";
import { HarnessError } from "../errors.ts";
import { ExecDemuxer } from "./exec-demuxer.ts";
import { log } from "./log.ts";
import { PendingLine } from "./pending-line.ts";

/** The agent as the container's command (the tools image's copy). */
export const EXEC_AGENT_COMMAND: readonly string[] = ["python3", "/usr/local/bin/exec-agent.py"];

/** A request batch as the agent runs it: each item's whole curl command line, its body (base64) written to the file
 * `b` its command reads, and whether it is skipped after an item that timed out; `gap` seconds between items. */
export interface AgentBatch {
  gap: number;
  items: Array<{ argv: string[]; body: string | null; skip: boolean }>;
  /** The curl program for every item, not libcurl in the agent (docker/tools/agent_curl.py): for the test that
   * holds the two side by side. */
  program?: boolean;
}

interface Job {
  onStdout: (chunk: Buffer) => void;
  stderr: Buffer[];
  stderrBytes: number;
  stderrLimit: number;
  done: (status: number) => void;
}

const FRAME = /^(\d+) ([oexh]) (-?\d+)$/;

/** Parses the agent's output frames as they stream in. Pure over its input: tests feed it bytes. */
export class AgentFrameReader {
  readonly #header = new PendingLine();
  #current: { id: number; kind: "o" | "e"; remaining: number } | null = null;

  constructor(private readonly onFrame: (id: number, kind: "o" | "e" | "x" | "h", value: number, data: Buffer | null) => void) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      const current = this.#current;
      if (current === null) {
        const header = this.#header.take(chunk, i);
        if (header === null) return;
        i = header.next;
        const line = header.line;
        const match = FRAME.exec(line);
        if (match === null) throw new HarnessError("HARNESS_CONTAINER", `The exec agent sent something that is not a frame: ${JSON.stringify(line.slice(0, 120))}`);
        const id = Number(match[1]);
        const kind = match[2] as "o" | "e" | "x" | "h";
        const value = Number(match[3]);
        if ((kind === "o" || kind === "e") && value > 0) this.#current = { id, kind, remaining: value };
        else this.onFrame(id, kind, value, kind === "o" || kind === "e" ? Buffer.alloc(0) : null);
        continue;
      }
      const take = Math.min(current.remaining, chunk.length - i);
      this.onFrame(current.id, current.kind, take, chunk.subarray(i, i + take));
      current.remaining -= take;
      i += take;
      if (current.remaining === 0) this.#current = null;
    }
  }
}

export class ExecAgent {
  readonly #jobs = new Map<number, Job>();
  #nextId = 1;
  #ended: string | null = null;
  readonly ready: Promise<void>;

  /** `stream`: the container's attach stream (stdin, stdout, stderr), opened before it started. */
  constructor(
    private readonly stream: Duplex,
    private readonly label: string,
  ) {
    let hello: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      hello = resolve;
      failed = reject;
    });
    // Whether or not anyone waits for it: an agent that never came up is reported by the first command.
    this.ready.catch(() => undefined);
    const reader = new AgentFrameReader((id, kind, value, data) => {
      if (kind === "h") return hello();
      const job = this.#jobs.get(id);
      if (job === undefined) return;
      if (kind === "o") {
        if (data !== null && data.length > 0) job.onStdout(data);
      } else if (kind === "e") {
        if (data === null || job.stderrBytes >= job.stderrLimit) return;
        const part = Buffer.from(data.subarray(0, job.stderrLimit - job.stderrBytes));
        job.stderr.push(part);
        job.stderrBytes += part.length;
      } else {
        this.#jobs.delete(id);
        job.done(value);
      }
    });
    // The agent's own stderr (a Python error) goes to the debug log; it has nothing else to say there.
    const demuxer = new ExecDemuxer(
      (chunk) => reader.push(chunk),
      (chunk) => log("[%s] exec agent: %s", label, chunk.toString("utf8").trimEnd()),
    );
    const end = (reason: string): void => {
      if (this.#ended !== null) return;
      this.#ended = reason;
      const error = new HarnessError("HARNESS_CONTAINER", `The exec agent of ${label} is gone (${reason}).`);
      failed(error);
      for (const job of this.#jobs.values()) job.done(-1);
      this.#jobs.clear();
    };
    stream.on("data", (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch (error) {
        end((error as Error).message);
        stream.destroy();
      }
    });
    stream.on("end", () => end("its stream ended"));
    stream.on("close", () => end("its stream closed"));
    stream.on("error", (error) => end(error.message));
  }

  /** Runs a command to its end, as HarnessContainer.execStream does. */
  run(
    command: readonly string[],
    options: { timeoutMs?: number; stdin?: string | Buffer; onStdout: (chunk: Buffer) => void; stderrLimit?: number },
  ): Promise<{ exitCode: number; stderr: string }> {
    const argv = Buffer.from(JSON.stringify(command), "utf8");
    const stdin = options.stdin === undefined ? null : Buffer.isBuffer(options.stdin) ? options.stdin : Buffer.from(options.stdin, "utf8");
    return this.#job(command.join(" "), (id) => [Buffer.from(`r ${id} ${argv.length} ${stdin === null ? -1 : stdin.length}\n`), argv, ...(stdin === null ? [] : [stdin])], options);
  }

  /** Sends a request batch (clients/client-batch.ts): its records come on stdout as the batch's script prints them. */
  batch(spec: AgentBatch, options: { timeoutMs: number; onStdout: (chunk: Buffer) => void }): Promise<{ exitCode: number; stderr: string }> {
    const json = Buffer.from(JSON.stringify(spec), "utf8");
    return this.#job(`a batch of ${spec.items.length} requests`, (id) => [Buffer.from(`b ${id} ${json.length}\n`), json], options);
  }

  async #job(
    what: string,
    frames: (id: number) => Buffer[],
    options: { timeoutMs?: number; onStdout: (chunk: Buffer) => void; stderrLimit?: number },
  ): Promise<{ exitCode: number; stderr: string }> {
    await this.ready;
    if (this.#ended !== null) throw new HarnessError("HARNESS_CONTAINER", `The exec agent of ${this.label} is gone (${this.#ended}).`);
    const id = this.#nextId++;
    const job: Job = { onStdout: options.onStdout, stderr: [], stderrBytes: 0, stderrLimit: options.stderrLimit ?? 1024 * 1024, done: () => undefined };
    const status = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#jobs.delete(id);
        this.#write(Buffer.from(`k ${id}\n`));
        reject(new HarnessError("HARNESS_CONTAINER", `exec ${what} in ${this.label} timed out`));
      }, options.timeoutMs ?? 60_000);
      job.done = (value) => {
        clearTimeout(timer);
        if (value < 0) reject(new HarnessError("HARNESS_CONTAINER", `The exec agent of ${this.label} is gone (${this.#ended ?? "ended"}) before exec ${what} ended.`));
        else resolve(value);
      };
      this.#jobs.set(id, job);
      this.#write(Buffer.concat(frames(id)));
    });
    return { exitCode: status, stderr: Buffer.concat(job.stderr, job.stderrBytes).toString("utf8") };
  }

  #write(bytes: Buffer): void {
    if (this.#ended === null) this.stream.write(bytes);
  }

  /** Lets go of the stream (the container is being removed). */
  close(): void {
    this.stream.destroy();
  }
}
