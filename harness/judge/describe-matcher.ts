import type { TextMatcher } from "../scenario/scenario.ts";

export function describeMatcher(matcher: TextMatcher): string {
  switch (matcher.kind) {
    case "contains":
      return `containing ${JSON.stringify(matcher.value)}`;
    case "equals":
      return `equal to ${JSON.stringify(matcher.value)}`;
    case "matches":
      return `matching /${matcher.pattern}/${matcher.flags}`;
  }
}
