// Pure: a plain name or URL path that a section's regular expression matches, so that a `<FilesMatch>`,
// `<Files ~>`, `<LocationMatch>` or `<Location ~>` region gets a probe like a literal one. 2.2-era configs and
// application .htaccess files keep most of their refusals there (`<FilesMatch "\.(inc|sql|bak)$">` with
// `Deny from all`); without a probe such a region was never asked, and a comparison over it said nothing.
//
// Only the part of the syntax such sections use is read: literals and escapes, groups and alternation, classes,
// `.`, quantifiers, `^` and `$`. Readings are tried in order (first alternatives, fewest repetitions, first plain
// characters of a class) until one is a plain name the pattern matches: an empty first alternative (`(^$|index\.html)`)
// gives way to the next; a pattern not anchored at its start gets a prefix (`probe`), as a request names more than
// the pattern does. Anything else (back-references, look-arounds, inline
// flags) gives null, and the region stays unprobed. The example is checked against the pattern before it is used.

const PLAIN = /^[A-Za-z0-9._~-]$/;

type Node =
  | { kind: "text"; text: string }
  | { kind: "any" }
  | { kind: "class"; negated: boolean; test: (c: string) => boolean }
  | { kind: "group"; alternatives: Node[][] }
  | { kind: "repeat"; node: Node; min: number }
  | { kind: "start" }
  | { kind: "end" };

class Unsupported extends Error {}

const ESCAPES: Record<string, Node> = {
  d: { kind: "class", negated: false, test: (c) => /\d/.test(c) },
  w: { kind: "class", negated: false, test: (c) => /\w/.test(c) },
  s: { kind: "text", text: " " },
};

function parse(pattern: string): Node[][] {
  let at = 0;
  const alternatives = (): Node[][] => {
    const result: Node[][] = [[]];
    while (at < pattern.length) {
      const c = pattern[at]!;
      if (c === ")") break;
      if (c === "|") {
        at++;
        result.push([]);
        continue;
      }
      const node = atom();
      result[result.length - 1]!.push(quantified(node));
    }
    return result;
  };
  const quantified = (node: Node): Node => {
    const c = pattern[at];
    let min: number | null = null;
    if (c === "*" || c === "?") min = 0;
    else if (c === "+") min = 1;
    else if (c === "{") {
      const m = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(at));
      if (!m) throw new Unsupported();
      min = Number(m[1]);
      at += m[0].length - 1;
    }
    if (min === null) return node;
    at++;
    if (pattern[at] === "?" || pattern[at] === "+") at++;
    if (node.kind === "start" || node.kind === "end") throw new Unsupported();
    return { kind: "repeat", node, min };
  };
  const atom = (): Node => {
    const c = pattern[at++]!;
    if (c === "^") return { kind: "start" };
    if (c === "$") return { kind: "end" };
    if (c === ".") return { kind: "any" };
    if (c === "(") {
      if (pattern[at] === "?") {
        if (pattern[at + 1] !== ":") throw new Unsupported();
        at += 2;
      }
      const inner = alternatives();
      if (pattern[at] !== ")") throw new Unsupported();
      at++;
      return { kind: "group", alternatives: inner };
    }
    if (c === "[") return charClass();
    if (c === "\\") {
      const e = pattern[at++];
      if (e === undefined) throw new Unsupported();
      if (ESCAPES[e]) return ESCAPES[e];
      if (/[A-Za-z0-9]/.test(e)) throw new Unsupported();
      return { kind: "text", text: e };
    }
    if ("*+?{".includes(c)) throw new Unsupported();
    return { kind: "text", text: c };
  };
  const charClass = (): Node => {
    const negated = pattern[at] === "^";
    if (negated) at++;
    const ranges: Array<[string, string]> = [];
    let first = true;
    while (at < pattern.length && (pattern[at] !== "]" || first)) {
      first = false;
      let c = pattern[at++]!;
      if (c === "\\") {
        const e = pattern[at++];
        if (e === undefined || /[A-Za-z0-9]/.test(e)) throw new Unsupported();
        c = e;
      } else if (c === "[") throw new Unsupported();
      if (pattern[at] === "-" && pattern[at + 1] !== undefined && pattern[at + 1] !== "]") {
        const to = pattern[at + 1]!;
        at += 2;
        ranges.push([c, to]);
      } else ranges.push([c, c]);
    }
    if (pattern[at] !== "]") throw new Unsupported();
    at++;
    const inClass = (ch: string) => ranges.some(([from, to]) => ch >= from && ch <= to);
    return { kind: "class", negated, test: (ch) => inClass(ch) !== negated };
  };
  const result = alternatives();
  if (at !== pattern.length) throw new Unsupported();
  return result;
}

const CANDIDATES = [..."xprobe0123456789abcdefghijklmnoqstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-~"];

interface Out {
  text: string;
  anchored: boolean;
  ended: boolean;
}

/** Every reading of `nodes` after `out`, the shortest first choices first: a group's alternatives in order, a
 * repetition at its fewest then once more, a class's first plain characters. */
function* readings(nodes: readonly Node[], out: Out): Generator<Out> {
  if (nodes.length === 0) {
    yield out;
    return;
  }
  const [node, ...rest] = nodes as [Node, ...Node[]];
  switch (node.kind) {
    case "start":
      if (out.text === "") yield* readings(rest, { ...out, anchored: true });
      return;
    case "end":
      yield* readings(rest, { ...out, ended: true });
      return;
    case "text":
      if (!out.ended) yield* readings(rest, { ...out, text: out.text + node.text });
      return;
    case "any":
      if (!out.ended) yield* readings(rest, { ...out, text: `${out.text}x` });
      return;
    case "class":
      if (out.ended) return;
      for (const ch of CANDIDATES.filter((c) => node.test(c)).slice(0, 2)) yield* readings(rest, { ...out, text: out.text + ch });
      return;
    case "group":
      for (const alternative of node.alternatives) yield* readings([...alternative, ...rest], out);
      return;
    case "repeat":
      for (const times of [node.min, node.min + 1]) yield* readings([...Array<Node>(times).fill(node.node), ...rest], out);
      return;
  }
}

/** How many readings are tried before the pattern is given up as unprobed. */
const TRIES = 256;

/** `kind`: a file name (`<FilesMatch>`, matched against the file's base name) or a URL path (`<LocationMatch>`,
 * starting with `/`). Null when the pattern reads beyond what is understood here, or no plain example fits it. */
export function regexExample(pattern: string, kind: "file" | "url"): string | null {
  let alternatives: Node[][];
  try {
    alternatives = parse(pattern);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern);
  } catch {
    return null;
  }
  let tried = 0;
  for (const out of readings([{ kind: "group", alternatives }], { text: "", anchored: false, ended: false })) {
    if (++tried > TRIES) break;
    let example = out.text;
    if (kind === "file") {
      if (!out.anchored) example = `probe${example}`;
      if (example === "" || example === "." || example === ".." || example.includes("/")) continue;
      if (![...example].every((c) => PLAIN.test(c))) continue;
    } else {
      // Unanchored: after a path of the harness's own, as a segment of its own when the pattern starts with a word.
      if (!out.anchored) example = `/probe${/^[A-Za-z0-9]/.test(example) ? "/" : ""}${example}`;
      if (!example.startsWith("/") || example.includes("//") || /(^|\/)\.\.?(\/|$)/.test(example)) continue;
      if (![...example].every((c) => c === "/" || PLAIN.test(c))) continue;
    }
    if (compiled.test(example)) return example;
  }
  return null;
}
