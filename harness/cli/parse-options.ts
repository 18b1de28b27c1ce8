// The command line's usage text and the option parsing every command shares. Commands import this file, and
// main.ts imports the commands: kept apart from main.ts so that no command imports main.ts back.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { HarnessError } from "../errors.ts";

export const USAGE = `Usage:
  httpd-upgrade-harness run [SCENARIO_FILES_OR_DIRS...] [--baseline IMAGE] [--candidate IMAGE]... [--matrix FILE]
                            [--config PATH]... [--candidate-config PATH]... [--layout L] [-D NAME]...
                            [--report FORMAT:PATH]... [--allow-missing-baseline] [--concurrency N] [--no-noise]
                            [--scenario-time-limit SECONDS] [--time-limit SECONDS] [--dry-run] [--ignore FILE]
                            [--requests probes|smoke]   (each --config tree gets prove's probes and probe world by
                                          default; smoke: GET / on every virtual host)
                            [--engines ADDR[=N],...]   (one run spread over several Docker engines)
                            [--target-modules official|debian|rhel|successors|FILE]   (as lint's; around a fragment
                                          the candidate also loads them; successors: the 2.4 successors of the
                                          2.2 image's stock modules)
  httpd-upgrade-harness plan [SCENARIO_FILES_OR_DIRS...] [--baseline IMAGE] [--candidate IMAGE]
                            [--versions 2.2.34,2.4.68] [--side baseline|candidate] [--format text|json]
                            [--target-modules official|debian|rhel|successors|FILE]
                                          what a run would do, without an engine (also: run --dry-run)
  httpd-upgrade-harness demo              the catalogue, baseline against candidate, as a table
  httpd-upgrade-harness images [--build [ID...]]
                                          the images the harness uses: present, or what would be built; --build
                                          builds the missing ones, or the recipes named (harness: the image of the
                                          harness itself, for clusters)
  httpd-upgrade-harness catalogue         every seed row of the upgrade guide and the scenarios covering it
  httpd-upgrade-harness engine [--check]  the Docker engine the environment names (DOCKER_HOST, docker context,
                                          ~/.testcontainers.properties), and whether it answers
  httpd-upgrade-harness config PATH [--for 2.2|2.4|X.Y.Z] [-D NAME]... [--layout official|debian|rhel|fragment]
                            [--format text|json]
                                          what one httpd version reads from a config tree, offline: files, modules,
                                          virtual hosts, every directive with file:line (status 2 on an error)
  httpd-upgrade-harness lint PATH... [--format text|json|sarif] [-D NAME]... [--layout L]
                            [--target-modules official|debian|rhel|successors|FILE]
                            [--fail-on blocking|security|behaviour|deprecated] [--baseline FILE] [--ignore FILE]
                            [--output FILE]
                                          every upgrade-guide finding in config trees at once, offline (status 1
                                          when one reaches --fail-on; --baseline reports only new ones)
  httpd-upgrade-harness migrate PATH [--out DIR | --patch FILE] [--layout L] [-D NAME]... [--annotate]
                            [--format text|json|sarif] [--prove [--baseline IMAGE] [--candidate IMAGE] [--ignore FILE]]
                                          the 2.2 tree rewritten for 2.4 (access control translated by meaning),
                                          every change with its rule: fixed, needs action or needs inspection;
                                          --prove proves it on real servers and rolls back what a counterexample
                                          refutes (status 1 when something needs action)
  httpd-upgrade-harness prove ORIGINAL [PORT] [--layout L] [-D NAME]... [--baseline IMAGE] [--candidate IMAGE]
                            [--format text|json] [--report FORMAT:PATH]... [--ignore FILE]
                            [--probes-out FILE [--dry-run]] [--no-power]
                                          ORIGINAL on 2.2 and PORT (default: migrate's output) on 2.4, probes
                                          and their world generated from both: "equivalent over N of M cells;
                                          power: K of L mutants killed" or counterexamples (status 0 equivalent,
                                          1 counterexamples); --no-power: no mutants of the port
  httpd-upgrade-harness replay ACCESS_LOG --config PATH [--candidate-config PATH] [--layout L] [-D NAME]...
                            [--log-format FORMAT_STRING_OR_NICKNAME] [--limit N] [--baseline IMAGE]
                            [--candidate IMAGE] [--report FORMAT:PATH]... [--allow-missing-baseline]
                            [--concurrency N] [--no-noise] [--scenario-time-limit SECONDS] [--time-limit SECONDS]
                            [--ignore FILE] [--dry-run]
                                          an access log's requests (common, combined or the tree's LogFormat),
                                          de-duplicated, the N most frequent (default 500) sent to both versions
                                          and triaged like a run; bad lines counted and shown (status as run)
  httpd-upgrade-harness fleet DIR_OR_FLEET_YAML... [--shard K/N] [--shard-durations REPORT_OR_BLOB]...
                            [--report FORMAT:PATH]... [--resume] [--state DIR] [--baseline IMAGE] [--candidate IMAGE]...
                            [--matrix FILE] [--requests probes|smoke] [--max-probes N] [--layout L] [-D NAME]...
                            [--exclude GLOB]... [--ignore FILE] [--engines ADDR[=N],...] [--concurrency N]
                            [--allow-missing-baseline] [--no-noise] [--no-reuse] [--scenario-time-limit SECONDS]
                            [--time-limit SECONDS] [--target-modules official|debian|rhel|successors|FILE]
                                          every config tree under the directories (or named by a fleet.yaml) run
                                          like --config, a tree and its copies once, probed on both versions; a
                                          verdict per config, causes across the fleet worst first; FORMAT also
                                          sarif and blob (a shard's results, for merge-reports); --shard runs one
                                          shard, --resume goes on from an interrupted run (status as run)
  httpd-upgrade-harness merge-reports BLOB... [--report FORMAT:PATH]...
                                          the blobs of every shard of one fleet run as one fleet's reports, or
                                          refused with every reason (a shard missing, repeated, cut short, of
                                          another run: status 2)
  httpd-upgrade-harness bisect --images IMAGE,IMAGE... [SCENARIO_FILES_OR_DIRS...] [--config PATH]... [--all]
                            [--format text|json] [--report FORMAT:PATH]... [--layout L] [-D NAME]... [--ignore FILE]
                            [--engines ADDR[=N],...] [--concurrency N] [--scenario-time-limit SECONDS]
                                          in images given oldest first (2.4 patch levels, a distribution's builds),
                                          the first whose outcome differs from the first image's (--all: every
                                          change between neighbours), with upstream's change notes in between
                                          (status 0 no change point, 1 a change point)

--config runs an Apache configuration tree of your own (a directory such as /etc/apache2, or one file) on both
versions, one site per --config; --candidate-config gives your own 2.4 port of it for the candidate. L is
official, debian, rhel or fragment (recognised when not given); -D NAME defines NAME as httpd -D does.
FORMAT is json, junit, markdown or html (fleet and merge-reports also take sarif, and fleet blob). Images
also come from HTTPD_BASELINE_IMAGE / HTTPD_CANDIDATE_IMAGE. --candidate given more than once (or --matrix FILE:
the baseline and candidates with labels and axes, upstream or distribution) runs the same work against every
candidate, reported side by side. Wherever an image is named, recipe:ID names one of the harness's own
(recipe:httpd-2.4, recipe:httpd-2.4.67, recipe:httpd-2.4-debian).
--ignore FILE silences what its entries match (default: .httpd-upgrade-ignore.yaml in the working directory).
--engines names each engine as DOCKER_HOST would (unix://, tcp://, ssh://, https://), =N the scenarios it runs at
once (default: --concurrency); the first one builds or pulls the images and the others get copies of them.
Exit status: 0 no regression, 1 a blocking, security or unexplained finding (or regression) not ignored,
2 bad input, 3 environment (engine, image).`;

/** Shared by commands: node's parseArgs with usage errors as HarnessErrors. */
export function parseOptions<const T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (cause) {
    throw new HarnessError("HARNESS_USAGE", (cause as Error).message, { cause, hint: USAGE });
  }
}

/** A time limit given in seconds, as milliseconds; undefined-in, null-out. */
export function seconds(value: string | undefined, flag: string): number | null {
  if (value === undefined) return null;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new HarnessError("HARNESS_USAGE", `${flag} ${JSON.stringify(value)} is not a positive number of seconds.`);
  }
  return Math.round(parsed * 1000);
}
