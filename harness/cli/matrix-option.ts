// The images a run compares: `--baseline IMAGE`, `--candidate IMAGE` (repeatable: a version matrix, run side by
// side) or `--matrix FILE` (plan/matrix-file.ts: labels and axes too), then HTTPD_BASELINE_IMAGE /
// HTTPD_CANDIDATE_IMAGE, then the defaults. Every name is checked here, before anything runs: an unknown
// `recipe:ID` or a broken matrix file is bad input.
import { readFile } from "node:fs/promises";
import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { recipeNamed } from "../engine/image-recipes.ts";
import { HarnessError } from "../errors.ts";
import type { Matrix, MatrixEntry } from "../plan/matrix-file.ts";
import type { MatrixAxis } from "../plan/side.ts";
import type { RunSide } from "../observe/run-harness.ts";

export interface NamedImage {
  image: string;
  label: string;
  /** null: read from the image's layout once it ran. */
  axis: MatrixAxis | null;
}

export interface RunImages {
  baseline: NamedImage;
  candidates: NamedImage[];
  /** The matrix file, when --matrix named one. */
  matrix: string | null;
}

export interface ImageOptions {
  baseline?: string | undefined;
  candidate?: string[] | undefined;
  matrix?: string | undefined;
}

/** A `recipe:ID` name the harness does not have is a usage error; any other name is the engine's to find. */
export function checkImageName(image: string, flag: string): string {
  const named = recipeNamed(image);
  if (named !== null && "error" in named) throw new HarnessError("HARNESS_USAGE", `${flag}: ${named.error}`);
  return image;
}

export async function loadMatrixFile(path: string): Promise<Matrix> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new HarnessError("HARNESS_MATRIX_FILE", `${path}: ${(cause as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (cause as Error).message}`, {
      cause,
      hint: "Give --matrix an existing YAML file naming the candidates (see README, \"Several candidates: a version matrix\").",
    });
  }
  // Imported when a matrix file is given: the YAML parser is no part of a run without one.
  return (await import("../plan/matrix-file.ts")).parseMatrixFile(text, path);
}

/** Labels for --candidate images: the image name, numbered when the same image is given twice. */
function labelled(images: readonly string[]): NamedImage[] {
  const seen = new Map<string, number>();
  return images.map((image) => {
    const count = (seen.get(image) ?? 0) + 1;
    seen.set(image, count);
    return { image, label: count === 1 ? image : `${image} (${count})`, axis: null };
  });
}

export async function runImages(values: ImageOptions, env: NodeJS.ProcessEnv = process.env): Promise<RunImages> {
  const flagged = values.candidate ?? [];
  if (values.matrix !== undefined && flagged.length > 0) {
    throw new HarnessError("HARNESS_USAGE", "--matrix and --candidate both name the candidates: give one of them.", {
      hint: "Put every candidate in the matrix file, or give --candidate once per candidate.",
    });
  }
  const matrix = values.matrix === undefined ? null : await loadMatrixFile(values.matrix);
  const fromEntry = (entry: MatrixEntry): NamedImage => ({ image: entry.image, label: entry.label, axis: entry.axis });
  const baselineImage = checkImageName(values.baseline ?? matrix?.baseline?.image ?? (env.HTTPD_BASELINE_IMAGE || DEFAULT_BASELINE_IMAGE), "--baseline");
  const baseline: NamedImage =
    values.baseline === undefined && matrix?.baseline ? fromEntry(matrix.baseline) : { image: baselineImage, label: baselineImage, axis: null };
  const candidates = matrix
    ? matrix.candidates.map(fromEntry)
    : labelled((flagged.length > 0 ? flagged : [env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE]).map((image) => checkImageName(image, "--candidate")));
  return { baseline, candidates, matrix: matrix?.file ?? null };
}

/** The run's sides with the labels and axes the command line gave (the axis stays null where none was given:
 * the judge reads it from the image's layout). */
export function labelSides(sides: readonly RunSide[], images: RunImages): RunSide[] {
  let candidate = 0;
  return sides.map((side) => {
    const named = side.side.role === "baseline" ? images.baseline : images.candidates[candidate++];
    return named ? { ...side, label: named.label, axis: named.axis } : side;
  });
}
