import type { RecordedJob } from '../../../shared/advise/pages.ts';
import { checkPage, evidencePage } from '../../../shared/advise/pages.ts';
import { parseSelection } from '../../../shared/fleet/selection.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { JobSchema, type Job } from '../../../shared/k8s/job.ts';
import { aJob, at, tick, type JobSpecInput } from '../../support/builders.ts';
import { pod } from '../whatif/pods.ts';
import { batches, recordHistory } from '../whatif/record.ts';
import type { AdvicePort } from '../../../shared/ports.ts';

// Hand-built families for the advice: runs of a CronJob recorded as the service records them
// (shared/whatif tests' recordHistory), and a port that serves the two passes from them in
// one page, as the query API serves them from a scan.

export const CLUSTER = 'c1';

/** What the cluster reported at one time: the Job is reconciled after each. */
export type Step = readonly [string, readonly JobEvent[]];

/** Run `run` of CronJob `cronJob`: a Job named `<cronJob>-<28000000 + run>` it owns. */
export function cronJobRun(cronJob: string, run: number, spec: Partial<JobSpecInput>, steps: readonly Step[]): RecordedJob {
  const name = `${cronJob}-${28_000_000 + run}`;
  const base = aJob(spec, { name, uid: `${name}-uid` });
  const job: Job = JobSchema.parse({
    ...base,
    metadata: { ...base.metadata, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob, uid: `${cronJob}-uid`, controller: true }] },
  });
  return { cluster: CLUSTER, log: recordHistory(job, batches(...steps)) };
}

/** The two passes over `jobs`, each in one page. */
export function portOver(jobs: readonly RecordedJob[]): AdvicePort {
  return {
    async evidencePage(body) {
      return evidencePage(body.segment === 0 ? jobs : [], parseSelection(body), DEFAULT_FOLD_CONFIG);
    },
    async checkPage(body) {
      return checkPage(body.segment === 0 ? jobs : [], parseSelection(body), body.proposals, DEFAULT_FOLD_CONFIG);
    },
  };
}

/** A pod that fails with `code` at `seconds` after running from `from`. */
export const fails = (name: string, from: number, seconds: number, code: number, more: Parameters<typeof pod>[3] = {}): Step[] => [
  [at(from), [pod(name, 'Running', from, more)]],
  [at(seconds), [pod(name, 'Failed', seconds, { exitCode: code, ...more })]],
];

export const succeeds = (name: string, from: number, seconds: number, more: Parameters<typeof pod>[3] = {}): Step[] => [
  [at(from), [pod(name, 'Running', from, more)]],
  [at(seconds), [pod(name, 'Succeeded', seconds, more)]],
];

/** The clock ticks at `seconds` (the recreation backoff runs out, a deadline passes). */
export const tickAt = (seconds: number): Step => [at(seconds), [tick(at(seconds))]];

/**
 * Run `run` of CronJob `quorum`: Indexed, succeeds when 2 of 3 indexes do (succeededCount 2).
 * Index 2 always fails with exit code 7 (at 20 and 50), so it is mined as never succeeding on
 * retry, but FailJob on it would fail a Job that succeeds at 60: every candidate harms.
 */
export function quorumRun(run: number): RecordedJob {
  const steps: Step[] = [
    [at(10), [pod('a', 'Running', 10, { index: 0 }), pod('b', 'Running', 10, { index: 1 }), pod('c1', 'Running', 10, { index: 2 })]],
    [at(20), [pod('c1', 'Failed', 20, { index: 2, exitCode: 7 })]],
    tickAt(30),
    [at(31), [pod('c2', 'Running', 31, { index: 2 })]],
    [at(40), [pod('a', 'Succeeded', 40, { index: 0 })]],
    [at(50), [pod('c2', 'Failed', 50, { index: 2, exitCode: 7 })]],
    [at(60), [pod('b', 'Succeeded', 60, { index: 1 })]],
  ];
  return cronJobRun('quorum', run, { completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededCount: 2 }] } }, steps);
}
