import { readFileSync } from 'node:fs';
import { replayJobSetScenario } from '../../../cli/replay/replay-jobset-scenario.ts';
import { JobSetScenarioSchema, type JobSetScenario } from '../../../cli/scenario/jobset-scenario.ts';
import type { JobSetReplayRun } from '../../../cli/replay/replay-run.ts';
import { isJobSetDecisionType, type JobSetDecisionEvent } from '../../../shared/jobset/decision-events.ts';
import type { LoggedJobSetDecision } from '../../../shared/jobset/explain.ts';

export const EXIT_CODE_2_FIXTURE = 'test/fixtures/jobset/seed-002__story-2-exit-code-2-fails-jobset.json';
export const EXIT_CODE_3_FIXTURE = 'test/fixtures/jobset/seed-002__story-2-exit-code-3-restarts-jobset.json';
export const EXIT_CODE_2_TRACE = 'samples/jobset-exit-code-2.jsonl';
export const EXIT_CODE_3_TRACE = 'samples/jobset-exit-code-3.jsonl';

/** The decisions of a replayed log, as explainJobSet takes them. */
export function decisionsOf(run: JobSetReplayRun): LoggedJobSetDecision[] {
  return run.log.flatMap(({ seq, event }) => (isJobSetDecisionType(event.type) ? [{ seq, event: event as JobSetDecisionEvent }] : []));
}

export function loadScenario(path: string): JobSetScenario {
  return JobSetScenarioSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** Plays a scenario file up to event `at` (0 = the JobSet's creation), as `jobfold replay --at` does. */
export const playFixture = (path: string, at?: number): JobSetReplayRun => replayJobSetScenario(loadScenario(path), at);

/** A JobSet of `replicatedJobs` (name → replicas) with the given failure and success policies. */
export function aJobSet(replicatedJobs: Record<string, number>, spec: Record<string, unknown> = {}) {
  return {
    metadata: { namespace: 'default', name: 'ex', uid: 'ex-uid' },
    spec: {
      replicatedJobs: Object.entries(replicatedJobs).map(([name, replicas]) => ({
        name,
        replicas,
        template: { spec: { parallelism: 1, completions: 1, completionMode: 'Indexed' } },
      })),
      ...spec,
    },
  };
}

/** A child Job snapshot: running, or finished with `Complete` / `Failed` (reason, message). */
export function aChildJob(rjob: string, index: number, finished?: { type: 'Complete' } | { type: 'Failed'; reason: string; message?: string }, attempt = 0) {
  const conditions =
    finished === undefined
      ? []
      : finished.type === 'Complete'
        ? [{ type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }]
        : [{ type: 'Failed', status: 'True', reason: finished.reason, message: finished.message ?? '', lastTransitionTime: '2026-01-01T00:01:00Z' }];
  return {
    metadata: {
      name: `ex-${rjob}-${index}`,
      labels: {
        'jobset.sigs.k8s.io/replicatedjob-name': rjob,
        'jobset.sigs.k8s.io/job-index': String(index),
        'jobset.sigs.k8s.io/restart-attempt': String(attempt),
      },
    },
    spec: { parallelism: 1, completions: 1, suspend: false },
    status: {
      active: finished === undefined ? 1 : 0,
      ready: finished === undefined ? 1 : 0,
      succeeded: finished?.type === 'Complete' ? 1 : 0,
      failed: finished?.type === 'Failed' ? 1 : 0,
      conditions,
    },
  };
}

/** Plays an inline scenario: the JobSet, then one JobStatus event per child Job, a second apart. */
export function playInline(jobSet: ReturnType<typeof aJobSet>, jobs: readonly ReturnType<typeof aChildJob>[]): JobSetReplayRun {
  const events = jobs.map((job, i) => ({ type: 'JobStatus', at: `2026-01-01T00:01:${String(10 + i).padStart(2, '0')}Z`, job }));
  return replayJobSetScenario(JobSetScenarioSchema.parse({ id: 'inline', jobset: jobSet, events }));
}
