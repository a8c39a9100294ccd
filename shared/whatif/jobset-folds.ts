import type { JobSetDecisionEvent } from '../jobset/decision-events.ts';
import { evolve as evolveJobSet } from '../jobset/evolve.ts';
import type { JobSetEvent, JobSetObserved } from '../jobset/events.ts';
import { settle, type Settled } from '../jobset/settle.ts';
import { initialState as initialJobSetState, type JobSetState } from '../jobset/state.ts';
import { summarizeJobSetDecision } from './decision-summary.ts';
import { Folds, WhatIfInputError, type KindFold } from './folds.ts';
import { isJobSetDecision, jobSetOutcomeOf, recordedJobSetOutcome, restartsAfter } from './outcome.ts';
import { mergeJobSet, patchJobSet } from './patch.ts';
import type { JobSetLogEntry } from './refold.ts';
import type { JobSetDecisionSummary, JobSetOutcomeView, JobSetWhatIfReport } from './report.ts';

// A JobSet's what-if (what-if.ts): its fold, its restarts.

export interface JobSetWhatIfInput {
  /** The JobSet's log as recorded, each event with its seq. */
  readonly log: readonly JobSetLogEntry[];
  /** A JSON merge patch (RFC 7386) of the JobSet (its failure, success or startup policy). */
  readonly patch: unknown;
}

export const JOBSET_FOLD: KindFold<JobSetLogEntry, JobSetDecisionEvent, JobSetState, Settled, JobSetDecisionSummary> = {
  /** A JobSet's log: its decisions and observations each carry `at`. */
  reading: {
    decision: ({ event }) => (isJobSetDecision(event) ? event : undefined),
    time: ({ event }) => event.at,
  },
  position: ({ seq }) => seq,
  evolve: (state, { event }) => evolveJobSet(state, event),
  // The controller's requeue loop, to its fixed point.
  decide: settle,
  apply: (_state, settled) => settled.state,
  summarize: (settled) => settled.events.map(summarizeJobSetDecision),
};

/**
 * A JobSet's folds read its own observations and its child Jobs' statuses; after the divergence
 * the recorded child statuses stop being evidence (a JobSet that failed instead of restarting
 * has no new children). The JobSet folds set no timers the what-if fires.
 */
export class JobSetFolds extends Folds<JobSetLogEntry, JobSetDecisionEvent, JobSetState, Settled, JobSetDecisionSummary, JobSetOutcomeView> {
  private readonly log: readonly JobSetLogEntry[];
  private readonly patchObserved: (event: JobSetEvent) => JobSetEvent;
  private restarts = 0;

  constructor(input: JobSetWhatIfInput) {
    super(JOBSET_FOLD, initialJobSetState(), initialJobSetState());
    this.log = input.log;
    const first = input.log.find((e): e is { seq: number; event: JobSetObserved } => e.event.type === 'JobSetObserved');
    if (!first) throw new WhatIfInputError('the log holds no JobSetObserved: there is no JobSet to patch');
    const firstPatched = patchJobSet(first.event.jobSet, input.patch);
    this.patchObserved = (event) => {
      if (event.type !== 'JobSetObserved') return event;
      return { ...event, jobSet: event === first.event ? firstPatched : mergeJobSet(event.jobSet, input.patch) };
    };
  }

  protected asPatched(entry: JobSetLogEntry): JobSetLogEntry {
    return { ...entry, event: this.patchObserved(entry.event) };
  }

  protected note(settled: Settled, at: string): void {
    for (const decision of settled.events) {
      if (this.reached) break;
      this.restarts = restartsAfter(decision, this.restarts);
      const outcome = jobSetOutcomeOf(decision);
      if (outcome) this.reached = { ...outcome, atEvent: this.lastRead, at, restarts: this.restarts };
    }
  }

  report(): JobSetWhatIfReport {
    const recorded = recordedJobSetOutcome(this.log);
    const divergence = this.divergence;
    if (!divergence) return { kind: 'JobSet', recorded, whatIf: { ...recorded, exact: true }, divergesAtEvent: null, divergence: null };
    const whatIf = this.reached
      ? { ...this.reached, exact: true }
      : { outcome: 'Running' as const, condition: null, reason: null, atEvent: null, at: null, restarts: this.restarts, exact: false };
    // A JobSet's folds diverge at a reconcile only: it counts no pods.
    return { kind: 'JobSet', recorded, whatIf, divergesAtEvent: divergence.atEvent, divergence: { ...divergence, by: 'reconcile' } };
  }
}
