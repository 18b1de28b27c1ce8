// The lines migrate writes, read where they land against 2.4's recorded contexts.
import { describe, expect, it } from "vitest";
import { refusedLines } from "../../../harness/migrate/emitted-context.ts";

describe("refusedLines: what 2.4 would refuse among lines written inside given sections", () => {
  it("refuses a per-directory directive at server level, and takes it inside <Directory>", () => {
    expect(refusedLines(["AllowOverride None"], [])).toEqual([{ name: "AllowOverride", where: "inside", place: "server" }]);
    expect(refusedLines(["AllowOverride None"], [{ key: "virtualhost" }])).toHaveLength(1);
    expect(refusedLines(["AllowOverride None"], [{ key: "directory" }])).toEqual([]);
  });

  it("refuses a server directive inside a per-directory section, whatever conditional sections lie between", () => {
    expect(refusedLines(["Mutex file:/var/lock default"], [{ key: "location" }, { key: "ifmodule" }])).toEqual([{ name: "Mutex", where: "outside", place: "directory" }]);
    expect(refusedLines(["Mutex file:/var/lock default"], [{ key: "ifmodule" }])).toEqual([]);
  });

  it("reads the sections the lines open themselves", () => {
    expect(refusedLines(["<Directory />", "    AllowOverride None", "</Directory>"], [])).toEqual([]);
    expect(refusedLines(["<Location /x>", "    <Limit GET>", "        Require all granted", "    </Limit>", "</Location>"], [])).toEqual([]);
    expect(refusedLines(["<Limit GET>", "    Require all granted", "</Limit>"], []).map((line) => line.name)).toEqual(["<Limit", "Require"]);
  });

  it("takes what it does not know, and anything inside <Proxy>", () => {
    expect(refusedLines(["NoSuchDirective x"], [])).toEqual([]);
    expect(refusedLines(["SSLProxyCheckPeerName off"], [{ key: "proxy" }])).toEqual([]);
  });
});
