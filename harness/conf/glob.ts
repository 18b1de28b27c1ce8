// APR's fnmatch as httpd's Include uses it (apr_fnmatch_test, apr_fnmatch with APR_FNM_PERIOD): one path
// component against one pattern component. `*`, `?`, `[...]` (with `!` or `^` negation and ranges) and `\`
// escapes; a leading period is matched only by a literal period.

/** apr_fnmatch_test: whether the pattern holds a wildcard (`*`, `?`, or a `[` closed by a `]`). */
export function hasWildcard(pattern: string): boolean {
  let nesting = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "?" || c === "*") return true;
    if (c === "\\") {
      i++;
      if (i >= pattern.length) return false;
    } else if (c === "[") nesting++;
    else if (c === "]" && nesting > 0) return true;
  }
  return false;
}

/** apr_fnmatch(pattern, name, APR_FNM_PERIOD) for one component. */
export function matchComponent(pattern: string, name: string): boolean {
  return matchAt(pattern, 0, name, 0);
}

function matchAt(pattern: string, p: number, name: string, n: number): boolean {
  while (p < pattern.length) {
    const c = pattern[p]!;
    const leadingPeriod = n === 0 && name[0] === ".";
    if (c === "*") {
      if (leadingPeriod) return false;
      while (pattern[p] === "*") p++;
      if (p === pattern.length) return true;
      for (let k = n; k <= name.length; k++) if (matchAt(pattern, p, name, k)) return true;
      return false;
    }
    if (n >= name.length) return false;
    if (c === "?") {
      if (leadingPeriod) return false;
      p++;
      n++;
      continue;
    }
    if (c === "[") {
      const set = readSet(pattern, p);
      if (set !== null) {
        if (leadingPeriod) return false;
        if (!set.test(name[n]!)) return false;
        p = set.end;
        n++;
        continue;
      }
      // An unclosed `[` is an ordinary character.
    }
    let literal = c;
    if (c === "\\" && p + 1 < pattern.length) {
      p++;
      literal = pattern[p]!;
    }
    if (name[n] !== literal) return false;
    p++;
    n++;
  }
  return n === name.length;
}

function readSet(pattern: string, start: number): { test: (ch: string) => boolean; end: number } | null {
  let p = start + 1;
  let negate = false;
  if (pattern[p] === "!" || pattern[p] === "^") {
    negate = true;
    p++;
  }
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (p < pattern.length && (first || pattern[p] !== "]")) {
    first = false;
    let lo = pattern[p]!;
    if (lo === "\\" && p + 1 < pattern.length) lo = pattern[++p]!;
    p++;
    let hi = lo;
    if (pattern[p] === "-" && p + 1 < pattern.length && pattern[p + 1] !== "]") {
      hi = pattern[p + 1]!;
      if (hi === "\\" && p + 2 < pattern.length) {
        hi = pattern[p + 2]!;
        p++;
      }
      p += 2;
    }
    ranges.push([lo, hi]);
  }
  if (pattern[p] !== "]") return null;
  return {
    test: (ch) => ranges.some(([lo, hi]) => ch >= lo && ch <= hi) !== negate,
    end: p + 1,
  };
}
