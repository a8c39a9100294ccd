import type { JobCommand } from '../../../shared/job/commands.ts';
import { decide } from '../../../shared/job/decide.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type JobState } from '../../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import type { Batch } from './arbitraries.ts';

/** One reconcile of a driven history. */
export interface Reconcile {
  readonly at: string;
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
  readonly status: JobStatusView;
}

export interface Observer {
  /** After each event is folded. */
  afterEvent?(state: JobState): void;
  /** After each reconcile, once its decisions are folded. */
  afterReconcile?(state: JobState, reconcile: Reconcile): void;
}

/** A fresh state that has observed the Job (at T0). Throws if the fold rejects the Job. */
export function startJob(job: Job): JobState {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  fold(state, jobObserved(job, T0));
  if (state.rejected) throw new Error(`generated an invalid Job: ${state.rejected.map((e) => e.message).join('; ')}`);
  return state;
}

/** Folds each batch, then reconciles at the batch's time and folds the decisions back. */
export function drive(state: JobState, batches: readonly Batch[], observer: Observer = {}): Reconcile[] {
  const reconciles: Reconcile[] = [];
  for (const batch of batches) {
    for (const event of batch.events) {
      fold(state, event);
      observer.afterEvent?.(state);
    }
    const { decisions, commands } = decide(state, batch.at);
    for (const decision of decisions) fold(state, decision);
    const reconcile = { at: batch.at, decisions, commands, status: jobStatus(state) };
    observer.afterReconcile?.(state, reconcile);
    reconciles.push(reconcile);
  }
  return reconciles;
}

/** Logs the event at the next position, as the event store would. */
function fold(state: JobState, event: JobEvent): void {
  evolve(state, { ...event, seq: state.position + 1 } as JobEvent);
}
