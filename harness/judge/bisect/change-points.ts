// Pure: the change points of a bisect, from the outcomes of each scenario on each image: between two images, the
// scenarios whose outcome changed (outcome-change.ts), each with the requests that changed and their values
// before and after, and upstream's change notes for the versions in between (versions/change-notes.ts).
import type { Scenario } from "../../scenario/scenario.ts";
import { notesBetween, type NotesBetween } from "../../versions/change-notes.ts";
import type { HttpdVersion } from "../../versions/httpd-version.ts";
import { DEFAULT_TRIAGE, type TriageInputs } from "../triage.ts";
import { compareOutcomes, type OutcomeChange, type ScenarioOutcome } from "./outcome-change.ts";

/** One image of the list, as given and as it ran. */
export interface BisectImage {
  /** Its place in the list, from 0. */
  index: number;
  /** As the command line named it ("recipe:httpd-2.4.67", "httpd:2.4.62"). */
  name: string;
  /** The image that ran (a recipe resolved to its tag); null when it was not observed. */
  image: string | null;
  version: HttpdVersion | null;
}

export interface ScenarioChange {
  id: string;
  title: string;
  file: string;
  change: OutcomeChange;
}

export interface ChangePoint {
  before: BisectImage;
  after: BisectImage;
  scenarios: ScenarioChange[];
  /** Upstream's changes between the two versions; null when a version is unknown or the lines differ. */
  notes: NotesBetween | null;
}

/** What one scenario made of one image. */
export type OutcomeOf = (image: BisectImage, scenario: Scenario) => ScenarioOutcome;

/** The change point between two images, or null when every scenario's outcome is the same on both. */
export function changePointBetween(
  before: BisectImage,
  after: BisectImage,
  scenarios: readonly Scenario[],
  outcomeOf: OutcomeOf,
  inputs: TriageInputs = DEFAULT_TRIAGE,
): ChangePoint | null {
  const changed = scenarios.flatMap((scenario) => {
    const change = compareOutcomes(scenario, outcomeOf(before, scenario), outcomeOf(after, scenario), inputs);
    return change.changed ? [{ id: scenario.id, title: scenario.title, file: scenario.file, change }] : [];
  });
  if (changed.length === 0) return null;
  const notes = before.version && after.version && before.version.family === after.version.family ? notesBetween(before.version, after.version) : null;
  return { before, after, scenarios: changed, notes };
}

/** Whether any scenario's outcome on `image` differs from its outcome on `first`. */
export function differsFrom(first: BisectImage, image: BisectImage, scenarios: readonly Scenario[], outcomeOf: OutcomeOf, inputs: TriageInputs = DEFAULT_TRIAGE): boolean {
  if (image.index === first.index) return false;
  return scenarios.some((scenario) => compareOutcomes(scenario, outcomeOf(first, scenario), outcomeOf(image, scenario), inputs).changed);
}
