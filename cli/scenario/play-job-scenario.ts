import { decide } from '../../shared/job/index.ts';
import { evolve, type JobEvent } from '../../shared/job/index.ts';
import type { JobCommand } from '../../shared/job/index.ts';
import type { Decision } from '../../shared/job/index.ts';
import type { Observation } from '../../shared/job/index.ts';
import { initialState, type JobState } from '../../shared/job/index.ts';
import { jobStatus, type JobStatusView } from '../../shared/job/index.ts';
import type { FeatureGates } from '../../shared/job/index.ts';
import type { JobScenario, ScenarioEvent } from './job-scenario.ts';

export const SCENARIO_CLUSTER = 'conformance';

/** One reconcile of the scenario: after the group of events sharing one `at`. */
export interface SyncRecord {
  readonly at: string;
  /** Indexes (0-based, into the scenario's events) of the events of this group. */
  readonly eventIndexes: readonly number[];
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
  readonly status: JobStatusView;
}

export interface ScenarioRun {
  readonly syncs: readonly SyncRecord[];
  /** The log as the service would hold it: observations and decisions with their seq. */
  readonly log: readonly JobEvent[];
  readonly state: JobState;
}

export interface PlayOptions {
  readonly gates?: Partial<FeatureGates>;
  readonly validateSpecs?: boolean;
  /** Stop after this many scenario events (replay `--at`). */
  readonly stopAfterEvent?: number;
}

/** The gates a scenario runs with: those it names; an unnamed gate is off (upstream's default). */
export function scenarioGates(scenario: JobScenario): FeatureGates {
  return { PodFailurePolicyName: scenario.featureGates?.['PodFailurePolicyName'] === true };
}

/**
 * Plays a scenario the way the corpus README's execution model says: the Job is observed
 * first, then events sharing an `at` form one snapshot, and the controller reconciles once
 * after each group, at that time.
 */
export function playJobScenario(scenario: JobScenario, options: PlayOptions = {}): ScenarioRun {
  const gates = { ...scenarioGates(scenario), ...options.gates };
  const firstAt = scenario.events[0]?.at ?? scenario.job.metadata.creationTimestamp ?? new Date(0).toISOString();
  const created: Observation = {
    type: 'JobObserved',
    eventId: 'job',
    clusterId: SCENARIO_CLUSTER,
    observedAt: scenario.job.metadata.creationTimestamp ?? firstAt,
    job: scenario.job,
  };
  const last = Math.min(scenario.events.length, (options.stopAfterEvent ?? Infinity) + 1);
  const observations = scenario.events.slice(0, last).map(toObservation);
  return playJobLog({ gates, validateSpecs: options.validateSpecs ?? false }, [created], observations);
}

/**
 * The Job's execution model, for a scenario and for `jobfold replay`'s JSONL: `before` is folded
 * first, then the observations are appended to the Job's log in order, and after each run of
 * consecutive ones sharing an `observedAt` the Job is reconciled once, at that time, and the
 * decisions are appended too. A sync's `eventIndexes` index `observations`.
 */
export function playJobLog(
  config: { readonly gates: FeatureGates; readonly validateSpecs: boolean },
  before: readonly Observation[],
  observations: readonly Observation[],
  onProgress?: (folded: number) => void,
): ScenarioRun {
  const state = initialState(config);
  const log: JobEvent[] = [];
  const append = (event: JobEvent) => {
    const logged = { ...event, seq: log.length + 1 } as JobEvent;
    log.push(logged);
    evolve(state, logged);
  };
  for (const observation of before) append(observation);
  const syncs: SyncRecord[] = [];
  let i = 0;
  while (i < observations.length) {
    const at = (observations[i] as Observation).observedAt;
    const eventIndexes: number[] = [];
    while (i < observations.length && observations[i]?.observedAt === at) {
      append(observations[i] as Observation);
      eventIndexes.push(i);
      i++;
    }
    const result = decide(state, at);
    for (const decision of result.decisions) append(decision);
    syncs.push({ at, eventIndexes, decisions: result.decisions, commands: result.commands, status: jobStatus(state) });
    onProgress?.(i);
  }
  return { syncs, log, state };
}

export function toObservation(event: ScenarioEvent, index: number): Observation {
  const envelope = { eventId: `event-${index}`, clusterId: SCENARIO_CLUSTER, observedAt: event.at };
  switch (event.type) {
    case 'Pod':
      return { type: 'PodObserved', ...envelope, pod: event.pod };
    case 'PodDeleted':
      return { type: 'PodDeleted', ...envelope, uid: event.uid };
    case 'Tick':
      return { type: 'Tick', ...envelope };
    case 'Job':
      return { type: 'JobObserved', ...envelope, job: event.job };
  }
}
