// Canonical JSON: the text a hash covers, the same for the same data whatever the key order.
// No Node built-ins here: the console's bundle reaches it through shared/job/stable-hash.ts.

/**
 * JSON data as hashed: objects with their keys sorted by UTF-16 code unit, no whitespace. Built
 * by appending to one string (no per-level arrays): every stored entry is hashed on the write
 * path, so this is among the writer's hottest functions.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not JSON data`);
      return JSON.stringify(value);
    case 'object':
      return Array.isArray(value) ? canonicalArray(value) : sortedObject(value as Record<string, unknown>, canonicalJson);
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON data`);
  }
}

function canonicalArray(items: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    text += (i === 0 ? '' : ',') + (item === undefined ? 'null' : canonicalJson(item));
  }
  return `${text}]`;
}

/**
 * `{…}` of a record as canonical JSON writes it: keys in UTF-16 code unit order (sort's default
 * for strings), each value written by `write`, keys whose value is undefined left out (as
 * JSON.stringify does). stableHash (shared/job/stable-hash.ts) writes its objects with it too.
 */
export function sortedObject(record: Record<string, unknown>, write: (value: unknown) => string): string {
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    text += (text.length === 1 ? '' : ',') + quotedKey(key) + write(item);
  }
  return `${text}}`;
}

/**
 * `"key":` as JSON writes it. Entries repeat the same few dozen keys (metadata, status, phase…),
 * and quoting each anew was a third of canonicalJson's time; the first QUOTED_KEYS distinct keys
 * are kept (labels and annotations bring keys without end, so the cache is bounded).
 */
function quotedKey(key: string): string {
  let quoted = QUOTED.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (QUOTED.size < QUOTED_KEYS) QUOTED.set(key, quoted);
  }
  return quoted;
}

const QUOTED_KEYS = 4096;
const QUOTED = new Map<string, string>();
