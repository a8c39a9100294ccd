import { entryHash, GENESIS_HASH } from '../log/hash-chain.ts';
import type { AuditEntry } from './audit-format.ts';
import type { Finding } from './findings.ts';

/** How far from its position a moved entry is looked for. */
const MOVE_WINDOW = 16;

/**
 * Recomputes the hash chain of a log (entries in the order stored) and names what breaks it:
 *  - a gap in the seqs: an entry `removed` (the link after it is explained by the gap);
 *  - an entry whose hash holds at another position (its seq and predecessor there): `reordered`;
 *  - an entry the next one still chains from: its content `changed` under an unchanged hash;
 *  - an entry that chains from nothing and that the next entry skips: `inserted`.
 * The last entry, with no successor to tell, is reported `changed` when its link breaks.
 */
export function verifyEntryChain(entries: readonly AuditEntry[]): Finding[] {
  const findings: Finding[] = [];
  const bySeq = new Map(entries.map((e) => [e.seq, e]));
  const hashAt = (seq: number): string | undefined => (seq === 0 ? GENESIS_HASH : bySeq.get(seq)?.hash);
  const links = (prev: string | undefined, entry: AuditEntry): boolean =>
    prev !== undefined && entry.hash !== undefined && safeHash(prev, entry) === entry.hash;
  let expected = 1;
  for (const [i, entry] of entries.entries()) {
    const gap = entry.seq > expected;
    for (let seq = expected; seq < entry.seq; seq++) findings.push({ kind: 'removed', seq });
    expected = entry.seq + 1;
    if (entry.hash === undefined) {
      findings.push({ kind: 'unchained', seq: entry.seq, eventId: entry.eventId });
      continue;
    }
    const prev = i === 0 ? GENESIS_HASH : entries[i - 1]?.hash;
    if (links(prev, entry) || gap) continue;
    const originalSeq = originOf(entry, hashAt);
    if (originalSeq !== undefined) {
      findings.push({ kind: 'reordered', seq: entry.seq, eventId: entry.eventId, originalSeq });
      continue;
    }
    const next = entries[i + 1];
    const nextChainsFromIt = next !== undefined && links(entry.hash, next);
    const nextSkipsIt = next !== undefined && (links(prev, next) || originOf(next, hashAt) === entry.seq);
    if (next === undefined || nextChainsFromIt || !nextSkipsIt) findings.push({ kind: 'changed', seq: entry.seq, eventId: entry.eventId });
    else findings.push({ kind: 'inserted', seq: entry.seq, eventId: entry.eventId });
  }
  return findings;
}

/**
 * The position an entry's hash was made at, if a position near its own explains it: its seq
 * set to that position, and the hash of some entry stored nearby as its predecessor (entries
 * moved together, such as two swapped ones, have moved their predecessors too).
 */
function originOf(entry: AuditEntry, hashAt: (seq: number) => string | undefined): number | undefined {
  const nearby: string[] = [];
  for (let seq = entry.seq - MOVE_WINDOW - 1; seq <= entry.seq + MOVE_WINDOW; seq++) {
    const hash = seq >= 1 && seq !== entry.seq ? hashAt(seq) : undefined;
    if (hash !== undefined) nearby.push(hash);
  }
  for (let distance = 1; distance <= MOVE_WINDOW; distance++) {
    for (const seq of [entry.seq - distance, entry.seq + distance]) {
      if (seq < 1) continue;
      const moved = { ...entry, seq };
      for (const prev of seq === 1 ? [GENESIS_HASH] : nearby) {
        if (safeHash(prev, moved) === entry.hash) return seq;
      }
    }
  }
  return undefined;
}

/** entryHash that treats a malformed stored hash as a broken link instead of throwing. */
function safeHash(prev: string, entry: object): string | undefined {
  try {
    return entryHash(prev, entry);
  } catch {
    return undefined;
  }
}
