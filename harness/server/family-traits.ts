// What differs between the httpd 2.2 and 2.4 lines, as data. Code asks for a family's traits instead of
// comparing version strings.
import type { ErrorLogDialect } from "../logs/error-log-record.ts";
import type { Family } from "../versions/httpd-version.ts";

export type { Family };

export interface FamilyTraits {
  family: Family;
  logDialect: ErrorLogDialect;
  /** Logical modules the minimal base always loads on this line (a scenario may omit some to show what
   * happens without them). 2.2 has its MPM and authorization core compiled in; 2.4 loads them. */
  baseModules: string[];
  /** The line httpd logs when it is ready to serve. */
  readyLog: RegExp;
  /** A line httpd logs right after the ready line, which the start-up is only over with (or null): waited for
   * so that on a busy machine it is not taken for the first request's. */
  afterReadyLog: RegExp | null;
}

export const FAMILY_TRAITS: Record<Family, FamilyTraits> = {
  "2.2": {
    family: "2.2",
    logDialect: "2.2",
    baseModules: ["log_config", "mime", "dir"],
    readyLog: /resuming normal operations/,
    afterReadyLog: null,
  },
  "2.4": {
    family: "2.4",
    logDialect: "2.4",
    baseModules: ["mpm_event", "unixd", "authn_core", "authz_core", "log_config", "mime", "dir"],
    readyLog: /resuming normal operations/,
    // "AH00094: Command line: '...'"
    afterReadyLog: /AH00094:/,
  },
};
