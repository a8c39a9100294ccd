import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';

// The log's hash chain: every stored entry carries `hash`, the hex SHA-256 over the previous
// entry's hash (GENESIS_HASH for seq 1) followed by the entry's canonical bytes. Anyone holding
// an exported log can recompute the chain and see that no entry was changed, dropped or
// reordered. Pure: the same entry always hashes the same (sorted keys, no whitespace).

/** The "previous hash" of seq 1: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

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
