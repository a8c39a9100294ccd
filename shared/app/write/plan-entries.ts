import { decisionRead, withRead } from '../../audit/decision-read.ts';
import { outboundEvents } from '../../contract/outbound.ts';
import type { Decision } from '../../job/decisions.ts';
import type { Observation } from '../../job/events.ts';
import type { JobState } from '../../job/state.ts';
import { entryHash, GENESIS_HASH } from '../../log/hash-chain.ts';
import type { PlannedEntry } from '../../outbox/commit-steps.ts';
import { publishedFromLog } from '../../outbox/outbox-page.ts';
import type { DecidedBatch } from '../../reconcile/decide-at-each-position.ts';
import type { NewEntry } from '../event-store.ts';
import { decisionEntry, observationEntry } from '../log-codec.ts';
import { isObservation } from './event-id-index.ts';

/** Where the batch starts: the log head and its chain hash (undefined: empty or unchained). */
export interface LogHead {
  readonly head: number;
  readonly hash: string | undefined;
}

export interface PlannedBatch {
  readonly planned: PlannedEntry[];
  /** The chain hash the last entry will get, when the chain before the batch is known. */
  readonly lastHash: string | undefined;
  /** The seqs of the entries that are a pod's first sighting (../first-sightings.ts), marked on commit. */
  readonly firstSightings?: readonly number[];
}

/**
 * The batch's log entries, ready for commitSteps. Each decision records what it read
 * (docs/audit.md): the position it was decided after and that entry's chain hash. The entries
 * of the batch are not stored yet, so their hashes are computed here exactly as the store
 * chains them (shared/log/hash-chain.ts over the entry with its seq and recordedAt). A sync's
 * inline events (condition changes, status updates, pod creations) travel with its first
 * decision; terminations are read back from the log by the publisher.
 */
export function planEntries(state: JobState, decided: DecidedBatch, start: LogHead, recordedAt: string): PlannedBatch {
  const chained = start.head === 0 || start.hash !== undefined;
  const hashAt = new Map<number, string | undefined>([[start.head, start.hash]]);
  const syncOf = new Map<number, (typeof decided.syncs)[number]>();
  for (const sync of decided.syncs) {
    sync.decisions.forEach((_, i) => syncOf.set(sync.afterSeq + 1 + i, sync));
  }
  const managedBy = state.settings?.managedBy;
  let prev = start.hash ?? GENESIS_HASH;
  const planned = decided.entries.map((event): PlannedEntry => {
    const seq = event.seq ?? 0;
    const sync = syncOf.get(seq);
    let entry: NewEntry;
    let inline: PlannedEntry['inline'] = [];
    if (sync === undefined) {
      // An observation, or the record of one refused in its place (no sync: it changes nothing).
      entry = isObservation(event) ? observationEntry(event) : decisionEntry(event as Decision);
    } else {
      const chainHead = chained ? hashAt.get(sync.afterSeq) : undefined;
      // The rest of a cut-short sync reads what its start read; its inline events left with the start.
      const read = sync.resumed ?? { ...decisionRead(sync.afterSeq, chainHead, state.config), decisions: sync.decisions.length };
      entry = withRead(decisionEntry(event as Decision), read);
      if (seq === sync.afterSeq + 1 && !sync.resumed) {
        const commands = sync.commands.filter((c) => c.type !== 'TerminatePod');
        inline = outboundEvents(state.identity, managedBy, sync.decisions, commands);
      }
    }
    if (chained) {
      prev = entryHash(prev, { ...entry, seq, recordedAt });
      hashAt.set(seq, prev);
    }
    // The observation that ends a run goes in the same commit step as its sync's first decision.
    const withNext = sync === undefined && syncOf.get(seq + 1)?.afterSeq === seq;
    return {
      entry, inline, fromLog: sync !== undefined && publishedFromLog(event as Decision), ...(withNext ? { withNext } : {}), ...(chained ? { hash: prev } : {}),
    };
  });
  return { planned, lastHash: chained && planned.length > 0 ? prev : start.hash };
}
