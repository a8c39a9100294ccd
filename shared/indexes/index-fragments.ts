const COMMA = 0x2c;
const DASH = 0x2d;

/**
 * Visits the comma-separated fragments of an index list the way upstream splits it
 * (`strings.Split(s, ",")`, then `strings.Split(fragment, "-")`), without allocating
 * substrings. For each fragment `text.slice(start, end)`, `dash` is the position of its first
 * `-` and `secondDash` of its second, or -1. `visit` returns false to stop early.
 * One pass over the characters: O(text.length).
 */
export function scanFragments(
  text: string,
  visit: (start: number, end: number, dash: number, secondDash: number) => boolean,
): void {
  let start = 0;
  let dash = -1;
  let secondDash = -1;
  for (let at = 0; at <= text.length; at++) {
    const code = at < text.length ? text.charCodeAt(at) : COMMA;
    if (code === DASH) {
      if (dash < 0) dash = at;
      else if (secondDash < 0) secondDash = at;
    } else if (code === COMMA) {
      if (!visit(start, at, dash, secondDash)) return;
      start = at + 1;
      dash = -1;
      secondDash = -1;
    }
  }
}
