import type { Difference } from "./difference.ts";

/** One candidate against the baseline: the server's differences and each request's. */
export interface Comparison {
  candidate: string;
  server: Difference[];
  requests: Array<{ name: string; differences: Difference[] }>;
}
