import { describe, expect, it } from "vitest";
import { S11 } from "../../../harness/rules/s11-dav-lock-db.ts";
import { findingsOf } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S11 DavLockDB", () => {
  it("finds each DavLockDB and says to delete its files, with no recognise face", () => {
    expect(findingsOf(S11, `${load("dav", "dav_fs")}DavLockDB /var/lock/DavLock\n`).map((f) => [f.line, f.fix])).toEqual([[3, "rm -f /var/lock/DavLock*  (with the server stopped, before starting 2.4)"]]);
    expect(S11.recognise).toBeUndefined();
  });
});
