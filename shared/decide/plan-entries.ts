import { withRead } from '../audit/decision-read.ts';
import type { NewEntry } from '../log/event-store.ts';
import { entryHash, GENESIS_HASH } from '../log/hash-chain.ts';
import type { PlannedEntry } from '../outbox/commit-steps.ts';
import type { Decider, LogEvent } from './decider.ts';
import type { DecidedBatch, PositionSync } from './decide-at-each-position.ts';

/** Where the batch starts: the log head and its chain hash (undefined: empty or unchained). */
export interface LogHead {
  readonly head: number;
  readonly hash: string | undefined;
}

export interface PlannedBatch {
  readonly planned: PlannedEntry[];
  /** The chain hash the last entry will get, when the chain before the batch is known. */
  readonly lastHash: string | undefined;
  /** The seqs of the entries that are a record's first sighting (shared/job/first-sightings.ts), marked on commit. */
  readonly firstSightings?: readonly number[];
}

/**
 * The batch's log entries, ready for commitSteps. Each decision records what it read
 * (docs/audit.md): the position it was decided after and that entry's chain hash. The entries
 * of the batch are not stored yet, so their hashes are computed here exactly as the store
 * chains them (shared/log/hash-chain.ts over the entry with its seq and recordedAt). Each
 * decision carries the outbox its decider gave it (events built when decided, a termination page's pods).
 */
export function planEntries<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, decided: DecidedBatch<S, O, D, C>, start: LogHead, recordedAt: string,
): PlannedBatch {
  const chained = start.head === 0 || start.hash !== undefined;
  const hashAt = new Map<number, string | undefined>([[start.head, start.hash]]);
  const syncOf = new Map<number, { sync: PositionSync<D, C>; index: number }>();
  for (const sync of decided.syncs) {
    sync.decisions.forEach((_, index) => syncOf.set(sync.afterSeq + 1 + index, { sync, index }));
  }
  let prev = start.hash ?? GENESIS_HASH;
  const planned = decided.entries.map((event): PlannedEntry => {
    const seq = event.seq ?? 0;
    const placed = syncOf.get(seq);
    let entry: NewEntry;
    let outbox: PlannedEntry['inline'] = [];
    let terminations: PlannedEntry['terminations'];
    if (placed === undefined) {
      // An observation, or the record of one refused in its place (no sync: it changes nothing).
      entry = decider.log.isDecision(event) ? decider.log.decision(event) : decider.log.observation(event);
    } else {
      const { sync, index } = placed;
      const chainHead = chained ? hashAt.get(sync.afterSeq) : undefined;
      // The rest of a cut-short sync reads what its start read.
      const read = sync.resumed ?? { ...decider.readRecord(decided.state, sync.afterSeq, chainHead), decisions: sync.decisions.length };
      entry = withRead(decider.log.decision(event as D), read);
      outbox = sync.outbox[index]?.inline ?? [];
      terminations = sync.outbox[index]?.terminations;
    }
    if (chained) {
      prev = entryHash(prev, { ...entry, seq, recordedAt });
      hashAt.set(seq, prev);
    }
    // The observation that ends a run goes in the same commit step as its sync's first decision.
    const withNext = placed === undefined && syncOf.get(seq + 1)?.sync.afterSeq === seq;
    return { entry, inline: outbox, terminations, ...(withNext ? { withNext } : {}), ...(chained ? { hash: prev } : {}) };
  });
  return { planned, lastHash: chained && planned.length > 0 ? prev : start.hash };
}
