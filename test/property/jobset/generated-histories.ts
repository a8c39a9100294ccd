import fc from 'fast-check';
import type { JobSetScenario, JobSetScenarioEvent } from '../../../cli/scenario/jobset-scenario.ts';
import type { JobSetCommand } from '../../../shared/jobset/commands.ts';
import { LABELS } from '../../../shared/jobset/constants.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { evolve } from '../../../shared/jobset/evolve.ts';
import type { ChildJob, JobSet } from '../../../shared/jobset/schemas.ts';
import { settle } from '../../../shared/jobset/settle.ts';
import { initialState, type JobSetState } from '../../../shared/jobset/state.ts';

// Generated JobSet histories a cluster can produce, for the order property
// (generated-orders.property.spec.ts), as test/property/job/arbitraries.ts generates Job
// histories. A JobSet's history is not free: its child Jobs exist because its controller created
// them, and go because it deleted them. So a history is played in a closed loop: the JobSet is
// folded and reconciled in the cluster's order as the history grows, and its commands are the
// cluster's controller acting — a CreateJob makes the Job exist, a SuspendJob or ResumeJob
// changes its spec (the forwarder shows each in a later step), a DeleteJob marks it terminating
// until a later step finishes the deletion (foreground: the Job outlives the request). The random
// part is what the cluster does and when: which live Job runs (active and ready), succeeds or
// fails (and with which reason), which created, suspended or resumed Job is shown, which deletion
// finishes, when the user suspends or resumes the JobSet, and how much time passes between. At the
// end every Job has been shown as it is and every deletion asked for has finished.
// multiPodHistoryArb gives the same with Jobs of several pods, dependsOnHistoryArb with
// replicated jobs that wait for the one before them.

export const T0 = Date.parse('2026-01-01T00:00:00Z');
const REPLICATED_JOB_NAMES = ['workers', 'driver', 'evaluator'] as const;

/** Job failure reasons upstream's Job controller writes, and the messages it writes with them. */
export const FAILURES = [
  { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  { reason: 'PodFailurePolicy', message: 'Container main for pod default/p failed with exit code 3 matching FailJob rule at index 0' },
  { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
] as const;

const ruleArb = fc.record({
  action: fc.constantFrom('FailJobSet', 'RestartJobSet', 'RestartJobSetAndIgnoreMaxRestarts'),
  onJobFailureReasons: fc.subarray(FAILURES.map((f) => f.reason), { minLength: 1 }),
  targets: fc.constantFrom<'all' | 'first'>('all', 'first'),
});

/** A JobSet as the webhook leaves it (defaulted): 1–3 replicated Jobs of 1–2 replicas, any policy. */
export const jobSetArb: fc.Arbitrary<JobSet> = fc
  .record({
    replicas: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 3 }),
    operator: fc.constantFrom('All', 'Any'),
    successTargetsFirst: fc.boolean(),
    order: fc.constantFrom('AnyOrder', 'InOrder'),
    failurePolicy: fc.option(
      fc.record({
        maxRestarts: fc.integer({ min: 0, max: 2 }),
        restartStrategy: fc.constantFrom('Recreate', 'BlockingRecreate'),
        rules: fc.array(ruleArb, { maxLength: 2 }),
      }),
      { nil: undefined },
    ),
  })
  .map(({ replicas, operator, successTargetsFirst, order, failurePolicy }) => {
    const names = replicas.map((_, i) => REPLICATED_JOB_NAMES[i] as string);
    const spec: JobSet['spec'] = {
      replicatedJobs: replicas.map((count, i) => ({
        name: names[i] as string,
        groupName: 'default',
        replicas: count,
        template: { spec: { parallelism: 1, completions: 1, completionMode: 'Indexed' } },
      })),
      successPolicy: { operator, targetReplicatedJobs: successTargetsFirst ? [names[0] as string] : [] },
      startupPolicy: { startupPolicyOrder: order },
      suspend: false,
      ...(failurePolicy === undefined
        ? {}
        : {
            failurePolicy: {
              maxRestarts: failurePolicy.maxRestarts,
              restartStrategy: failurePolicy.restartStrategy,
              rules: failurePolicy.rules.map((rule, i) => ({
                name: `failurePolicyRule${i}`,
                action: rule.action,
                onJobFailureReasons: [...rule.onJobFailureReasons],
                targetReplicatedJobs: rule.targets === 'first' ? [names[0] as string] : [],
              })),
            },
          }),
    };
    return { metadata: { namespace: 'default', name: 'gen', uid: 'gen-uid' }, spec } as JobSet;
  });

/**
 * What the cluster does next: a Job runs or finishes (succeeds, or fails with a reason), a
 * deletion finishes, a Job the controller suspended or resumed shows it, or the user suspends or
 * resumes the JobSet.
 */
export interface Step {
  readonly op: 'progress' | 'answer' | 'report' | 'suspend';
  /** Which of the candidate Jobs (modulo their count). */
  readonly pick: number;
  readonly fails: boolean;
  readonly failure: number;
  /** Seconds since the previous step. */
  readonly gap: number;
}

/** A step of userDeleteHistoryArb: also `userDelete`, a user deleting a child Job. */
export type UserDeleteStep = Omit<Step, 'op'> & { readonly op: Step['op'] | 'userDelete' };

export const stepArb = (gaps: readonly number[]): fc.Arbitrary<Step> => stepOf(gaps, ['progress', 'progress', 'progress', 'answer', 'report', 'suspend']);

const stepOf = <Op extends UserDeleteStep['op']>(gaps: readonly number[], ops: readonly Op[]) => fc.record({
  op: fc.constantFrom<Op>(...ops),
  pick: fc.nat({ max: 12 }),
  fails: fc.boolean(),
  failure: fc.nat({ max: FAILURES.length - 1 }),
  gap: fc.constantFrom(...gaps),
});

/** A child Job on the cluster, as its JobSet's controller created it. */
export interface ClusterJob {
  readonly name: string;
  readonly replicatedJob: string;
  readonly jobIndex: number;
  readonly attempt: number;
  /** Its pods (`parallelism`, as many `completions`). */
  readonly parallelism: number;
  suspend: boolean;
  running: boolean;
  /** Of its running pods, those ready. */
  ready: number;
  finished: 'Complete' | 'Failed' | undefined;
  terminating: boolean;
  /** Created, suspended or resumed by the controller since the Job was last seen: the cluster has yet to show it. */
  unseen: boolean;
  /** Its uid when the name was taken before (a Job a user deleted, created again): else `<name>-<attempt>`. */
  readonly uid?: string;
  /** When it finished (epoch ms): its `ttlSecondsAfterFinished` runs from then (ttlHistoryArb). */
  finishedAt?: number;
}

/** A child Job's uid: each Job created under a name has its own. */
const uidOf = (job: ClusterJob): string => job.uid ?? `${job.name}-${job.attempt}`;

/** Plays `steps` against the JobSet in a closed loop (above): the cluster's history as a scenario. */
export function playHistory(id: string, created: JobSet, steps: readonly (Step | UserDeleteStep)[]): JobSetScenario {
  let jobSet = created;
  const events: JobSetScenarioEvent[] = [];
  const jobs = new Map<string, ClusterJob>();
  const deleting: string[] = [];
  /** How many Jobs each name has had, once a user deleted one (userDelete). */
  const generations = new Map<string, number>();
  let state: JobSetState = initialState();
  let version = 0;
  let clock = T0;
  const at = () => new Date(clock).toISOString().replace('.000Z', 'Z');
  /** When the JobSet's controller asked to reconcile again (its ttlSecondsAfterFinished), and whether it deleted the JobSet. */
  let wakeAt: string | undefined;
  let deleteJobSet = false;
  let jobSetGone = false;

  const act = (commands: readonly JobSetCommand[]) => {
    for (const command of commands) {
      const job = jobs.get(command.name);
      switch (command.type) {
        case 'CreateJob':
          // The API server refuses a name still taken (a Job not yet gone).
          if (job === undefined) {
            const { name, replicatedJob, jobIndex, restartAttempt, suspend } = command;
            const parallelism = command.job.spec.parallelism ?? 1;
            const generation = generations.get(name);
            const uid = generation === undefined ? {} : { uid: `${name}-${restartAttempt}-${generation}` };
            if (generation !== undefined) generations.set(name, generation + 1);
            jobs.set(name, { name, replicatedJob, jobIndex, attempt: restartAttempt, parallelism, suspend, running: false, ready: 0, finished: undefined, terminating: false, unseen: true, ...uid });
          }
          break;
        case 'DeleteJob':
          if (job !== undefined && !job.terminating) {
            job.terminating = true;
            deleting.push(job.name);
          }
          break;
        case 'SuspendJob':
        case 'ResumeJob':
          // A suspended Job's pods are deleted: it runs again only after it is resumed.
          if (job !== undefined && job.finished === undefined) {
            job.suspend = command.type === 'SuspendJob';
            job.running = false;
            job.ready = 0;
            job.unseen = true;
          }
          break;
        case 'DeleteJobSet':
          // Foreground: the JobSet is marked, its Jobs go, then the JobSet (finishJobSetDeletion).
          deleteJobSet = true;
          break;
        default: {
          const _exhaustive: never = command;
          return _exhaustive;
        }
      }
    }
  };
  // Folded and reconciled as the cluster's controller would, event by event.
  const apply = (event: JobSetScenarioEvent, observation: JobSetObservation) => {
    events.push(event);
    state = evolve(state, observation);
    const settled = settle(state, event.at);
    state = settled.state;
    wakeAt = settled.wakeAt;
    act(settled.commands);
  };

  state = evolve(state, { type: 'JobSetObserved', at: at(), eventId: undefined, jobSet: { ...jobSet, metadata: { ...jobSet.metadata, resourceVersion: String(++version) } } });
  const first = settle(state, at());
  state = first.state;
  wakeAt = first.wakeAt;
  act(first.commands);

  const finishDeletion = (name: string) => {
    deleting.splice(deleting.indexOf(name), 1);
    const job = jobs.get(name) as ClusterJob;
    jobs.delete(name);
    apply({ type: 'JobDeleted', at: at(), name, uid: uidOf(job) }, { type: 'JobDeleted', at: at(), eventId: undefined, name, uid: uidOf(job) });
  };

  const report = (job: ClusterJob) => {
    job.unseen = false;
    const snapshot = childJob(job, at(), FAILURES[0]);
    apply({ type: 'JobStatus', at: at(), job: snapshot }, { type: 'JobObserved', at: at(), eventId: undefined, job: { ...snapshot, metadata: { ...snapshot.metadata, resourceVersion: String(++version) } } });
  };

  // The JobSet's controller deleted it (ttlSecondsAfterFinished): the deletion mark, every Job
  // gone (foreground), then the JobSet; nothing happens after.
  const finishJobSetDeletion = () => {
    deleteJobSet = false;
    jobSetGone = true;
    jobSet = { ...jobSet, metadata: { ...jobSet.metadata, deletionTimestamp: at() } };
    apply({ type: 'JobSetMarkedForDeletion', at: at() }, { type: 'JobSetObserved', at: at(), eventId: undefined, jobSet: { ...jobSet, metadata: { ...jobSet.metadata, resourceVersion: String(++version) } } });
    for (const job of [...jobs.values()]) {
      if (deleting.includes(job.name)) deleting.splice(deleting.indexOf(job.name), 1);
      jobs.delete(job.name);
      apply({ type: 'JobDeleted', at: at(), name: job.name, uid: uidOf(job) }, { type: 'JobDeleted', at: at(), eventId: undefined, name: job.name, uid: uidOf(job) });
    }
    apply({ type: 'JobSetDeleted', at: at() }, { type: 'JobSetDeleted', at: at(), eventId: undefined });
  };
  // The timers due by `until`, earliest first: a finished Job's ttlSecondsAfterFinished (the
  // cluster's TTL controller deletes it), and the reconcile the JobSet's controller asked for (a
  // Tick: its own ttlSecondsAfterFinished).
  const ttlOf = (job: ClusterJob) => (jobSet.spec.replicatedJobs.find((rjob) => rjob.name === job.replicatedJob)?.template.spec as { ttlSecondsAfterFinished?: number } | undefined)?.ttlSecondsAfterFinished;
  const expire = (until: number) => {
    while (!jobSetGone) {
      const expiring = [...jobs.values()]
        .filter((job) => !job.terminating && job.finishedAt !== undefined && ttlOf(job) !== undefined)
        .map((job) => ({ job, due: (job.finishedAt as number) + (ttlOf(job) as number) * 1000 }))
        .sort((a, b) => a.due - b.due)[0];
      const wake = wakeAt === undefined ? undefined : Date.parse(wakeAt);
      const due = Math.min(expiring?.due ?? Infinity, wake ?? Infinity);
      if (due === Infinity || due > until) return;
      clock = Math.max(clock, due);
      if (expiring !== undefined && expiring.due === due) {
        // The JobSet's controller may create the name again: a new Job, its own uid (as after userDelete).
        generations.set(expiring.job.name, generations.get(expiring.job.name) ?? 1);
        jobs.delete(expiring.job.name);
        apply({ type: 'JobDeleted', at: at(), name: expiring.job.name, uid: uidOf(expiring.job) }, { type: 'JobDeleted', at: at(), eventId: undefined, name: expiring.job.name, uid: uidOf(expiring.job) });
      } else {
        wakeAt = undefined;
        apply({ type: 'Tick', at: at() }, { type: 'Tick', at: at(), eventId: undefined });
      }
      if (deleteJobSet) finishJobSetDeletion();
    }
  };

  for (const step of steps) {
    expire(clock + step.gap * 1000);
    if (jobSetGone) break;
    clock += step.gap * 1000;
    if (step.op === 'suspend') {
      const suspend = !jobSet.spec.suspend;
      jobSet = { ...jobSet, spec: { ...jobSet.spec, suspend } };
      apply({ type: 'JobSetSpecUpdated', at: at(), patch: { suspend } }, { type: 'JobSetObserved', at: at(), eventId: undefined, jobSet: { ...jobSet, metadata: { ...jobSet.metadata, resourceVersion: String(++version) } } });
      continue;
    }
    if (step.op === 'report') {
      const changed = [...jobs.values()].filter((job) => job.unseen && !job.terminating);
      const job = changed[step.pick % Math.max(1, changed.length)];
      if (job !== undefined) report(job);
      continue;
    }
    if (step.op === 'userDelete') {
      // A user deletes a child Job the controller is not deleting (running, suspended or
      // finished); the JobSet's controller creates it again, under a new uid.
      const live = [...jobs.values()].filter((job) => !job.terminating);
      const job = live[step.pick % Math.max(1, live.length)];
      if (job === undefined) continue;
      generations.set(job.name, generations.get(job.name) ?? 1);
      jobs.delete(job.name);
      apply({ type: 'JobDeleted', at: at(), name: job.name, uid: uidOf(job) }, { type: 'JobDeleted', at: at(), eventId: undefined, name: job.name, uid: uidOf(job) });
      continue;
    }
    if (step.op === 'answer') {
      const name = deleting[step.pick % Math.max(1, deleting.length)];
      if (name !== undefined) finishDeletion(name);
      continue;
    }
    const job = progress(jobs.values(), step);
    if (job === undefined) continue;
    if (job.finished !== undefined && job.finishedAt === undefined) job.finishedAt = clock;
    job.unseen = false;
    const snapshot = childJob(job, at(), FAILURES[step.failure] ?? FAILURES[0]);
    apply({ type: 'JobStatus', at: at(), job: snapshot }, { type: 'JobObserved', at: at(), eventId: undefined, job: { ...snapshot, metadata: { ...snapshot.metadata, resourceVersion: String(++version) } } });
  }
  // In the end the cluster has shown every suspension and resumption, and finished every deletion
  // (and run every timer: ttlHistoryArb).
  for (const job of jobSetGone ? [] : jobs.values()) {
    if (!job.unseen || job.terminating) continue;
    clock += 1000;
    report(job);
  }
  while (deleting.length > 0 && !jobSetGone) {
    clock += 1000;
    finishDeletion(deleting[0] as string);
  }
  expire(Infinity);
  return { id, jobset: created, events, checkpoints: [] };
}

/**
 * The Job controller's next step on one of the live Jobs (not being deleted, unfinished, not
 * suspended) `step` picks, if any: a Job of one pod runs ready, then finishes; one of more starts
 * with some of its pods ready, then has another ready or finishes.
 */
export function progress(jobs: Iterable<ClusterJob>, step: Pick<Step, 'pick' | 'fails'>): ClusterJob | undefined {
  const live = [...jobs].filter((job) => !job.terminating && job.finished === undefined && !job.suspend);
  const job = live[step.pick % Math.max(1, live.length)];
  if (job === undefined) return undefined;
  if (!job.running) {
    job.running = true;
    job.ready = job.parallelism === 1 ? 1 : step.pick % (job.parallelism + 1);
  } else if (job.ready < job.parallelism && step.pick % 2 === 0) job.ready += 1;
  else job.finished = step.fails ? 'Failed' : 'Complete';
  return job;
}

/** A child Job's snapshot as its cluster reports it: running (active and ready), or finished. */
export function childJob(job: ClusterJob, at: string, failure: (typeof FAILURES)[number]): ChildJob {
  const finished = job.finished;
  // The Job controller's Suspended condition, as it writes it on suspension and resumption.
  const suspension = job.suspend
    ? [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastTransitionTime: at }]
    : [];
  const conditions =
    finished === 'Complete'
      ? [
          { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastTransitionTime: at },
          { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastTransitionTime: at },
        ]
      : finished === 'Failed'
        ? [
            { type: 'FailureTarget', status: 'True', reason: failure.reason, message: failure.message, lastTransitionTime: at },
            { type: 'Failed', status: 'True', reason: failure.reason, message: failure.message, lastTransitionTime: at },
          ]
        : suspension;
  const running = finished === undefined && job.running;
  return {
    metadata: {
      name: job.name,
      uid: uidOf(job),
      labels: {
        [LABELS.replicatedJobName]: job.replicatedJob,
        [LABELS.jobIndex]: String(job.jobIndex),
        [LABELS.restartAttempt]: String(job.attempt),
      },
    },
    spec: { parallelism: job.parallelism, completions: job.parallelism, suspend: job.suspend },
    status: {
      active: running ? job.parallelism : 0,
      ready: running ? job.ready : 0,
      succeeded: finished === 'Complete' ? job.parallelism : 0,
      failed: finished === 'Failed' ? 1 : 0,
      conditions,
    },
  } as ChildJob;
}

/** A generated JobSet and the steps its cluster's Jobs take; some steps in the same second as the one before. */
export const historyArb = fc.record({ jobSet: jobSetArb, steps: fc.array(stepArb([0, 0, 1, 5, 30]), { minLength: 4, maxLength: 24 }) });

/**
 * The same, every step at least a second after the one before: a history the writer, which
 * decides once after each run of equal times, takes event by event as the conformance player does.
 */
export const spacedHistoryArb = fc.record({ jobSet: jobSetArb, steps: fc.array(stepArb([1, 1, 5, 30]), { minLength: 4, maxLength: 24 }) });

/**
 * The same as historyArb, with Jobs of 1–3 pods (`parallelism` as many `completions`, per
 * replicated job): a Job is ready for the startup walk only once `ready + succeeded` reaches
 * them, so its snapshots show it partly ready first.
 */
export const multiPodHistoryArb = fc.record({
  jobSet: jobSetArb.chain((jobSet) =>
    fc
      .array(fc.integer({ min: 1, max: 3 }), { minLength: jobSet.spec.replicatedJobs.length, maxLength: jobSet.spec.replicatedJobs.length })
      .map((pods): JobSet => ({
        ...jobSet,
        spec: {
          ...jobSet.spec,
          replicatedJobs: jobSet.spec.replicatedJobs.map((rjob, i) => ({
            ...rjob,
            template: { ...rjob.template, spec: { ...rjob.template.spec, parallelism: pods[i] ?? 1, completions: pods[i] ?? 1 } },
          })),
        },
      })),
  ),
  steps: fc.array(stepArb([0, 0, 1, 5, 30]), { minLength: 4, maxLength: 24 }),
});

/**
 * The same as historyArb, with each replicated job after the first depending, or not, on the one
 * before it (`dependsOn`, `Ready` or `Complete`): its Jobs are created only once that one's
 * are ready or complete.
 */
export const dependsOnHistoryArb = fc.record({
  jobSet: jobSetArb
    .filter((jobSet) => jobSet.spec.replicatedJobs.length > 1)
    .chain((jobSet) =>
      fc
        .array(fc.option(fc.constantFrom('Ready', 'Complete'), { nil: undefined }), {
          minLength: jobSet.spec.replicatedJobs.length,
          maxLength: jobSet.spec.replicatedJobs.length,
        })
        .map((statuses): JobSet => ({
          ...jobSet,
          spec: {
            ...jobSet.spec,
            replicatedJobs: jobSet.spec.replicatedJobs.map((rjob, i) => {
              const before = jobSet.spec.replicatedJobs[i - 1];
              const status = statuses[i];
              return before === undefined || status === undefined ? rjob : { ...rjob, dependsOn: [{ name: before.name, status }] };
            }),
          },
        })),
    ),
  steps: fc.array(stepArb([0, 0, 1, 5, 30]), { minLength: 4, maxLength: 24 }),
});

/**
 * RE2 patterns a failure policy rule may match the failed Job's message against
 * (`onJobFailureMessagePatterns`): each matches one or two of FAILURES' messages, the last none.
 */
export const MESSAGE_PATTERNS = ['exit code 3', 'backoff limit', '^Job was active', 'limit|deadline', 'exit code 42'] as const;

/**
 * The same as historyArb, every JobSet with a failure policy of 1–2 rules that also match on the
 * failed Job's message (`onJobFailureMessagePatterns`, 1–2 of MESSAGE_PATTERNS), some on the
 * message alone (no `onJobFailureReasons`: any reason): which rule, if any, a failure matches
 * then turns on its message as well as its reason.
 */
export const messagePatternHistoryArb = fc.record({
  jobSet: fc
    .record({
      jobSet: jobSetArb,
      maxRestarts: fc.integer({ min: 0, max: 2 }),
      rules: fc.array(fc.record({ rule: ruleArb, patterns: fc.subarray([...MESSAGE_PATTERNS], { minLength: 1, maxLength: 2 }), anyReason: fc.boolean() }), { minLength: 1, maxLength: 2 }),
    })
    .map(({ jobSet, maxRestarts, rules }): JobSet => {
      const names = jobSet.spec.replicatedJobs.map((rjob) => rjob.name);
      return {
        ...jobSet,
        spec: {
          ...jobSet.spec,
          failurePolicy: {
            maxRestarts: jobSet.spec.failurePolicy?.maxRestarts ?? maxRestarts,
            restartStrategy: jobSet.spec.failurePolicy?.restartStrategy ?? 'Recreate',
            rules: rules.map(({ rule, patterns, anyReason }, i) => ({
              name: `failurePolicyRule${i}`,
              action: rule.action,
              onJobFailureReasons: anyReason ? [] : [...rule.onJobFailureReasons],
              onJobFailureMessagePatterns: patterns,
              targetReplicatedJobs: rule.targets === 'first' ? [names[0] as string] : [],
            })),
          },
        },
      } as JobSet;
    }),
  steps: fc.array(stepArb([0, 0, 1, 5, 30]), { minLength: 4, maxLength: 24 }),
});

/**
 * The same as historyArb, where a user may also delete a child Job (running, suspended or
 * finished; one step in seven): the JobSet's controller creates it again in its next pass, a new
 * Job under the same name (its own uid), which runs from the start.
 */
export const userDeleteHistoryArb = fc.record({
  jobSet: jobSetArb,
  steps: fc.array(stepOf([0, 0, 1, 5, 30], ['progress', 'progress', 'progress', 'answer', 'report', 'suspend', 'userDelete']), { minLength: 4, maxLength: 24 }),
});

/**
 * The same as historyArb, with `ttlSecondsAfterFinished` (0, 5 or 30 s) on the JobSet, on its
 * Jobs' template, or both: once finished, a Job is deleted by the cluster's TTL controller that
 * long after it finished, and the JobSet by its own controller (foreground: the deletion mark,
 * its Jobs gone, the JobSet gone), after which nothing happens.
 */
export const ttlHistoryArb = fc.record({
  jobSet: fc
    .record({ jobSet: jobSetArb, jobSetTtl: fc.option(fc.constantFrom(0, 5, 30), { nil: undefined }), jobTtl: fc.option(fc.constantFrom(0, 5, 30), { nil: undefined }) })
    .filter(({ jobSetTtl, jobTtl }) => jobSetTtl !== undefined || jobTtl !== undefined)
    .map(({ jobSet, jobSetTtl, jobTtl }): JobSet => ({
      ...jobSet,
      spec: {
        ...jobSet.spec,
        ...(jobSetTtl === undefined ? {} : { ttlSecondsAfterFinished: jobSetTtl }),
        replicatedJobs: jobSet.spec.replicatedJobs.map((rjob) => (jobTtl === undefined ? rjob : { ...rjob, template: { ...rjob.template, spec: { ...rjob.template.spec, ttlSecondsAfterFinished: jobTtl } } })),
      },
    }) as JobSet),
  steps: fc.array(stepArb([0, 0, 1, 5, 30]), { minLength: 4, maxLength: 24 }),
});
