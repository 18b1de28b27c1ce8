import type { TextMatcher } from "../scenario/scenario.ts";

export function matchText(matcher: TextMatcher, value: string): boolean {
  switch (matcher.kind) {
    case "contains":
      return value.includes(matcher.value);
    case "equals":
      return value === matcher.value;
    case "matches":
      return new RegExp(matcher.pattern, matcher.flags).test(value);
  }
}

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
