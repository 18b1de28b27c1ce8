// Small helpers rules build their detections with.
import type { EffectiveConfig, EffectiveSection } from "../conf/effective-config.ts";
import { directivesNamed, type WalkedDirective, walkConfig, type WalkedSection } from "../conf/queries/walk-config.ts";
import type { Detection } from "./rule.ts";

/** A detection of a walked directive or section. */
export function detection(entry: WalkedDirective | WalkedSection, message: string, fix: string | null, extra: Partial<Detection> = {}): Detection {
  const node = "directive" in entry ? entry.directive : entry.section;
  return { node, sections: entry.sections, message, fix, ...extra };
}

/** The directives named (any of `names`, case-insensitively) in a config, in reading order. */
export function named(config: EffectiveConfig, ...names: string[]): WalkedDirective[] {
  return directivesNamed(config, ...names.map((name) => name.toLowerCase()));
}

/** The sections of a kind (`directory`, `location`, ...), in reading order. */
export function sectionsNamed(config: EffectiveConfig, ...keys: string[]): WalkedSection[] {
  return walkConfig(config).sections.filter((entry) => keys.includes(entry.section.key));
}

/** The innermost enclosing section of one of `keys`, or null. */
export function innermost(sections: readonly EffectiveSection[], ...keys: string[]): EffectiveSection | null {
  for (let index = sections.length - 1; index >= 0; index--) if (keys.includes(sections[index]!.key)) return sections[index]!;
  return null;
}
