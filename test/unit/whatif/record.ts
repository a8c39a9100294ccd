import { decide } from '../../../shared/job/decide.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { jobObserved, T0 } from '../../support/builders.ts';

/** What the cluster reported at one time; the Job is reconciled once after each batch. */
export interface Batch {
  readonly at: string;
  readonly events: readonly JobEvent[];
}

/**
 * Records a history as the service would: the Job observed at T0, then each batch's events
 * appended to the log and a reconcile at the batch's time whose decisions are appended too.
 * Returns the log, every entry with its seq.
 */
export function recordHistory(job: Job, batches: readonly Batch[]): JobEvent[] {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  const log: JobEvent[] = [];
  const append = (event: JobEvent) => {
    const logged = { ...event, seq: log.length + 1 } as JobEvent;
    log.push(logged);
    evolve(state, logged);
  };
  for (const batch of [{ at: T0, events: [jobObserved(job, T0)] }, ...batches]) {
    for (const event of batch.events) append(event);
    for (const decision of decide(state, batch.at).decisions) append(decision);
  }
  return log;
}

/** One batch per time, from [seconds, events] pairs. */
export const batches = (...steps: readonly (readonly [string, readonly JobEvent[]])[]): Batch[] =>
  steps.map(([at, events]) => ({ at, events }));
