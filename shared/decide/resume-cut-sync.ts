import type { DecisionRead } from '../audit/decision-read.ts';
import type { LogEntry, StreamId } from '../log/event-store.ts';
import type { Decided, Decider, LogEvent } from './decider.ts';

// A crash between two commit steps can leave a sync's first decisions in the log and the rest
// not. Deciding again at the head would take the rest on a state that already holds part of
// the sync: the same acts, but under ids derived from another position (a condition change or
// a status write queued a second time, under a new commandId), and pages that replace the
// deletions the first page expects instead of adding to them. So the sync is decided again
// where it was first decided, on the state before its first decision: the same decisions, the
// same ids, the same pages, and only those not logged yet are logged. The log then reads as if
// no crash had happened, and every command keeps the one id it was queued under.

/** A sync the log holds only the start of: when and after which entry it was decided. */
export interface CutSync {
  readonly at: string;
  /** What its logged decisions record they read (`read.head` is the sync's position). */
  readonly read: DecisionRead;
}

/** The rest of a cut-short sync, to log at the head. */
export interface SyncRest<D, C = unknown> extends Decided<D, C> {
  readonly at: string;
  /** Recorded with the rest as with the start, so the sync reads as one. */
  readonly read: DecisionRead;
}

/**
 * The log's last sync when a crash cut it short, else undefined. The writer records in each
 * decision what it read (`read.head`, the sync's position) and how many decisions its sync
 * logged (`read.decisions`), and commits the observation that ends a run in the same step as
 * its sync's first decision. So a log that ends with an observation, or with a decision whose
 * sync logged all of its decisions after `read.head`, is complete; one that ends part-way
 * through a sync is not. Entries of earlier writers (no `read.decisions`) are judged by the
 * decider (`legacyCut`), else count as complete.
 */
export function cutShort(decider: Pick<Decider<unknown, LogEvent, LogEvent, unknown>, 'legacyCut'>, last: LogEntry, head: number, stream: StreamId): CutSync | undefined {
  const read = (last.body as { read?: DecisionRead } | null)?.read;
  if (read?.decisions === undefined) return decider.legacyCut?.(last, head, stream);
  return head - read.head < read.decisions ? { at: last.observedAt, read } : undefined;
}

/**
 * Folds `tail` into `state`, deciding the cut sync again at its own position on the way, and
 * returns the state and the sync's rest. No rest when the state is already past that position:
 * the writer takes a snapshot only with a batch's last step, so never inside a sync.
 */
export function foldResuming<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, start: S, tail: readonly (O | D)[], cut: CutSync, pageBytes?: number,
): { state: S; rest: SyncRest<D, C> | undefined } {
  let state = start;
  const position = cut.read.head;
  const logged = tail.filter((event) => (event.seq ?? 0) > position);
  if (decider.position(state) > position || logged.length === 0) {
    for (const event of tail) state = decider.evolve(state, event);
    return { state, rest: undefined };
  }
  for (const event of tail) if ((event.seq ?? 0) <= position) state = decider.evolve(state, event);
  // Whole, as first decided: restOf pages what the log still lacks.
  const again = decider.decide(state, cut.at, Number.POSITIVE_INFINITY);
  for (const event of logged) state = decider.evolve(state, event);
  const decisions = decider.restOf(again.decisions, logged, pageBytes);
  const commands = decider.restCommands(again, decisions);
  // Pages cut otherwise than the first time make another count: recorded, so the sync reads whole.
  const read = { ...cut.read, decisions: logged.length + decisions.length };
  return { state, rest: { at: cut.at, read, decisions, commands, wakeAt: again.wakeAt } };
}
