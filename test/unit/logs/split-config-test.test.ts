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

  // Recorded with `httpd -t` on local/httpd:2.2.34 and harness-httpd:2.4.68: the stock httpd.conf with
  // `Include conf/extra/x.conf` appended, x.conf holding a LoadModule of a missing file on its line 2 (and, for the
  // three levels, y.conf including x.conf on its line 1). Exit status 1 each time.
  const MISSING = "/usr/local/apache2/modules/mod_nothere.so: cannot open shared object file: No such file or directory";
  const NESTED = {
    "2.2": `httpd: Syntax error on line 495 of /usr/local/apache2/conf/httpd.conf: Syntax error on line 2 of /usr/local/apache2/conf/extra/x.conf: Cannot load /usr/local/apache2/modules/mod_nothere.so into server: ${MISSING}\n`,
    "2.4": `httpd: Syntax error on line 552 of /usr/local/apache2/conf/httpd.conf: Syntax error on line 2 of /usr/local/apache2/conf/extra/x.conf: Cannot load modules/mod_nothere.so into server: ${MISSING}\n`,
  } as const;

  it("names the included file's line for a one-line refusal nested in the Include's (2.2.34 and 2.4.68)", () => {
    expect(parseConfigTestOutput(NESTED["2.2"], 1, "2.2").syntaxError).toEqual({
      file: "/usr/local/apache2/conf/extra/x.conf",
      line: 2,
      reason: `Cannot load /usr/local/apache2/modules/mod_nothere.so into server: ${MISSING}`,
    });
    expect(parseConfigTestOutput(NESTED["2.4"], 1, "2.4").syntaxError).toEqual({
      file: "/usr/local/apache2/conf/extra/x.conf",
      line: 2,
      reason: `Cannot load modules/mod_nothere.so into server: ${MISSING}`,
    });
  });

  it("names the innermost file through two Includes, and the main file's line for a one-line refusal there", () => {
    const threeLevels =
      `httpd: Syntax error on line 552 of /usr/local/apache2/conf/httpd.conf: Syntax error on line 1 of /usr/local/apache2/conf/extra/y.conf: Syntax error on line 2 of /usr/local/apache2/conf/extra/x.conf: Cannot load modules/mod_nothere.so into server: ${MISSING}\n`;
    expect(parseConfigTestOutput(threeLevels, 1, "2.4").syntaxError).toMatchObject({ file: "/usr/local/apache2/conf/extra/x.conf", line: 2 });
    const inMain = `httpd: Syntax error on line 495 of /usr/local/apache2/conf/httpd.conf: Cannot load /usr/local/apache2/modules/mod_nothere.so into server: ${MISSING}\n`;
    expect(parseConfigTestOutput(inMain, 1, "2.2").syntaxError).toEqual({
      file: "/usr/local/apache2/conf/httpd.conf",
      line: 495,
      reason: `Cannot load /usr/local/apache2/modules/mod_nothere.so into server: ${MISSING}`,
    });
  });

  it("reads the two-line refusal of an included file as before (2.2.34 and 2.4.68: Invalid command on x.conf's line 2)", () => {
    const reason = "Invalid command 'FooBarBaz', perhaps misspelled or defined by a module not included in the server configuration";
    expect(parseConfigTestOutput(`Syntax error on line 2 of /usr/local/apache2/conf/extra/x.conf:\n${reason}\n`, 1, "2.2").syntaxError).toEqual({ file: "/usr/local/apache2/conf/extra/x.conf", line: 2, reason });
    expect(parseConfigTestOutput(`AH00526: Syntax error on line 2 of /usr/local/apache2/conf/extra/x.conf:\n${reason}\n`, 1, "2.4").syntaxError).toEqual({ file: "/usr/local/apache2/conf/extra/x.conf", line: 2, reason });
  });

  it("does not take a message that only quotes the words further in for a syntax error", () => {
    expect(parseConfigTestOutput("AH00016: Configuration Failed: the check said Syntax error on line 3 of /x.conf: nothing\n", 1, "2.4").syntaxError).toBeNull();
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
