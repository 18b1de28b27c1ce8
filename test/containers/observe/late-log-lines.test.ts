// A single send's error-log line that reaches the harness after the send's window closed (observe/send-attribution.ts).
// The lateness is made, not waited for: the scenario's first exec stops the server's log followers (every `tail` of
// the server, SIGSTOP), so the denied request's line and its access line cannot reach the harness while its window is
// open; the exec after it lets them go on (SIGCONT), and a last request's own access line comes after the denied one's
// line in httpd's order, so the line has reached the harness by the side's end. On 2.4 the line names the denied
// request's `[client a:port]`, and it is placed on the denied request whatever window it fell into. With an
// ErrorLogFormat that writes no client, and on 2.2, which writes no port, it is placed there too, by the follower's
// order: the denied request's window closed without its access line, and the line came before that access line.
import { describe, expect, inject, it } from "vitest";
import type { RequestObservation, SideObservation } from "../../../harness/observe/observation.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

/** Every process of the server's container named `tail` (the start script's log followers, or the harness's exec
 * followers), sent `signal`; prints how many. */
const signalFollowers = (signal: "STOP" | "CONT") =>
  `n=0; for d in /proc/[0-9]*; do [ "$(cat $d/comm 2>/dev/null)" = tail ] && kill -${signal} \${d#/proc/} 2>/dev/null && n=$((n+1)); done; echo $n`;

function scenario(id: string, errorLogFormat: string | null): string {
  const format = errorLogFormat === null ? "" : `<IfModule authz_core_module>\n  ErrorLogFormat "${errorLogFormat}"\n</IfModule>\n`;
  return `
id: ${id}
title: a denied request's error-log line held back until the next request
server:
  modules: { "2.2": [authz_host], "2.4": [authz_host, access_compat] }
  config: |
${[...format.split("\n"), '<Location "/denied">', "    Order deny,allow", "    Deny from all", "</Location>"].map((line) => `    ${line}`).join("\n")}
  files:
    htdocs/index.html: "<h1>It works!</h1>\\n"
clients:
  - { name: a }
requests:
  - { name: hold-logs, exec: ${JSON.stringify(signalFollowers("STOP"))}, repeat: false }
  - { name: denied, client: a, path: /denied, repeat: false }
  - { name: release-logs, exec: ${JSON.stringify(signalFollowers("CONT"))}, repeat: false }
  - { name: after, client: a, path: /index.html, repeat: false }
`;
}

const DENIED = /client denied by server configuration/;

function request(side: SideObservation, name: string): RequestObservation {
  const found = side.requests.find((r) => r.name === name);
  expect(found, `${side.side.id}: no request ${name}`).toBeDefined();
  return found!;
}

/** Where the denied line ended: the names of the requests (and `trailing`) whose lines hold it. */
function placesOfDenied(side: SideObservation): string[] {
  const places = side.requests.filter((r) => r.errorLog.some((line) => DENIED.test(line.raw))).map((r) => r.name);
  if (side.trailingLog.some((line) => DENIED.test(line.raw))) places.push("trailing");
  return places;
}

function heldAndReleased(side: SideObservation): void {
  const held = request(side, "hold-logs").outcome;
  expect(held.kind === "exec" ? held.stdout.trim() : held, `${side.side.id}: followers stopped`).not.toBe("0");
  expect(request(side, "denied").outcome).toMatchObject({ kind: "response", status: 403 });
  expect(request(side, "after").outcome).toMatchObject({ kind: "response", status: 200 });
}

describe("a single send's late error-log line", () => {
  const images = inject("images");
  const baseline = images.baseline;

  it("is placed on its own request by the client port 2.4 writes, though it came in a later request's window", async () => {
    const { runs } = await runYamlScenarios([scenario("late-line-with-port", null)], baseline ? { baseline } : {});
    const [run] = runs;
    expect(run!.error).toBeNull();
    const candidate = run!.observations.find((side) => side.side.role === "candidate")!;
    heldAndReleased(candidate);
    expect(placesOfDenied(candidate)).toEqual(["denied"]);
    const line = request(candidate, "denied").errorLog.find((record) => DENIED.test(record.raw))!;
    expect(line.raw).toMatch(/\[client [^\]]+:\d+\]/);
    if (baseline) {
      // 2.2 writes no port: its line goes back to the denied request by the follower's order.
      const old = run!.observations.find((side) => side.side.role === "baseline")!;
      heldAndReleased(old);
      expect(placesOfDenied(old)).toEqual(["denied"]);
    }
  });

  it("is placed on its own request by the follower's order when the line names no client port", async () => {
    const { runs } = await runYamlScenarios([scenario("late-line-without-port", "[%{u}t] [%-m:%l] [pid %P:tid %T] %M")], { candidate: images.candidate, baseline: images.candidate });
    expect(runs[0]!.error).toBeNull();
    expect(runs[0]!.observations).toHaveLength(2);
    for (const side of runs[0]!.observations) {
      heldAndReleased(side);
      expect(placesOfDenied(side), `${side.side.id}: where the line without a port went`).toEqual(["denied"]);
      expect(request(side, "denied").errorLog.find((record) => DENIED.test(record.raw))!.raw).not.toMatch(/\[client /);
    }
  });
});
