// Runs the CLI in-process with stdout and stderr captured, for the config command's tests.
import { vi } from "vitest";
import { main } from "../../../harness/cli/main.ts";

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const status = await main(argv);
    return { status, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

export const FIXTURES = new URL("../../fixtures/conf/cli/", import.meta.url).pathname;
