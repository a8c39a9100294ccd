import { expect } from 'vitest';
import type { JobCommand } from '../../shared/job/commands.ts';
import { decide, type Reconciliation } from '../../shared/job/decide.ts';
import type { Decision } from '../../shared/job/decisions.ts';
import { evolve, type JobEvent } from '../../shared/job/evolve.ts';
import { countAtSync } from '../../shared/job/observe-pod.ts';
import type { FeatureGates } from '../../shared/k8s/feature-gates.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type FoldConfig, type JobState } from '../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../shared/job/status.ts';
import type { Job } from '../../shared/k8s/job.ts';
import { eventTime, jobObserved, T0 } from './builders.ts';

// Emmett's DeciderSpecification, in a controller's shape: `given` a Job and what the cluster
// reported, `when` jobfold reconciles at `now`, `then` only what that reconcile decided.

/** One reconcile the history went through. */
export interface HistorySync {
  readonly at: string;
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
}

/** What a `then` may check; every field is optional and compared partially (`toMatchObject`). */
export interface Expected {
  /** The new decisions, in order, each matched partially; the count must match. */
  readonly decisions?: readonly Record<string, unknown>[];
  /** The new commands, in order, each matched partially; the count must match. */
  readonly commands?: readonly Record<string, unknown>[];
  /** The status after folding the new decisions, matched partially. */
  readonly status?: Partial<Record<keyof JobStatusView, unknown>>;
  /** When `decide` asks to be woken up (undefined: never). */
  readonly wakeAt?: string | undefined;
}

/** The reconcile under test, the state after folding its decisions, and the whole history. */
export interface Outcome extends Reconciliation {
  readonly state: JobState;
  readonly status: JobStatusView;
  /** The reconciles `given` ran before `when`, oldest first. */
  readonly history: readonly HistorySync[];
  /** Every event folded: observations, then decisions with their `seq`. */
  readonly log: readonly JobEvent[];
  then(expected: Expected | ((outcome: Outcome) => void)): Outcome;
  thenStatus(status: Expected['status']): Outcome;
  /** No decision and no command (a wake-up time may still be asked for). */
  thenNothingHappened(): Outcome;
}

export interface Given {
  /** Folds with other fold settings (feature gates, spec validation). */
  withConfig(config: { gates?: Partial<FeatureGates>; validateSpecs?: boolean }): Given;
  withGates(gates: Partial<FeatureGates>): Given;
  /**
   * Lets the fold reject the Job's spec. Without it, `when` throws when the Job was rejected, so
   * a Job a test got wrong cannot make a spec pass for the wrong reason.
   */
  expectingRejection(): Given;
  /** Folds the history; exposed for tests that drive the fold themselves. */
  fold(): { state: JobState; history: HistorySync[]; log: JobEvent[] };
  /** Reconciles once at `now` (default: the time of the last event, or T0). */
  when(trigger?: { now?: string }): Outcome;
}

/**
 * Builds the history the way the service records one. The Job (unless null) is observed first,
 * at its creation time, without a reconcile. Then the events are folded in groups that share a
 * time (`observedAt`, or `at` for decisions): after every group but the last, jobfold reconciles
 * at that time and its decisions are folded back, as the scenario player does. The last group is
 * left for `when`: it is the reconcile under test. Add a `tick(at)` to get a reconcile at a time
 * of your choice. Folding starts from `initialState` with the deployment default config
 * (KEP-4443 gate on, specs validated) unless `withConfig` says otherwise.
 */
export function given(job: Job | null, ...events: JobEvent[]): Given {
  return givenWith(DEFAULT_FOLD_CONFIG, job, events);
}

function givenWith(config: FoldConfig, job: Job | null, events: readonly JobEvent[], rejectable = false): Given {
  const lastAt = events.length > 0 ? eventTime(events[events.length - 1] as JobEvent) : (job?.metadata.creationTimestamp ?? T0);
  const self: Given = {
    withConfig: ({ gates, validateSpecs }) =>
      givenWith(
        { gates: { ...config.gates, ...gates }, validateSpecs: validateSpecs ?? config.validateSpecs },
        job,
        events,
        rejectable,
      ),
    withGates: (gates) => self.withConfig({ gates }),
    expectingRejection: () => givenWith(config, job, events, true),
    fold: () => foldHistory(config, job, events),
    when: (trigger = {}) => {
      const { state, history, log } = foldHistory(config, job, events);
      if (state.rejected && !rejectable) {
        throw new Error(`the fold rejected the Job: ${state.rejected.map((e) => e.message).join('; ')}`);
      }
      const now = trigger.now ?? lastAt;
      const reconciliation = decide(state, now);
      for (const decision of reconciliation.decisions) append(state, log, decision);
      return outcome(reconciliation, state, history, log);
    },
  };
  return self;
}

function foldHistory(config: FoldConfig, job: Job | null, events: readonly JobEvent[]) {
  const state = initialState(config);
  const log: JobEvent[] = [];
  const history: HistorySync[] = [];
  if (job) append(state, log, jobObserved(job, job.metadata.creationTimestamp ?? T0));
  events.forEach((event, i) => {
    append(state, log, event);
    const next = events[i + 1];
    const time = eventTime(event);
    if (next === undefined || eventTime(next) === time) return;
    const { decisions, commands } = decide(state, time);
    for (const decision of decisions) append(state, log, decision);
    history.push({ at: time, decisions, commands });
  });
  countAtSync(state);
  return { state, history, log };
}

/**
 * Drives a state on through more events the way the scenario player does: each group of events
 * sharing a time is folded, then reconciled at that time (the last group too), and the decisions
 * are folded back. `log` gets every event with its `seq`. Returns the reconciles, oldest first.
 */
export function play(state: JobState, events: readonly JobEvent[], log: JobEvent[] = []): HistorySync[] {
  const syncs: HistorySync[] = [];
  events.forEach((event, i) => {
    append(state, log, event, state.position + 1);
    const next = events[i + 1];
    const time = eventTime(event);
    if (next !== undefined && eventTime(next) === time) return;
    const { decisions, commands } = decide(state, time);
    for (const decision of decisions) append(state, log, decision, state.position + 1);
    syncs.push({ at: time, decisions, commands });
  });
  return syncs;
}

/** Logs the event with the next `seq`, as the event store would, and folds it. */
function append(state: JobState, log: JobEvent[], event: JobEvent, seq = log.length + 1): void {
  const logged = { ...event, seq } as JobEvent;
  log.push(logged);
  evolve(state, logged);
}

function outcome(
  reconciliation: Reconciliation,
  state: JobState,
  history: readonly HistorySync[],
  log: readonly JobEvent[],
): Outcome {
  const self: Outcome = {
    ...reconciliation,
    state,
    status: jobStatus(state),
    history,
    log,
    then(expected) {
      if (typeof expected === 'function') {
        expected(self);
        return self;
      }
      if (expected.decisions) expect(self.decisions).toMatchObject(expected.decisions);
      if (expected.commands) expect(self.commands).toMatchObject(expected.commands);
      if (expected.status) expect(self.status).toMatchObject(expected.status);
      if ('wakeAt' in expected) expect(self.wakeAt).toEqual(expected.wakeAt);
      return self;
    },
    thenStatus: (status) => self.then({ status }),
    thenNothingHappened() {
      expect({ decisions: self.decisions, commands: self.commands }).toEqual({ decisions: [], commands: [] });
      return self;
    },
  };
  return self;
}

/** Condition type, status and reason, the part of a condition most specs compare. */
export const conditionsOf = (status: JobStatusView): string[] =>
  status.conditions.map((c) => `${c.type}=${c.status}:${c.reason}`);

/** The new conditions a reconcile wrote, as `type=status:reason`. */
export const newConditions = (outcome: Reconciliation): string[] =>
  outcome.decisions.flatMap((d) =>
    d.type === 'JobConditionChanged' ? [`${d.condition.type}=${d.condition.status}:${d.condition.reason}`] : [],
  );

/** Names of the pods the reconcile asked to terminate. */
export const terminatedPods = (outcome: Reconciliation): string[] =>
  outcome.commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podName] : []));

/** How many pods the reconcile asked to create (and their indexes, for Indexed Jobs). */
export const createdIndexes = (outcome: Reconciliation): (number | undefined)[] =>
  outcome.commands.flatMap((c) => (c.type === 'CreatePod' ? [c.index] : []));
