// What `bisect` prints: the images, where the outcome changed (each change point with the scenarios and requests
// that changed, before and after, and upstream's notes for the versions in between), as text or as JSON. Format
// only: the change points come from judge/bisect/.
import type { BisectResult } from "../judge/bisect/bisect-result.ts";
import type { BisectImage, ChangePoint } from "../judge/bisect/change-points.ts";
import type { OutcomeDifference } from "../judge/bisect/outcome-change.ts";
import { formatValue, truncate } from "./format-value.ts";
import { plural } from "./units.ts";

const VALUE_LIMIT = 300;

export const BISECT_SCHEMA_VERSION = "1.0";

function imageText(image: BisectImage): string {
  return `#${image.index + 1} ${image.name}${image.version ? ` (httpd ${image.version.text}${image.version.build ?? ""})` : ""}`;
}

function value(text: unknown): string {
  return JSON.stringify(truncate(formatValue(text), VALUE_LIMIT));
}

function differenceLine(d: OutcomeDifference): string {
  const cause = d.cause && d.cause !== "unexplained" ? `, ${d.cause}` : "";
  return `${d.field}: ${value(d.baseline)} -> ${value(d.candidate)}  (${d.class}${cause}: ${d.reason})`;
}

function changePointText(point: ChangePoint): string[] {
  const lines = [`Change point: ${imageText(point.before)} -> ${imageText(point.after)}`];
  for (const scenario of point.scenarios) {
    const predicted = scenario.change.predicted ? "; every change expected (the scenario's version ranges or a rule of the guide)" : "";
    lines.push(`  ${scenario.id} (${scenario.file})${predicted}`);
    for (const d of scenario.change.server) lines.push(`    server: ${differenceLine(d)}`);
    for (const request of scenario.change.requests) {
      lines.push(`    ${request.name}: ${request.before} -> ${request.after}`);
      for (const d of request.differences) lines.push(`      ${differenceLine(d)}`);
    }
  }
  const notes = point.notes;
  if (notes === null) {
    lines.push("  Upstream: no change notes (a version is unknown, or the two are of different release lines).");
  } else if (notes.changes === null) {
    lines.push(`  Upstream: the same version (${notes.to}) on both: a build difference (a distribution's patches, modules or layout), not an upstream change.`);
  } else {
    lines.push(`  Upstream between ${notes.from} and ${notes.to}:`);
    if (notes.notes.length === 0) lines.push("    no known change note for these releases");
    const linked = new Set<string>();
    for (const note of notes.notes) {
      lines.push(`    ${note.version} ${note.area}: ${note.summary}`, `      ${note.effect}`);
      for (const link of note.links) {
        lines.push(`      ${link.title}: ${link.url}`);
        linked.add(link.url);
      }
    }
    if (!linked.has(notes.changes.url)) lines.push(`    ${notes.changes.title}: ${notes.changes.url}`);
  }
  return lines;
}

export function renderBisectText(result: BisectResult): string {
  // An image named twice in the list is observed once.
  const observed = new Set(result.images.filter((i) => i.observed).map((i) => i.name)).size;
  const how =
    result.mode === "all"
      ? "every pair of neighbours compared (--all)"
      : `the first image whose outcome differs from the first's; observed in this order: ${result.probed.map((i) => `#${i + 1}`).join(", ")}`;
  const lines = [`bisect over ${plural(result.images.length, "image")} and ${plural(result.scenarios, "scenario")}: ${how}`];
  for (const image of result.images) {
    lines.push(`  ${imageText(image)}${image.image && image.image !== image.name ? `  = ${image.image}` : ""}${image.observed ? "" : "  (not observed)"}`);
  }
  lines.push(`${plural(observed, "image")} observed${observed < result.images.length ? ` of ${result.images.length} named` : ""}.`, "");
  if (result.endsAgree === true) {
    lines.push(
      `The first and the last image agree on every scenario: bisect found no change between ${imageText(result.images[0]!)} and ${imageText(result.images.at(-1)!)}.`,
      "A change that reverts in between (2.4.64's RewriteCond expr bug, fixed in 2.4.65) leaves the ends alike: --all compares every pair of neighbours and finds it.",
    );
  } else if (result.changePoints.length === 0) {
    lines.push("No change point: every scenario has the same outcome on every pair of neighbours.");
  }
  for (const point of result.changePoints) lines.push(...changePointText(point), "");
  if (result.changePoints.length > 0) {
    lines.push(result.mode === "all" ? `${plural(result.changePoints.length, "change point")}.` : `First change at ${imageText(result.changePoints[0]!.after)}.`);
  }
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}

function imageJson(image: BisectImage) {
  return { index: image.index, name: image.name, image: image.image, version: image.version?.text ?? null };
}

export function renderBisectJson(result: BisectResult): string {
  const json = {
    schemaVersion: BISECT_SCHEMA_VERSION,
    mode: result.mode,
    images: result.images.map((image) => ({ ...imageJson(image), observed: image.observed })),
    scenarios: result.scenarios,
    probed: result.probed,
    endsAgree: result.endsAgree,
    changePoints: result.changePoints.map((point) => ({
      before: imageJson(point.before),
      after: imageJson(point.after),
      scenarios: point.scenarios.map((s) => ({
        id: s.id,
        title: s.title,
        file: s.file,
        predicted: s.change.predicted,
        server: s.change.server.map(differenceJson),
        requests: s.change.requests.map((r) => ({ name: r.name, before: r.before, after: r.after, differences: r.differences.map(differenceJson) })),
      })),
      notes: point.notes,
    })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

function differenceJson(d: OutcomeDifference) {
  return { field: d.field, before: d.baseline, after: d.candidate, class: d.class, seed: d.seed, reason: d.reason, cause: d.cause };
}
