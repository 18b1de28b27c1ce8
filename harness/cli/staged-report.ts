// A report written piece by piece, never held whole: to a temporary file beside its target, renamed into place once
// every piece is written (a report is whole or absent, whatever fails on the way), or to standard output as the
// pieces come. A target that is not a regular file (/dev/null, a pipe) is written to in place: there is no file to
// swap, and a rename would replace the device.
import { once } from "node:events";
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { HarnessError } from "../errors.ts";

/** A report being written piece by piece to a temporary file beside its target: `publish` renames it into
 * place, `discard` removes it, so a report is whole or absent. */
export interface StagedReport {
  publish(): void;
  discard(): void;
}

/** Pieces are gathered into writes of about this many characters. */
const FLUSH_CHARS = 1 << 16;

/** Whether the path names something other than a regular file (a device, a pipe): written in place. */
function special(path: string): boolean {
  try {
    const stats = statSync(path);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}

/** Writes the pieces to the target's temporary file (in writes of about 64 KB); HARNESS_REPORT_WRITE when the
 * file system refuses. A piece that fails to render leaves no file and throws as it is. */
export function stageReport(target: { format: string; path: string }, chunks: Iterable<string>): StagedReport {
  const inPlace = special(target.path);
  const temporary = inPlace ? target.path : `${target.path}.${process.pid}.tmp`;
  const discard = (): void => {
    if (inPlace) return;
    try {
      rmSync(temporary, { force: true });
    } catch {
      // the directory itself could not be made: there is no temporary file
    }
  };
  const refused = (cause: unknown): HarnessError =>
    new HarnessError("HARNESS_REPORT_WRITE", `Could not write the ${target.format} report to ${target.path}.`, { cause, hint: "Check that the directory is writable." });
  let fd: number;
  try {
    if (!inPlace) mkdirSync(dirname(target.path), { recursive: true });
    fd = openSync(temporary, "w");
  } catch (cause) {
    discard();
    throw refused(cause);
  }
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = (): void => {
      try {
        writeSync(fd, pending.join(""));
      } catch (cause) {
        throw refused(cause);
      }
      pending = [];
      size = 0;
    };
    for (const chunk of chunks) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= FLUSH_CHARS) flush();
    }
    flush();
  } catch (error) {
    closeSync(fd);
    discard();
    throw error;
  }
  closeSync(fd);
  return {
    publish: () => {
      if (inPlace) return;
      try {
        renameSync(temporary, target.path);
      } catch (cause) {
        discard();
        throw refused(cause);
      }
    },
    discard,
  };
}

/** Writes the pieces to a stream (standard output) in writes of about 64 KB, waiting whenever the stream asks. */
export async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  let pending: string[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    const text = pending.join("");
    pending = [];
    size = 0;
    if (text !== "" && !stream.write(text)) await once(stream, "drain");
  };
  for (const chunk of chunks) {
    pending.push(chunk);
    size += chunk.length;
    if (size >= FLUSH_CHARS) await flush();
  }
  await flush();
}
