// Arrays a large tree keeps hundreds of thousands of: made at their exact length, since an array grown by push
// (or made by a spread) keeps room for more that every line holding it keeps too.

/** `list` with `item` after it, an array of exact length: a spread's array keeps room for 17, and every line
 * inside keeps it; literals for the usual depths, as concat (a generic builtin) costs more than the copy. */
export function appended<T>(list: readonly T[], item: T): T[] {
  if (list.length === 0) return [item];
  if (list.length === 1) return [list[0]!, item];
  if (list.length === 2) return [list[0]!, list[1]!, item];
  return list.concat([item]);
}
