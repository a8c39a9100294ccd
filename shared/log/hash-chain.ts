import { createHash } from 'node:crypto';

// The log's hash chain: every stored entry carries `hash`, the hex SHA-256 over the previous
// entry's hash (GENESIS_HASH for seq 1) followed by the entry's canonical bytes. Anyone holding
// an exported log can recompute the chain and see that no entry was changed, dropped or
// reordered. Pure: the same entry always hashes the same (sorted keys, no whitespace).

/** The "previous hash" of seq 1: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

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
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value as Record<string, unknown>);
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

/** Keys whose value is undefined are left out, as JSON.stringify does. */
function canonicalObject(record: Record<string, unknown>): string {
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    text += (text.length === 1 ? '' : ',') + quotedKey(key) + canonicalJson(item);
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

/** The bytes of an entry that its hash covers: everything but the `hash` field itself. */
export function canonicalEntryBytes(entry: object): Buffer {
  return Buffer.from(canonicalEntryText(entry), 'utf8');
}

function canonicalEntryText(entry: object): string {
  const { hash: _hash, ...rest } = entry as Record<string, unknown>;
  return canonicalJson(rest);
}

/** hex SHA-256(prevHash as its 64 ASCII hex characters ‖ canonical entry bytes). */
export function entryHash(prevHash: string, entry: object): string {
  if (!/^[0-9a-f]{64}$/.test(prevHash)) throw new RangeError(`entryHash: prevHash must be 64 lowercase hex characters`);
  return createHash('sha256').update(prevHash, 'ascii').update(canonicalEntryText(entry), 'utf8').digest('hex');
}

/** Hashes entries in order after `prevHash`; returns each entry with its `hash`. */
export function chainEntries<E extends object>(prevHash: string, entries: readonly E[]): Array<E & { hash: string }> {
  let prev = prevHash;
  return entries.map((entry) => {
    const hash = entryHash(prev, entry);
    prev = hash;
    return { ...entry, hash };
  });
}

export type ChainBreak = { index: number; expected: string; actual: string | undefined };

/**
 * Recomputes the chain of entries that each carry `hash`; returns the first entry whose stored
 * hash differs from the recomputed one, or undefined when the whole chain holds.
 */
export function verifyChain(prevHash: string, entries: ReadonlyArray<{ hash?: string }>): ChainBreak | undefined {
  let prev = prevHash;
  for (const [index, entry] of entries.entries()) {
    const expected = entryHash(prev, entry);
    if (entry.hash !== expected) return { index, expected, actual: entry.hash };
    prev = expected;
  }
  return undefined;
}
