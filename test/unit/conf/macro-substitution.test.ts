import { expect, test } from "vitest";
import { substituteMacroLine } from "../../../harness/conf/macro-substitution.ts";

test("each parameter is replaced where written, the longest name first on a tie", () => {
  expect(substituteMacroLine("ServerName $host.$hostname", ["$host", "$hostname"], ["a", "b"])).toBe("ServerName a.b");
});

test("a value is not scanned again for parameters", () => {
  expect(substituteMacroLine("X $a $b", ["$a", "$b"], ["$b", "2"])).toBe("X $b 2");
});

test("an @ parameter's value is quoted with its quotes escaped", () => {
  expect(substituteMacroLine("Header set X @v", ["@v"], ['say "hi"'])).toBe('Header set X "say \\"hi\\""');
});

test("${name} is replaced only when declared so", () => {
  expect(substituteMacroLine("A ${name} $name", ["$name"], ["v"])).toBe("A ${name} v");
  expect(substituteMacroLine("A ${name}", ["${name}"], ["v"])).toBe("A v");
});
