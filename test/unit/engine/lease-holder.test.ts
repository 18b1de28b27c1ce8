import { describe, expect, it } from "vitest";
import { formatHolder, holderGone, type LeaseHolder, parseHolder, parseProcStat, thisHolder } from "../../../harness/engine/lease-holder.ts";

// /proc/<pid>/stat of a node process, with a comm that holds a space and a parenthesis.
const stat = (pid: number, state: string, started: string, comm = "node") =>
  `${pid} (${comm}) ${state} 1 ${pid} ${pid} 0 -1 4194560 9017 0 0 0 54 12 0 0 20 0 11 0 ${started} 1139310592 17265 18446744073709551615 1 1 0 0 0 0 0 16781312 17922 0 0 0 17 1 0 0 0 0 0`;

const HOLDER: LeaseHolder = { boot: "6b1e3c9a-0d4e-4c4f-9f6d-3a1b2c3d4e5f", pidNamespace: "4026531836", pid: 4242, started: "987654" };

describe("parseProcStat", () => {
  it("reads the pid, the state and the start time, whatever the command's name holds", () => {
    expect(parseProcStat(stat(4242, "S", "987654"))).toEqual({ pid: 4242, state: "S", started: "987654" });
    expect(parseProcStat(stat(4242, "Z", "987654", "a b) (c"))).toEqual({ pid: 4242, state: "Z", started: "987654" });
    expect(parseProcStat("garbage")).toBeNull();
  });
});

describe("lease holder labels", () => {
  it("write the holder and read it back; anything else names no holder", () => {
    expect(parseHolder(formatHolder(HOLDER))).toEqual(HOLDER);
    expect(parseHolder(undefined)).toBeNull();
    expect(parseHolder("a/b/c")).toBeNull();
    expect(parseHolder("a/b/0/1")).toBeNull();
  });

  it("name this process on Linux, with its own pid", () => {
    const here = thisHolder();
    if (process.platform !== "linux") return expect(here).toBeNull();
    expect(here?.pid).toBe(process.pid);
    expect(parseHolder(formatHolder(here!))).toEqual(here);
  });
});

describe("holderGone", () => {
  const here: LeaseHolder = { ...HOLDER, pid: 100, started: "5" };

  it("knows a holder gone on this kernel and in this pid namespace: no process, another one under its pid, a zombie", () => {
    expect(holderGone(HOLDER, here, null)).toBe(true);
    expect(holderGone(HOLDER, here, stat(4242, "S", "111"))).toBe(true);
    expect(holderGone(HOLDER, here, stat(4242, "Z", "987654"))).toBe(true);
  });

  it("takes a holder that runs, stopped or not, for alive", () => {
    expect(holderGone(HOLDER, here, stat(4242, "S", "987654"))).toBe(false);
    expect(holderGone(HOLDER, here, stat(4242, "T", "987654"))).toBe(false);
  });

  it("cannot know a holder on another kernel or in another pid namespace gone: the lease decides", () => {
    expect(holderGone(HOLDER, { ...here, boot: "another" }, null)).toBe(false);
    expect(holderGone(HOLDER, { ...here, pidNamespace: "4026532201" }, null)).toBe(false);
    expect(holderGone(HOLDER, null, null)).toBe(false);
  });
});
