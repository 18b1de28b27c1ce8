// Whether JavaScript reads an httpd regular expression (PCRE) as httpd does, so a pure model may match it itself.
/** A regular expression that JavaScript reads as PCRE does: no group extension but (?:, no POSIX class, no
 * PCRE-only escape or possessive quantifier. A name or URL path has no newline, so `$` agrees too. */
export function portableRegex(pattern: string): boolean {
  if (/\(\?(?!:)|\[\[:|\\[AZzQEKRhHvVGX]|[*+?}]\+/.test(pattern)) return false;
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
