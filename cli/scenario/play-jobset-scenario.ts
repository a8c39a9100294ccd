import type { JobSetCommand } from '../../shared/jobset/index.ts';
import type { JobSetEvent } from '../../shared/jobset/index.ts';
import { evolve } from '../../shared/jobset/index.ts';
import type { JobSet } from '../../shared/jobset/index.ts';
import { settle } from '../../shared/jobset/index.ts';
import { initialState, type JobSetState } from '../../shared/jobset/index.ts';
import { JobSetScenarioError, patchedJobSet, unsupportedGates, type JobSetScenario, type JobSetScenarioEvent } from './jobset-scenario.ts';

/** One reconcile of the scenario: after its event `afterEvent` (0 = the JobSet's creation). */
export interface JobSetSync {
  readonly afterEvent: number;
  readonly at: string;
  readonly commands: readonly JobSetCommand[];
  readonly wakeAt: string | undefined;
  /** False when the reconcile found no fixed point (the conformance runner reports it). */
  readonly converged: boolean;
  readonly state: JobSetState;
}

export interface JobSetScenarioRun {
  readonly state: JobSetState;
  /** The JobSet's log: observations and decisions, each with its (1-based) position. */
  readonly log: readonly { readonly seq: number; readonly event: JobSetEvent }[];
  readonly syncs: readonly JobSetSync[];
}

/**
 * Plays a JobSet scenario as its README's execution model says, up to and including event
 * `stopAfterEvent`: the JobSet is observed at the first event's time and reconciled to its
 * fixed point (`settle`), then each event is folded and the JobSet reconciled again, its
 * commands assumed to succeed. Decisions go into the log as the service's writer puts them.
 * JobSetScenarioError for a gate the fold does not implement or a patch that breaks the JobSet.
 */
export function playJobSetScenario(scenario: JobSetScenario, stopAfterEvent = scenario.events.length): JobSetScenarioRun {
  const unsupported = unsupportedGates(scenario);
  if (unsupported.length > 0) throw new JobSetScenarioError(`unsupported JobSet feature gates: ${unsupported.join(', ')}`);
  const log: { seq: number; event: JobSetEvent }[] = [];
  const syncs: JobSetSync[] = [];
  let state: JobSetState = initialState();
  const append = (event: JobSetEvent) => {
    state = evolve(state, event);
    log.push({ seq: state.position, event });
  };
  let jobSet: JobSet = scenario.jobset;
  const createdAt = scenario.events[0]?.at ?? '1970-01-01T00:00:00Z';
  append({ type: 'JobSetObserved', at: createdAt, eventId: undefined, jobSet });
  for (let n = 0; n <= Math.min(stopAfterEvent, scenario.events.length); n++) {
    const event = n === 0 ? undefined : (scenario.events[n - 1] as JobSetScenarioEvent);
    if (event?.type === 'JobSetSpecUpdated') jobSet = patchedJobSet(jobSet, event.patch, n);
    if (event?.type === 'JobSetMarkedForDeletion') jobSet = { ...jobSet, metadata: { ...jobSet.metadata, deletionTimestamp: event.at } };
    for (const observation of event === undefined ? [] : observations(event, jobSet)) append(observation);
    const at = event?.at ?? createdAt;
    const settled = settle(state, at);
    for (const decision of settled.events) append(decision);
    syncs.push({ afterEvent: n, at, commands: settled.commands, wakeAt: settled.wakeAt, converged: settled.converged, state });
  }
  return { state, log, syncs };
}

/** What the fold observes of one scenario event. */
function observations(event: JobSetScenarioEvent, jobSet: JobSet): JobSetEvent[] {
  switch (event.type) {
    case 'JobStatus':
      return [{ type: 'JobObserved', at: event.at, eventId: undefined, job: event.job }];
    case 'JobStatusBatch':
      return event.jobs.map((job) => ({ type: 'JobObserved', at: event.at, eventId: undefined, job }));
    case 'JobDeleted':
      return [{ type: 'JobDeleted', at: event.at, eventId: undefined, name: event.name, ...(event.uid === undefined ? {} : { uid: event.uid }) }];
    case 'JobSetSpecUpdated':
    case 'JobSetMarkedForDeletion':
      return [{ type: 'JobSetObserved', at: event.at, eventId: undefined, jobSet }];
    case 'Tick':
      return [{ type: 'Tick', at: event.at, eventId: undefined }];
    case 'JobSetDeleted':
      return [{ type: 'JobSetDeleted', at: event.at, eventId: undefined }];
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
