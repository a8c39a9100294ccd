import {
  decide,
  evolve,
  initialState,
  jobSetStatus,
  listChildJobs,
  settle,
  type ChildJobSummary,
  type JobSetCommand,
  type JobSetDecisionEvent,
  type JobSetEvent,
  type JobSetObservation,
  type JobSetState,
  type JobSetStatus,
} from '../../../../shared/jobset/index.ts';

/** What a reconcile produced, and the state and status after folding it. */
export interface Outcome {
  readonly events: readonly JobSetDecisionEvent[];
  readonly commands: readonly JobSetCommand[];
  readonly state: JobSetState;
  readonly status: JobSetStatus;
  readonly childJobs: readonly ChildJobSummary[];
  /** The whole log: observations and the decisions taken after each. */
  readonly log: readonly JobSetEvent[];
}

export interface Given {
  readonly state: JobSetState;
  readonly log: readonly JobSetEvent[];
  /** One reconcile pass at `now`. */
  when(options: { now: string }): Outcome;
  /** Reconciles at `now` until nothing changes, as the controller does after every event. */
  whenSettled(options: { now: string }): Outcome;
}

/**
 * Builds a history the way the service records one: each observation is folded and, except for
 * the last, followed by the decisions the controller settles into at that observation's time.
 * `when` then reconciles after the last observation.
 */
export function given(...observations: JobSetObservation[]): Given {
  let state = initialState();
  const log: JobSetEvent[] = [];
  observations.forEach((observation, i) => {
    state = evolve(state, observation);
    log.push(observation);
    if (i === observations.length - 1) return;
    const settled = settle(state, observation.at);
    state = settled.state;
    log.push(...settled.events);
  });
  const outcome = (events: readonly JobSetDecisionEvent[], commands: readonly JobSetCommand[]): Outcome => {
    const after = events.reduce(evolve, state);
    return {
      events,
      commands,
      state: after,
      status: jobSetStatus(after),
      childJobs: listChildJobs(after),
      log: [...log, ...events],
    };
  };
  return {
    state,
    log,
    when: ({ now }) => {
      const decision = decide(state, now);
      return outcome(decision.events, decision.commands);
    },
    whenSettled: ({ now }) => {
      const settled = settle(state, now);
      return outcome(settled.events, settled.commands);
    },
  };
}

/** The conditions without their transition times, for comparisons. */
export const conditionsOf = (status: JobSetStatus) =>
  status.conditions.map(({ type, status: s, reason, message }) => ({ type, status: s, reason, message }));

/** `kind name` for each command, e.g. `CreateJob js-a-0`. */
export const commandsOf = (commands: readonly JobSetCommand[]): string[] =>
  commands.map((command) => `${command.type} ${command.name}`);
