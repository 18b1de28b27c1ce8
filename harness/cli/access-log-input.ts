// `replay ACCESS_LOG`: the one read of the access log, as a stream of lines (a log may be far larger than memory
// allows; only its distinct requests are kept). The first lines choose the format when none is named; every line
// then goes through the pure collector (plan/replay/replay-collector.ts). Bytes are read as latin1, so no byte is
// lost or refused (httpd escapes non-ASCII request bytes as \xhh anyway).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { HarnessError } from "../errors.ts";
import { type ReplayResult, ReplayCollector } from "../plan/replay/replay-collector.ts";
import { chooseFormat, type FormatCandidate } from "../plan/replay/replay-formats.ts";
import type { ReplayContext } from "../plan/replay/replay-request.ts";

/** Lines the format is chosen by. */
export const FORMAT_SAMPLE_LINES = 200;

export interface AccessLogInput {
  format: FormatCandidate;
  /** How many of the sample's lines the chosen format read, and of how many (null when it was named). */
  sample: { read: number; lines: number } | null;
  result: ReplayResult;
}

export async function readAccessLog(path: string, formats: { named: FormatCandidate } | { candidates: readonly FormatCandidate[] }, context: ReplayContext): Promise<AccessLogInput> {
  try {
    if (!(await stat(path)).isFile()) throw new HarnessError("HARNESS_ACCESS_LOG", `the access log ${path} is not a file`);
  } catch (cause) {
    if (cause instanceof HarnessError) throw cause;
    throw new HarnessError("HARNESS_ACCESS_LOG", `the access log ${path} cannot be read: ${(cause as Error).message}`, { cause });
  }
  const lines = createInterface({ input: createReadStream(path, { encoding: "latin1" }), crlfDelay: Infinity });
  const pending: Array<{ line: number; text: string }> = [];
  let collector: ReplayCollector | null = null;
  let chosen: FormatCandidate | null = null;
  let sample: AccessLogInput["sample"] = null;
  const start = (): ReplayCollector => {
    if ("named" in formats) chosen = formats.named;
    else {
      const texts = pending.map((p) => p.text).filter((text) => text.trim() !== "");
      const best = chooseFormat(formats.candidates, texts);
      chosen = best.candidate;
      sample = { read: best.read, lines: texts.length };
    }
    const made = new ReplayCollector(chosen.format, context);
    for (const p of pending.splice(0)) made.add(p.line, p.text);
    return made;
  };
  let number = 0;
  let nonBlank = 0;
  try {
    for await (const text of lines) {
      number++;
      if (collector !== null) {
        collector.add(number, text);
        continue;
      }
      pending.push({ line: number, text });
      if (text.trim() !== "") nonBlank++;
      if ("named" in formats || nonBlank >= FORMAT_SAMPLE_LINES) collector = start();
    }
  } catch (cause) {
    throw new HarnessError("HARNESS_ACCESS_LOG", `the access log ${path} cannot be read: ${(cause as Error).message}`, { cause });
  }
  collector ??= start();
  return { format: chosen!, sample, result: collector.result() };
}
