import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isHarnessError } from "../../../harness/errors.ts";
import { parseMatrixFile } from "../../../harness/plan/matrix-file.ts";

/** The error a file is refused with, as "line:column message". */
function refusal(text: string): string {
  try {
    parseMatrixFile(text, "m.yaml");
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    expect(error.code).toBe("HARNESS_MATRIX_FILE");
    expect(error.position?.file).toBe("m.yaml");
    return `${error.position?.line}:${error.position?.column} ${error.message}`;
  }
  throw new Error("the file was accepted");
}

describe("the version matrix file", () => {
  it("names a baseline and candidates, each with a label and an axis", () => {
    const matrix = parseMatrixFile(
      [
        "baseline: httpd:2.2.34",
        "candidates:",
        '  - { image: "recipe:httpd-2.4.67", label: "2.4.67", axis: upstream }',
        "  - image: recipe:httpd-2.4-debian",
        "    label: Debian bookworm",
        "    axis: distribution",
        "  - httpd:2.4.62",
      ].join("\n"),
      "m.yaml",
    );
    expect(matrix.baseline).toMatchObject({ image: "httpd:2.2.34", label: "httpd:2.2.34", axis: null });
    expect(matrix.candidates.map(({ image, label, axis, at }) => [image, label, axis, `${at.line}:${at.column}`])).toEqual([
      ["recipe:httpd-2.4.67", "2.4.67", "upstream", "3:5"],
      ["recipe:httpd-2.4-debian", "Debian bookworm", "distribution", "4:5"],
      ["httpd:2.4.62", "httpd:2.4.62", null, "7:5"],
    ]);
  });

  it("may leave the baseline to the command line", () => {
    expect(parseMatrixFile("candidates: [httpd:2.4]", "m.yaml").baseline).toBeNull();
  });

  it("refuses what does not follow the format, at file:line:column", () => {
    expect(refusal("candidates: [a\n")).toMatch(/^\d+:\d+ not YAML/);
    expect(refusal("- a\n- b\n")).toMatch(/^1:1 a matrix file is a mapping/);
    expect(refusal("baseline: httpd:2.2.34\n")).toMatch(/^1:1 the file has no `candidates:` list/);
    expect(refusal("candidates: []\n")).toMatch(/^1:13 `candidates:` is a list of one image or more/);
    expect(refusal("baseline: x\ncandidate: [y]\n")).toBe('2:1 unknown key "candidate"');
    expect(refusal("candidates:\n  - image: a\n    lable: b\n")).toBe('3:5 unknown key "lable" in a candidate');
    expect(refusal("candidates:\n  - label: b\n")).toBe("2:5 a candidate has no `image:`");
    expect(refusal("candidates:\n  - { image: a, axis: debian }\n")).toBe('2:23 axis "debian" is not one of upstream, distribution');
    expect(refusal("candidates:\n  - { image: a, label: [x] }\n")).toBe('2:24 "label" needs a text value');
    expect(refusal("candidates:\n  - [a]\n")).toMatch(/^2:5 a candidate is an image name or a mapping/);
    expect(refusal('candidates:\n  - { image: "recipe:httpd-2.2" }\n')).toMatch(/^2:14 "recipe:httpd-2\.2" names no httpd recipe of the harness/);
    expect(refusal("candidates:\n  - { image: a, label: same }\n  - { image: b, label: same }\n")).toBe('3:5 the label "same" is given twice (first at line 2)');
    expect(refusal("baseline: a\ncandidates: [a]\n")).toBe('2:14 the label "a" is given twice (first at line 1)');
  });

  it("reads the README's example as the README says", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const example = /```yaml\n# matrix\.yaml[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const matrix = parseMatrixFile(example!, "README.md");
    expect(matrix.baseline?.image).toBe("httpd:2.2.34");
    expect(matrix.candidates.map((c) => [c.image, c.label, c.axis])).toEqual([
      ["recipe:httpd-2.4.67", "2.4.67", "upstream"],
      ["recipe:httpd-2.4", "2.4.68", "upstream"],
      ["recipe:httpd-2.4-debian", "Debian bookworm", "distribution"],
      ["httpd:2.4.62", "httpd:2.4.62", null],
    ]);
  });
});
