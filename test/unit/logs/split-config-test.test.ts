import { describe, expect, it } from "vitest";
import { parseConfigTestOutput } from "../../../harness/logs/split-config-test.ts";
import { fixtureLines, fixtureText } from "./fixture-lines.ts";

// config-test-2.4.txt holds four recorded `httpd -t` runs of 2.4.62, two lines each:
// Order without access_compat (exit 1), KeepAlive yes (exit 1), DefaultType (exit 0), NameVirtualHost (exit 0).
const run24 = (index: number) => fixtureLines("config-test-2.4.txt").slice(2 * index, 2 * index + 2).join("\n") + "\n";

describe("parseConfigTestOutput", () => {
  it("reports a 2.4 syntax error paired with its reason line", () => {
    const result = parseConfigTestOutput(run24(0), 1, "2.4");
    expect(result.ok).toBe(false);
    expect(result.messages).toEqual([
      "AH00526: Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:",
      "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
    ]);
    expect(result.syntaxError).toEqual({
      file: "/usr/local/apache2/conf/httpd.conf",
      line: 36,
      reason:
        "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
    });
    expect(result.records.map((record) => [record.code, record.event])).toEqual([
      ["AH00526", "AH00526"],
      [null, "invalid-command"],
    ]);
  });

  it("reports the KeepAlive flag error as a syntax error", () => {
    expect(parseConfigTestOutput(run24(1), 1, "2.4").syntaxError).toEqual({
      file: "/usr/local/apache2/conf/httpd.conf",
      line: 36,
      reason: "KeepAlive must be On or Off",
    });
  });

  it("keeps a prefixed warning before Syntax OK as a parsed record", () => {
    const result = parseConfigTestOutput(run24(2), 0, "2.4");
    expect(result.ok).toBe(true);
    expect(result.syntaxError).toBeNull();
    expect(result.records.map((record) => [record.level, record.module, record.code, record.event])).toEqual([
      ["warn", "core", "AH00117", "AH00117"],
      [null, null, null, "syntax-ok"],
    ]);
  });

  it("parses AH00548 without prefix", () => {
    const result = parseConfigTestOutput(run24(3), 0, "2.4");
    expect(result.records.map((record) => record.event)).toEqual(["AH00548", "syntax-ok"]);
  });

  it("parses the 2.2 NameVirtualHost warning and the AH00558-like hostname line", () => {
    const result = parseConfigTestOutput(fixtureText("config-test-2.2.txt"), 0, "2.2");
    expect(result.records.map((record) => [record.level, record.event])).toEqual([
      ["warn", "AH00548"],
      [null, "syntax-ok"],
      [null, "AH00558"],
      [null, "syntax-ok"],
    ]);
  });

  // Constructed from 2.2.34 server/config.c:1768: the same two lines as 2.4, without the AH code.
  it("reports a 2.2 syntax error, which has no AH code", () => {
    const text =
      "Syntax error on line 12 of /usr/local/apache2/conf/httpd.conf:\nInvalid command 'Bogus', perhaps misspelled or defined by a module not included in the server configuration\n";
    expect(parseConfigTestOutput(text, 1, "2.2").syntaxError).toEqual({
      file: "/usr/local/apache2/conf/httpd.conf",
      line: 12,
      reason:
        "Invalid command 'Bogus', perhaps misspelled or defined by a module not included in the server configuration",
    });
  });

  it("gives an empty reason when the output ends after the syntax-error line", () => {
    const text = "AH00526: Syntax error on line 3 of /etc/httpd.conf:";
    expect(parseConfigTestOutput(text, 1, "2.4").syntaxError).toEqual({ file: "/etc/httpd.conf", line: 3, reason: "" });
  });

  it("takes ok from the exit code, not from the text", () => {
    expect(parseConfigTestOutput("Syntax OK\n", 1, "2.4").ok).toBe(false);
    expect(parseConfigTestOutput("", 0, "2.4").ok).toBe(true);
  });

  it("drops empty lines and line terminators from messages", () => {
    const result = parseConfigTestOutput("\r\nAH00548: NameVirtualHost has no effect\r\n\r\nSyntax OK\r\n", 0, "2.4");
    expect(result.messages).toEqual(["AH00548: NameVirtualHost has no effect", "Syntax OK"]);
    expect(result.records).toHaveLength(2);
  });
});
