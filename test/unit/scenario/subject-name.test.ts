import { describe, expect, it } from "vitest";
import { formatSubject, parseSubject, type Subject } from "../../../harness/scenario/subject-name.ts";

function parsed(text: string): Subject {
  const result = parseSubject(text);
  if (!result.ok) throw new Error(`${text}: ${result.problem}`);
  return result.subject;
}

function problem(text: string): { problem: string; index: number } {
  const result = parseSubject(text);
  if (result.ok) throw new Error(`${text} parsed`);
  return { problem: result.problem, index: result.index };
}

describe("parseSubject", () => {
  it("reads OpenSSL's slash form in order, with commas and spaces in values as data", () => {
    expect(parsed("/C=DE/O=Example, Inc./OU=Web/CN=server.test")).toEqual([
      { attribute: "C", value: "DE" },
      { attribute: "O", value: "Example, Inc." },
      { attribute: "OU", value: "Web" },
      { attribute: "CN", value: "server.test" },
    ]);
  });

  it("takes a backslash as an escape for the next character, and = + quotes as plain characters", () => {
    expect(parsed("/O=a\\/b\\\\c/CN=x=y+z \"q\"")).toEqual([
      { attribute: "O", value: "a/b\\c" },
      { attribute: "CN", value: 'x=y+z "q"' },
    ]);
  });

  it("keeps repeated attributes (two OUs) and accepts a trailing slash, as OpenSSL does", () => {
    expect(parsed("/OU=a/OU=b/")).toEqual([
      { attribute: "OU", value: "a" },
      { attribute: "OU", value: "b" },
    ]);
  });

  it("says where the text goes wrong", () => {
    expect(problem("CN=x")).toEqual({ problem: expect.stringContaining('starts with "/"'), index: 0 });
    expect(problem("/C=DE/cn=x")).toEqual({ problem: expect.stringContaining("did you mean CN?"), index: 6 });
    expect(problem("/commonName=x").problem).toContain("write the short name: CN");
    expect(problem("/XX=1").problem).toMatch(/unknown attribute "XX"; known: C, ST, L, O, OU, CN/);
    expect(problem("/C=DE/CN")).toEqual({ problem: 'field "CN" has no "=" (write type=value)', index: 6 });
    expect(problem("/C=DE//CN=x")).toEqual({ problem: 'an empty field ("//")', index: 6 });
    expect(problem("/C=DE/CN=")).toEqual({ problem: "CN: the value is empty", index: 9 });
    expect(problem("/C=Germany")).toEqual({ problem: "C: countryName takes exactly 2 characters, got 7", index: 3 });
    expect(problem(`/CN=${"a".repeat(65)}`).problem).toBe("CN: commonName takes 1 to 64 characters, got 65");
    expect(problem("/emailAddress=ü@example.test").problem).toContain("IA5String: ASCII only");
    expect(problem("/CN=x\\").problem).toContain("a backslash ends the subject");
    expect(problem("/").problem).toBe("a subject needs at least one attribute");
  });
});

describe("formatSubject", () => {
  it("writes the slash form back, escaping / and \\ so it parses to the same parts", () => {
    const subject: Subject = [
      { attribute: "O", value: "a/b\\c, Inc." },
      { attribute: "CN", value: "server.test" },
    ];
    expect(formatSubject(subject)).toBe("/O=a\\/b\\\\c, Inc./CN=server.test");
    expect(parsed(formatSubject(subject))).toEqual(subject);
  });
});
