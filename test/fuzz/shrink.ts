// Delta reduction of a fragment that shows a disagreement: every one-step simplification (a child section removed,
// an access or handler line reset, the root made a plain <Directory>) is run side by side in one batch, the first
// that still shows the same disagreement is kept, and again, until none does. Each round is one batch on the real
// servers, so a fragment shrinks in a few rounds however many candidates a round has.
import type { AccessBlock, Fragment, FuzzBatch, FuzzSection, HandlerBlock, TargetModule } from "./fragment-generator.ts";
import { renderBatch } from "./fragment-generator.ts";
import { batchDisagreements, type Disagreement, signature } from "./disagreements.ts";
import { runBatch, type Images } from "./run-batch.ts";

const EMPTY_ACCESS: AccessBlock = { order: "none", allow: [], deny: [], satisfy: "none", auth: "none", require: [], guard: "none" };

function accessSteps(access: AccessBlock): AccessBlock[] {
  const steps: AccessBlock[] = [];
  for (const key of Object.keys(EMPTY_ACCESS) as Array<keyof AccessBlock>) {
    if (JSON.stringify(access[key]) !== JSON.stringify(EMPTY_ACCESS[key])) steps.push({ ...access, [key]: EMPTY_ACCESS[key] });
  }
  for (const key of ["allow", "deny", "require"] as const) {
    if (access[key].length > 1) access[key].forEach((_, i) => steps.push({ ...access, [key]: access[key].filter((__, j) => j !== i) }));
  }
  return steps;
}

function handlerSteps(handlers: HandlerBlock): HandlerBlock[] {
  const steps: HandlerBlock[] = [];
  if (handlers.options !== "none") steps.push({ ...handlers, options: "none" });
  if (handlers.handler !== "none") steps.push({ ...handlers, handler: "none" });
  return steps;
}

function sectionSteps(section: FuzzSection): FuzzSection[] {
  return [
    ...section.children.map((_, i) => ({ ...section, children: section.children.filter((__, j) => j !== i) })),
    ...accessSteps(section.access).map((access) => ({ ...section, access })),
    ...handlerSteps(section.handlers).map((handlers) => ({ ...section, handlers })),
    ...section.children.flatMap((child, i) => sectionSteps(child).map((smaller) => ({ ...section, children: section.children.map((c, j) => (j === i ? smaller : c)) }))),
  ];
}

export function shrinkSteps(fragment: Fragment): Fragment[] {
  const steps = sectionSteps(fragment.section).map((section) => ({ ...fragment, section }));
  if (fragment.root !== "directory" && fragment.section.children.length === 0) steps.push({ root: "directory", section: { ...fragment.section, kind: "directory" } });
  return steps;
}

export interface Shrunk {
  fragment: Fragment;
  modules: TargetModule[];
  rounds: number;
}

/** The smallest fragment (one step from each smaller one failing to show it) still showing `wanted`'s signature. */
export async function shrinkFragment(fragment: Fragment, modules: TargetModule[], wanted: Disagreement, images: Images, maxRounds = 6): Promise<Shrunk> {
  const want = signature(wanted);
  let current = fragment;
  let currentModules = modules;
  let rounds = 0;
  while (rounds < maxRounds) {
    const fragmentSteps = shrinkSteps(current).map((f) => ({ fragment: f, modules: currentModules }));
    const moduleSteps = currentModules.map((m) => ({ fragment: current, modules: currentModules.filter((x) => x !== m) }));
    rounds++;
    let next: { fragment: Fragment; modules: TargetModule[] } | null = null;
    if (fragmentSteps.length > 0) {
      const batch: FuzzBatch = { modules: currentModules, fragments: fragmentSteps.map((s) => s.fragment) };
      const found = batchDisagreements(await runBatch(renderBatch(batch), images));
      const index = fragmentSteps.findIndex((_, i) => found.some((d) => d.fragment === `fz${i}` && signature(d) === want));
      if (index >= 0) next = fragmentSteps[index]!;
    }
    // The modules are the batch's: each one dropped is a batch of its own.
    for (const step of next === null ? moduleSteps : []) {
      const found = batchDisagreements(await runBatch(renderBatch({ modules: step.modules, fragments: [step.fragment] }), images));
      if (found.some((d) => d.fragment === "fz0" && signature(d) === want)) {
        next = step;
        break;
      }
    }
    if (next === null) break;
    current = next.fragment;
    currentModules = next.modules;
  }
  return { fragment: current, modules: currentModules, rounds };
}
