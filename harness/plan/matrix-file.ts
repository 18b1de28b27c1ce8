// Pure: the version matrix file (`run --matrix FILE`): the baseline and the candidates a run compares side by
// side, each with a label and an axis (an upstream tag or a distribution's build). Every image may be a user's
// image or `recipe:ID`, one of the harness's own. A file that does not follow the format is bad input, named at
// file:line:column.
//
//   baseline: httpd:2.2.34
//   candidates:
//     - { image: "recipe:httpd-2.4.67", label: "2.4.67", axis: upstream }
//     - { image: "recipe:httpd-2.4", label: "2.4.68", axis: upstream }
//     - { image: "recipe:httpd-2.4-debian", label: "Debian bookworm", axis: distribution }
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { HarnessError, type SourcePosition } from "../errors.ts";
import { recipeNamed } from "../engine/image-recipes.ts";
import { MATRIX_AXES, type MatrixAxis } from "./side.ts";

export interface MatrixEntry {
  image: string;
  /** What reports call it; the image name when the file gives none. */
  label: string;
  /** null: not stated; the run reads it from the image's layout (Debian's is a distribution build). */
  axis: MatrixAxis | null;
  at: SourcePosition;
}

export interface Matrix {
  file: string;
  /** null: the file names none; the command line's --baseline (or its default) is the baseline. */
  baseline: MatrixEntry | null;
  candidates: MatrixEntry[];
}

const TOP_KEYS = ["baseline", "candidates"] as const;
const ENTRY_KEYS = ["image", "label", "axis"] as const;
const EXAMPLE = "baseline: httpd:2.2.34\ncandidates:\n  - { image: \"recipe:httpd-2.4\", label: \"2.4.68\", axis: upstream }\n  - { image: \"recipe:httpd-2.4-debian\", label: debian, axis: distribution }";

export function parseMatrixFile(text: string, file: string): Matrix {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true });
  const position = (offset: number | undefined): SourcePosition => {
    if (offset === undefined) return { file, line: 1, column: 1 };
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const at = (node: Node | null | undefined): SourcePosition => position(node?.range?.[0]);
  const fail = (where: SourcePosition, message: string, hint = `A matrix file looks like:\n${EXAMPLE}`): never => {
    throw new HarnessError("HARNESS_MATRIX_FILE", message, { position: where, hint });
  };
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    fail(position(error.pos[0]), `not YAML: ${error.message.split("\n")[0]}`, "Fix the YAML syntax at the place named.");
  }
  const root = document.contents;
  if (!isMap(root)) return fail(at(root), "a matrix file is a mapping with `candidates:` (and optionally `baseline:`)");

  const entry = (node: unknown, role: "baseline" | "candidate"): MatrixEntry => {
    if (isScalar(node)) {
      const image = typeof node.value === "string" ? node.value.trim() : "";
      if (image === "") fail(at(node), `the ${role} names no image`);
      return { image: checkedImage(image, at(node)), label: image, axis: null, at: at(node) };
    }
    if (!isMap(node)) return fail(at(node as Node), `a ${role} is an image name or a mapping with \`image:\`, \`label:\`, \`axis:\``);
    const values: Partial<Record<(typeof ENTRY_KEYS)[number], { text: string; at: SourcePosition }>> = {};
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
        fail(at(pair.key as Node), `unknown key ${JSON.stringify(key)} in a ${role}`, `A ${role} takes ${ENTRY_KEYS.join(", ")}.`);
      }
      const value = pair.value as Node | null;
      if (!isScalar(value) || value.value === null || typeof value.value === "object" || String(value.value).trim() === "") {
        fail(value ? at(value) : at(pair.key as Node), `"${key}" needs a text value`, "Quote values YAML would read otherwise.");
      }
      values[key as (typeof ENTRY_KEYS)[number]] = { text: String((value as { value: unknown }).value).trim(), at: at(value) };
    }
    if (!values.image) return fail(at(node), `a ${role} has no \`image:\``, `Name the image: \`image: httpd:2.4.62\` or \`image: "recipe:httpd-2.4.67"\`.`);
    let axis: MatrixAxis | null = null;
    if (values.axis) {
      if (!(MATRIX_AXES as readonly string[]).includes(values.axis.text)) {
        fail(values.axis.at, `axis ${JSON.stringify(values.axis.text)} is not one of ${MATRIX_AXES.join(", ")}`, "upstream: a release of httpd as upstream ships it; distribution: a distribution's build of one (Debian's apache2).");
      }
      axis = values.axis.text as MatrixAxis;
    }
    return { image: checkedImage(values.image.text, values.image.at), label: values.label?.text ?? values.image.text, axis, at: at(node) };
  };

  const checkedImage = (image: string, where: SourcePosition): string => {
    const named = recipeNamed(image);
    if (named !== null && "error" in named) fail(where, named.error, "Name a recipe the harness has, or an image on the engine.");
    return image;
  };

  let baseline: MatrixEntry | null = null;
  let candidates: MatrixEntry[] | null = null;
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (!(TOP_KEYS as readonly string[]).includes(key)) fail(at(pair.key as Node), `unknown key ${JSON.stringify(key)}`, `A matrix file takes ${TOP_KEYS.join(" and ")}.`);
    const value = pair.value as Node | null;
    if (key === "baseline") {
      baseline = entry(value, "baseline");
      continue;
    }
    if (!isSeq(value) || value.items.length === 0) return fail(value ? at(value) : at(pair.key as Node), "`candidates:` is a list of one image or more");
    candidates = value.items.map((item) => entry(item, "candidate"));
  }
  if (candidates === null) return fail(at(root), "the file has no `candidates:` list");
  const labels = new Map<string, MatrixEntry>();
  for (const candidate of [...(baseline ? [baseline] : []), ...candidates]) {
    const other = labels.get(candidate.label);
    if (other) fail(candidate.at, `the label ${JSON.stringify(candidate.label)} is given twice (first at line ${other.at.line})`, "Give each side its own `label:`; reports name the columns by it.");
    labels.set(candidate.label, candidate);
  }
  return { file, baseline, candidates };
}
