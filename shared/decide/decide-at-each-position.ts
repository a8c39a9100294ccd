import type { StreamId } from '../log/event-store.ts';
import type { DecisionRead } from '../audit/decision-read.ts';
import type { OutboundEvent } from '../contract/outbound.ts';
import type { Decided, Decider, DecisionOutbox, LogEvent, Report } from './decider.ts';
import type { SyncRest } from './resume-cut-sync.ts';
import { sameInstant } from '../k8s/time.ts';

// Status and decisions are a function of the log alone. The loop decides at every position
// where the controller would have synced: after each run of observations that share an
// observedAt instant (one informer snapshot — the conformance corpora's execution model; real cluster
// events carry distinct times, so a run is then one event), at that observedAt. A decision
// taken at position k is logged and folded in before the observation at k+1. Where the batch
// boundaries fall therefore never changes a decision, provided a batch never splits one run.
// `now` is the run's observedAt, read from the log, never the clock.

/** One sync: the decisions taken after the observation at `afterSeq`. */
export interface PositionSync<D, C> extends Decided<D, C> {
  readonly afterSeq: number;
  readonly at: string;
  /** What the outbox carries for each of `decisions`. */
  readonly outbox: readonly DecisionOutbox[];
  /** Every event the sync sends. */
  readonly published: readonly OutboundEvent[];
  /** What other logs learn from this sync (a child Job's status, for its JobSet). */
  readonly report?: Report;
  /** The index in the batch of the observation that ended the sync's run (-1: a resumed sync). */
  readonly lastObservation: number;
  /**
   * Set when these decisions are the rest of a sync a crash cut short (resume-cut-sync.ts):
   * what its logged start read, recorded with the rest; its other commands left with the start.
   */
  readonly resumed?: DecisionRead;
}

export interface DecidedBatch<S, O, D, C> {
  /** The state after the batch (the same object for a decider that folds in place). */
  readonly state: S;
  /** Observations and decisions in log order, each with its seq. */
  readonly entries: readonly (O | D)[];
  readonly syncs: readonly PositionSync<D, C>[];
  /** The wake-up the last sync asked for (deadline, backoff, expectations), if any. */
  readonly wakeAt: string | undefined;
  /** Observations not logged because `keep` refused them (duplicates), in arrival order. */
  readonly dropped: readonly O[];
}

export interface DecideOptions<S, O, D, C> {
  /** The log being written (whom the outbox events name). */
  readonly stream: StreamId;
  /**
   * Asked for each observation against the state at the position it would take: false drops it
   * unlogged (the log writer's dedupe against the log and the fold); a decision is logged in its
   * place, as the record of a refusal, and starts no sync. Default: keep all.
   */
  readonly keep?: (state: S, observation: O) => boolean | D;
  /**
   * The rest of a sync the log holds only the start of (a crash between commit steps), decided
   * again where it was first decided: logged before anything new.
   */
  readonly rest?: SyncRest<D, C>;
  /** Decision page size (a termination's pods), smaller in tests of many pages. */
  readonly pageBytes?: number;
}

/**
 * Appends `observations` to the fold at position + 1…, deciding after each run of equal
 * observedAt and folding each decision in before the next observation. An observation `keep`
 * refuses is not logged; a run of which nothing was logged is not a sync.
 */
export function decideAtEachPosition<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, start: S, observations: readonly O[], options: DecideOptions<S, O, D, C>,
): DecidedBatch<S, O, D, C> {
  let state = start;
  const entries: (O | D)[] = [];
  const syncs: PositionSync<D, C>[] = [];
  const dropped: O[] = [];
  const log = (event: O | D) => {
    const logged = { ...event, seq: decider.position(state) + 1 };
    state = decider.evolve(state, logged);
    entries.push(logged);
  };
  const sync = (afterSeq: number, at: string, decided: Decided<D, C>, lastObservation: number, resumed?: DecisionRead): PositionSync<D, C> => {
    for (const decision of decided.decisions) log(decision);
    const { decisions: outbox, published } = decider.outbox(state, decided, resumed !== undefined, options.stream);
    const report = decider.report?.(state, at);
    return { ...decided, afterSeq, at, outbox, published, lastObservation, ...(report ? { report } : {}), ...(resumed ? { resumed } : {}) };
  };
  const { keep, rest } = options;
  if (rest !== undefined && rest.decisions.length > 0) {
    syncs.push(sync(decider.position(state), rest.at, rest, -1, rest.read));
  }
  let loggedInRun = false;
  observations.forEach((observation, i) => {
    const verdict = keep === undefined ? true : keep(state, observation);
    if (verdict === true) {
      log(observation);
      loggedInRun = true;
    } else {
      if (verdict !== false) log(verdict);
      dropped.push(observation);
    }
    const at = decider.observedAt(observation);
    const next = observations[i + 1];
    if (next !== undefined && sameInstant(decider.observedAt(next), at)) return;
    if (loggedInRun) syncs.push(sync(decider.position(state), at, decider.decide(state, at, options.pageBytes), i));
    loggedInRun = false;
  });
  return { state, entries, syncs, wakeAt: syncs.at(-1)?.wakeAt, dropped };
}

/**
 * Splits observations into batches at run boundaries only, taking `runsPerBatch[i]` runs for
 * batch i (the last size repeats). For callers that must cut a long backlog into commits.
 */
export function batchesOfRuns<O>(observations: readonly O[], runsPerBatch: readonly number[], timeOf: (o: O) => string = observedAtOf): O[][] {
  const batches: O[][] = [];
  let batch: O[] = [];
  let runs = 0;
  observations.forEach((observation, i) => {
    batch.push(observation);
    const next = observations[i + 1];
    if (next !== undefined && sameInstant(timeOf(next), timeOf(observation))) return;
    runs += 1;
    const wanted = Math.max(1, runsPerBatch[batches.length] ?? runsPerBatch.at(-1) ?? 1);
    if (runs >= wanted || next === undefined) {
      batches.push(batch);
      batch = [];
      runs = 0;
    }
  });
  return batches;
}

const observedAtOf = (o: unknown): string => (o as { observedAt?: string; at?: string }).observedAt ?? (o as { at: string }).at;
