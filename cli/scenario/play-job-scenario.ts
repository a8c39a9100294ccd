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
  const state = initialState({ gates, validateSpecs: options.validateSpecs ?? false });
  const log: JobEvent[] = [];
  const append = (event: JobEvent) => {
    const logged = { ...event, seq: log.length + 1 } as JobEvent;
    log.push(logged);
    evolve(state, logged);
  };
  const firstAt = scenario.events[0]?.at ?? scenario.job.metadata.creationTimestamp ?? new Date(0).toISOString();
  append({
    type: 'JobObserved',
    eventId: 'job',
    clusterId: SCENARIO_CLUSTER,
    observedAt: scenario.job.metadata.creationTimestamp ?? firstAt,
    job: scenario.job,
  });
  const syncs: SyncRecord[] = [];
  const last = Math.min(scenario.events.length, (options.stopAfterEvent ?? Infinity) + 1);
  let i = 0;
  while (i < last) {
    const at = scenario.events[i]?.at ?? firstAt;
    const eventIndexes: number[] = [];
    while (i < last && scenario.events[i]?.at === at) {
      const event = scenario.events[i] as ScenarioEvent;
      append(toObservation(event, i));
      eventIndexes.push(i);
      i++;
    }
    const result = decide(state, at);
    for (const decision of result.decisions) append(decision);
    syncs.push({ at, eventIndexes, decisions: result.decisions, commands: result.commands, status: jobStatus(state) });
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
