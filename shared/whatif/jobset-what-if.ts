import { isJobSetDecisionType, type JobSetDecisionEvent } from '../jobset/decision-events.ts';
import { evolve } from '../jobset/evolve.ts';
import type { JobSetEvent, JobSetObserved } from '../jobset/events.ts';
import { settle, type Settled } from '../jobset/settle.ts';
import { initialState, type JobSetState } from '../jobset/state.ts';
import { sameSummaries, summarizeJobSetDecision } from './decision-summary.ts';
import { jobSetOutcomeOf } from './outcome.ts';
import type { JobSetDivergence, JobSetOutcomeView, JobSetWhatIfReport } from './report.ts';
import { mergeJobSet, patchJobSet } from './patch.ts';
import { replayRecord, type ReconcileAt, type RecordReading, type Refolding } from './refold.ts';
import { WhatIfInputError } from './what-if.ts';

/** One entry of a JobSet's log: its own events, its child Jobs' statuses and its decisions. */
export interface JobSetLogEntry {
  readonly seq: number;
  readonly event: JobSetEvent;
}

const isDecision = (event: JobSetEvent): event is JobSetDecisionEvent => isJobSetDecisionType(event.type);

/**
 * Refolds a recorded JobSet under a patched spec (its failure, success or startup policy),
 * next to a refold under the recorded spec, the way the Job what-if does (docs/whatif.md):
 * both folds read the same observations — the JobSet's own and its child Jobs' statuses — and
 * are settled where the record reconciled, and at every other change of observation time (only
 * if the patched fold would act there). The first reconcile where they decide differently is
 * the divergence; after it the recorded child statuses stop being evidence (a JobSet that
 * failed instead of restarting has no new children), so the refold stops there.
 */
export function whatIfJobSet(input: { readonly log: readonly JobSetLogEntry[]; readonly patch: unknown }): JobSetWhatIfReport {
  const folds = new JobSetFolds(input.log, input.patch);
  replayRecord(input.log, JOBSET_LOG, folds);
  return report(input.log, folds.divergence, folds.reached, folds.restarts);
}

/** A JobSet's log: its decisions and observations each carry `at`. */
const JOBSET_LOG: RecordReading<JobSetLogEntry, JobSetDecisionEvent> = {
  decision: ({ event }) => (isDecision(event) ? event : undefined),
  time: ({ event }) => event.at,
};

class JobSetFolds implements Refolding<JobSetLogEntry, JobSetDecisionEvent> {
  private original: JobSetState = initialState();
  private patched: JobSetState = initialState();
  private readonly patchObserved: (event: JobSetEvent) => JobSetEvent;
  private lastRead = 0;
  divergence: JobSetDivergence | undefined;
  reached: JobSetOutcomeView | undefined;
  restarts = 0;
  /** The JobSet folds set no timers the what-if fires. */
  readonly wake = undefined;

  constructor(log: readonly JobSetLogEntry[], patch: unknown) {
    const first = log.find((e): e is { seq: number; event: JobSetObserved } => e.event.type === 'JobSetObserved');
    if (!first) throw new WhatIfInputError('the log holds no JobSetObserved: there is no JobSet to patch');
    const firstPatched = patchJobSet(first.event.jobSet, patch);
    this.patchObserved = (event) => {
      if (event.type !== 'JobSetObserved') return event;
      return { ...event, jobSet: event === first.event ? firstPatched : mergeJobSet(event.jobSet, patch) };
    };
  }

  /** The divergence's reconcile has been read. */
  get closed(): boolean {
    return this.divergence !== undefined;
  }

  observe({ seq, event }: JobSetLogEntry): void {
    this.lastRead = seq;
    this.original = evolve(this.original, event);
    this.patched = evolve(this.patched, this.patchObserved(event));
  }

  /** Settles both folds at `at`; where the record did not reconcile, only if the patched fold would act otherwise. */
  reconcile(at: string, where: ReconcileAt<JobSetDecisionEvent>): void {
    const o = settle(this.original, at);
    const p = settle(this.patched, at);
    const os = o.events.map(summarizeJobSetDecision);
    const ps = p.events.map(summarizeJobSetDecision);
    const differ = !sameSummaries(os, ps);
    // No reconcile in the record here: the controller acted only if the patched fold would.
    if (where.kind !== 'record' && (ps.length === 0 || !differ)) return;
    if (differ) this.divergence = { atEvent: this.lastRead, at, by: 'reconcile', recorded: os, whatIf: ps };
    this.original = o.state;
    this.patched = p.state;
    this.noteWhatIf(p, at);
  }

  private noteWhatIf(settled: Settled, at: string): void {
    for (const decision of settled.events) {
      if (this.reached) break;
      this.restarts = restartsAfter(decision, this.restarts);
      const outcome = jobSetOutcomeOf(decision);
      if (outcome) this.reached = { ...outcome, atEvent: this.lastRead, at, restarts: this.restarts };
    }
  }
}

function report(
  log: readonly JobSetLogEntry[],
  divergence: JobSetDivergence | undefined,
  reached: JobSetOutcomeView | undefined,
  restarts: number,
): JobSetWhatIfReport {
  const recorded = recordedJobSetOutcome(log);
  if (!divergence) return { kind: 'JobSet', recorded, whatIf: { ...recorded, exact: true }, divergesAtEvent: null, divergence: null };
  const whatIf = reached
    ? { ...reached, exact: true }
    : { outcome: 'Running' as const, condition: null, reason: null, atEvent: null, at: null, restarts, exact: false };
  return { kind: 'JobSet', recorded, whatIf, divergesAtEvent: divergence.atEvent, divergence };
}

/**
 * The outcome the record holds: its first JobSetCompleted or JobSetFailed, and the restarts before
 * it; an outcome after a correction taking back that failure (the success came first on the
 * cluster's clock) stands instead, and a correction taking back a restart takes it out of the
 * count. Logs written before JOBSET_FOLD_VERSION .10 say both with `corrects` on the decision.
 */
export function recordedJobSetOutcome(log: readonly JobSetLogEntry[]): JobSetOutcomeView {
  let lastRead = 0;
  let restarts = 0;
  let recorded: JobSetOutcomeView | undefined;
  let failureTakenBack = false;
  for (const { seq, event } of log) {
    if (!isDecision(event)) {
      lastRead = seq;
      continue;
    }
    restarts = restartsAfter(event, restarts);
    if (event.type === 'JobSetOutcomeCorrected') failureTakenBack ||= event.retracted.some((c) => c.type === 'Failed');
    const outcome = jobSetOutcomeOf(event);
    const correction = failureTakenBack || (event.type === 'JobSetCompleted' && event.corrects !== undefined);
    if (outcome && (recorded === undefined || correction)) recorded = { ...outcome, atEvent: lastRead, at: event.at, restarts };
    if (outcome) failureTakenBack = false;
  }
  return recorded ?? { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, restarts };
}

/** The global restarts after a decision: a restart's counter, a correction's (lower when it takes a restart back). */
function restartsAfter(decision: JobSetDecisionEvent, restarts: number): number {
  switch (decision.type) {
    case 'JobSetRestarted':
    case 'JobSetOutcomeCorrected':
      return decision.restarts;
    case 'JobSetFailed':
      return decision.corrects === undefined ? restarts : restarts - 1; // before fold .10: the restart it corrects never was
    default:
      return restarts;
  }
}
