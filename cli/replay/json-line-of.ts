// Finds the line a value of a JSON document starts on, so that a schema error found by path
// (`events[3].pod.metadata.uid`) can be reported as FILE:LINE. The text is known to be valid
// JSON (it parsed); the scan only skips, it never builds values.

/**
 * The (1-based) line of the value at `path`; for a path that does not exist (a missing
 * field), the line of its deepest existing ancestor.
 */
export function lineOfPath(text: string, path: readonly PropertyKey[]): number {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++;
  };
  const skipString = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    skipSpace();
    const c = text[i];
    if (c === '"') return skipString();
    if (c !== '{' && c !== '[') {
      while (i < text.length && !',}] \t\r\n'.includes(text[i] as string)) i++;
      return;
    }
    let depth = 0;
    do {
      const d = text[i];
      if (d === '"') {
        skipString();
        continue;
      }
      if (d === '{' || d === '[') depth++;
      if (d === '}' || d === ']') depth--;
      i++;
    } while (i < text.length && depth > 0);
  };
  const locate = (depth: number): number => {
    skipSpace();
    const start = i;
    const key = path[depth];
    if (key === undefined) return start;
    const open = text[i];
    if (open !== '{' && open !== '[') return start;
    i++;
    for (let index = 0; ; index++) {
      skipSpace();
      if (text[i] === '}' || text[i] === ']' || i >= text.length) return start;
      let name: PropertyKey = index;
      if (open === '{') {
        const keyStart = i;
        skipString();
        name = JSON.parse(text.slice(keyStart, i)) as string;
        skipSpace();
        i++; // ':'
      }
      if (name === key) return locate(depth + 1);
      skipValue();
      skipSpace();
      if (text[i] === ',') i++;
    }
  };
  const offset = locate(0);
  let line = 1;
  for (let k = 0; k < offset && k < text.length; k++) if (text[k] === '\n') line++;
  return line;
}
