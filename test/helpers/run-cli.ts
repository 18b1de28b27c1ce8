import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/httpd-upgrade-harness.js", import.meta.url));

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in a child process. `interruptWhen` sends SIGINT once stderr matches it. */
export function runCli(args: string[], options: { env?: Record<string, string>; interruptWhen?: RegExp } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // Plain text, whatever the environment: picocolors colours under CI=true even into a pipe, and
    // none of the tests that use this wants colour.
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: "1", ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.interruptWhen && !interrupted && options.interruptWhen.test(stderr)) {
        interrupted = true;
        child.kill("SIGINT");
      }
    });
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
