// Counts and durations as the reports print them.

/** "1 scenario", "2 scenarios": the count, then the word, with an s unless the count is one. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Milliseconds as seconds for a reader, to a tenth: "41.8 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Milliseconds as a bare number of seconds to the millisecond, as JUnit's time attribute wants it: "41.812". */
export function decimalSeconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
