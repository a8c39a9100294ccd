import { decide } from '../job/decide.ts';
import type { JobCommand } from '../job/commands.ts';
import type { Decision } from '../job/decisions.ts';
import type { Observation } from '../job/events.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import type { JobState } from '../job/state.ts';
import { pageDecisions } from './page-decisions.ts';
import type { DecisionRead } from '../audit/decision-read.ts';
import type { SyncRest } from './resume-cut-sync.ts';
import { sameInstant } from '../k8s/time.ts';

// Status and decisions are a function of the log alone. The fold decides at every position
// where the controller would have synced: after each run of observations that share an
// observedAt instant (one informer snapshot — the conformance corpus's execution model; real cluster
// events carry distinct times, so a run is then one event), at that observedAt. A decision
// taken at position k is logged and folded in before the observation at k+1. Where the batch
// boundaries fall therefore never changes a decision, provided a batch never splits one run.
// `now` is the run's observedAt, read from the log, never the clock.

/** One sync: the decisions taken after the observation at `afterSeq`. */
export interface PositionSync {
  readonly afterSeq: number;
  readonly at: string;
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
  readonly wakeAt: string | undefined;
  /**
   * Set when these decisions are the rest of a sync a crash cut short (resume-cut-sync.ts):
   * what its logged start read, recorded with the rest; its other commands left with the start.
   */
  readonly resumed?: DecisionRead;
}

export interface DecidedBatch {
  /** Observations and decisions in log order, each with its seq. */
  readonly entries: readonly JobEvent[];
  readonly syncs: readonly PositionSync[];
  /** The wake-up the last sync asked for (deadline, backoff, expectations), if any. */
  readonly wakeAt: string | undefined;
  /** Observations not logged because `keep` refused them (duplicates), in arrival order. */
  readonly dropped: readonly Observation[];
}

export interface DecideOptions {
  /**
   * Asked for each observation against the state at the position it would take: false drops it
   * unlogged (the log writer's dedupe against the fold); a decision is logged in its place, as
   * the record of a refusal (ObservationRefused), and starts no sync. Default: keep all.
   */
  readonly keep?: (state: JobState, observation: Observation) => boolean | Decision;
  /**
   * The rest of a sync the log holds only the start of (a crash between commit steps), decided
   * again where it was first decided: logged before anything new.
   */
  readonly rest?: SyncRest;
  /** Termination page size (page-decisions.ts), smaller in tests of many pages. */
  readonly pageBytes?: number;
}

/**
 * Appends `observations` to the fold at `state.position + 1…`, deciding after each run of
 * equal observedAt and folding each decision in before the next observation. Updates `state`
 * in place (as evolve does). An observation `keep` refuses is not logged; a run of which
 * nothing was logged is not a sync.
 */
export function decideAtEachPosition(state: JobState, observations: readonly Observation[], options: DecideOptions = {}): DecidedBatch {
  const entries: JobEvent[] = [];
  const syncs: PositionSync[] = [];
  const dropped: Observation[] = [];
  const log = (event: JobEvent) => {
    const logged = { ...event, seq: state.position + 1 } as JobEvent;
    evolve(state, logged);
    entries.push(logged);
  };
  const sync = (at: string) => {
    const afterSeq = state.position;
    const { decisions: whole, commands, wakeAt } = decide(state, at);
    const decisions = pageDecisions(whole, options.pageBytes);
    for (const decision of decisions) log(decision);
    return { afterSeq, at, decisions, commands, wakeAt };
  };
  const { keep, rest } = options;
  if (rest !== undefined && rest.decisions.length > 0) {
    const afterSeq = state.position;
    for (const decision of rest.decisions) log(decision);
    syncs.push({ afterSeq, at: rest.at, decisions: rest.decisions, commands: rest.commands, wakeAt: rest.wakeAt, resumed: rest.read });
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
    const next = observations[i + 1];
    if (next !== undefined && sameInstant(next.observedAt, observation.observedAt)) return;
    if (loggedInRun) syncs.push(sync(observation.observedAt));
    loggedInRun = false;
  });
  return { entries, syncs, wakeAt: syncs.at(-1)?.wakeAt, dropped };
}

/**
 * Splits observations into batches at run boundaries only, taking `runsPerBatch[i]` runs for
 * batch i (the last size repeats). For callers that must cut a long backlog into commits.
 */
export function batchesOfRuns<O extends { observedAt: string }>(observations: readonly O[], runsPerBatch: readonly number[]): O[][] {
  const batches: O[][] = [];
  let batch: O[] = [];
  let runs = 0;
  observations.forEach((observation, i) => {
    batch.push(observation);
    const next = observations[i + 1];
    if (next !== undefined && sameInstant(next.observedAt, observation.observedAt)) return;
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
