import { describe, expect, it } from 'vitest';
import type { Advice, FamilyAdvice } from '../../../shared/advise/advice.ts';
import { adviseOver } from '../../../shared/advise/walk.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { EMPTY_TALLY, tallyJob } from '../../../shared/whatif/fleet.ts';
import { patchJob } from '../../../shared/whatif/patch.ts';
import { whatIfJob } from '../../../shared/whatif/what-if.ts';
import { at } from '../../support/builders.ts';
import { pod } from '../whatif/pods.ts';
import { cronJobRun, fails, portOver, quorumRun, succeeds, tickAt, type Step } from './families.ts';

// Given the runs of a CronJob whose right advice is known, when the fleet is advised, then the
// proposal is that advice, checked Job by Job by the exact what-if; and where every candidate
// would harm a Job, the advice says so and recommends nothing. Seconds are trace seconds; a
// failure at t is retried once the recreation backoff (10 s, then 20 s) has run out.

const advice = (jobs: Parameters<typeof portOver>[0]): Promise<Advice> => adviseOver(portOver(jobs), {});
const family = (a: Advice, key: string): FamilyAdvice => {
  const found = a.families.find((f) => f.evidence.family.key === key);
  if (!found) throw new Error(`no family ${key} in ${a.families.map((f) => f.evidence.id).join(', ')}`);
  return found;
};
const proposal = (f: FamilyAdvice, kind: string) => {
  const found = f.proposals.find((p) => p.kind === kind);
  if (!found) throw new Error(`no ${kind} proposal in ${f.proposals.map((p) => p.kind).join(', ')}`);
  return found;
};

/** Fails with `code` at 20, 50 and 80 (backoffLimit 2: failed at the third). */
const threeFailures = (code: number): Step[] => [...fails('p1', 10, 20, code), tickAt(30), ...fails('p2', 31, 50, code), tickAt(70), ...fails('p3', 71, 80, code)];
/** Fails with `code` at 20, the retry succeeds at 60. */
const retried = (code: number, more: Parameters<typeof pod>[3] = {}): Step[] => [...fails('p1', 10, 20, code, more), tickAt(30), ...succeeds('p2', 31, 60)];

describe('advice: an exit code that always repeats', () => {
  // etl: three runs fail once with exit code 1 and succeed on the retry; two fail three times
  // with exit code 3 (backoffLimit 2): BackoffLimitExceeded at 80.
  const jobs = [
    ...[0, 1, 2].map((run) => cronJobRun('etl', run, { backoffLimit: 2 }, retried(1))),
    ...[3, 4].map((run) => cronJobRun('etl', run, { backoffLimit: 2 }, threeFailures(3))),
  ];

  it('proposes FailJob on exit code 3 in a named rule, and it is the patch to apply', async () => {
    const etl = family(await advice(jobs), 'cronjob:etl');
    expect(etl.evidence).toMatchObject({ jobs: 5, succeeded: 3, failed: 2, family: { namespace: 'default', by: 'cronjob' } });
    const failJob = proposal(etl, 'fail-on-exit-codes');
    expect(failJob.patch).toEqual({
      spec: {
        podFailurePolicy: { rules: [{ name: 'ExitCode3', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [3] } }] },
        podReplacementPolicy: 'Failed',
      },
    });
    expect(failJob.mined[0]).toContain('exit code 3 (container main) failed 6 pod(s) in 2 Job(s) and no retry after it ever succeeded');
    // Each failed run fails at 20 instead of 80: p2 (31–50) and p3 (71–80) never run.
    expect(failJob.check).toMatchObject({ jobs: 5, unchanged: 3, decidedEarlier: 2, outcomeChanged: 2, podSecondsSaved: 2 * (19 + 9), harm: [] });
    expect(failJob.harmless).toBe(true);
    expect(etl.recommended?.kind).toBe('fail-on-exit-codes');
  });

  it('also proposes backoffLimit 1 (what the successes needed), which saves less: it ranks lower', async () => {
    const etl = family(await advice(jobs), 'cronjob:etl');
    const limit = proposal(etl, 'backoff-limit');
    expect(limit.patch).toEqual({ spec: { backoffLimit: 1 } });
    // Fails at 50 (the second failure) instead of 80: only p3 never runs.
    expect(limit.check).toMatchObject({ decidedEarlier: 2, podSecondsSaved: 2 * 9, harm: [] });
    expect(etl.proposals.map((p) => p.kind)).toEqual(['fail-on-exit-codes', 'all-together', 'backoff-limit']);
  });

  it('gives the what-if command that reproduces the figures', async () => {
    const etl = family(await advice(jobs), 'cronjob:etl');
    expect(proposal(etl, 'fail-on-exit-codes').reproduce).toBe(
      `npx jobfold whatif --fleet -n default --family cronjob:etl --finished --patch '${JSON.stringify(proposal(etl, 'fail-on-exit-codes').patch)}'`,
    );
  });
});

describe('advice: a disruption that always passes on retry', () => {
  // train: three runs are disrupted once and succeed on the retry; one fails with three
  // different exit codes (none twice: no rule for them) and is failed at 80 (backoffLimit 2).
  const disrupted = { conditions: [{ type: 'DisruptionTarget' }] };
  const jobs = [
    ...[0, 1, 2].map((run) => cronJobRun('train', run, { backoffLimit: 2 }, retried(137, disrupted))),
    cronJobRun('train', 3, { backoffLimit: 2 }, [...fails('p1', 10, 20, 1), tickAt(30), ...fails('p2', 31, 50, 2), tickAt(70), ...fails('p3', 71, 80, 5)]),
  ];

  it('proposes to Ignore DisruptionTarget: harmless, and alone it changes no outcome', async () => {
    const train = family(await advice(jobs), 'cronjob:train');
    const ignore = proposal(train, 'ignore-disruptions');
    expect(ignore.patch.spec['podFailurePolicy']).toEqual({ rules: [{ name: 'Disruption', action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] });
    expect(ignore.mined[0]).toContain('3 disrupted pod(s) in 3 Job(s) counted as failures towards backoffLimit; a retry succeeded after 3 of them');
    expect(ignore.check).toMatchObject({ jobs: 4, unchanged: 4, podSecondsSaved: 0, harm: [] });
    expect(ignore.harmless).toBe(true);
  });

  it('with the disruptions ignored, no success needed a retry: backoffLimit 0 fails the failing run at 20', async () => {
    const train = family(await advice(jobs), 'cronjob:train');
    expect(train.recommended?.kind).toBe('all-together');
    expect(train.recommended?.patch.spec).toMatchObject({ backoffLimit: 0, podFailurePolicy: { rules: [{ name: 'Disruption', action: 'Ignore' }] } });
    expect(train.recommended?.check).toMatchObject({ unchanged: 3, decidedEarlier: 1, podSecondsSaved: 19 + 9, harm: [] });
    // backoffLimit 1 alone (the disruptions counted) fails it at 50 only.
    expect(proposal(train, 'backoff-limit').check).toMatchObject({ podSecondsSaved: 9, harm: [] });
  });
});

describe('advice: a leader/worker Job', () => {
  // mpi: Indexed, the leader (index 0) succeeds at 30; the two workers are then terminated
  // (exit code 143) at 40: two failures > backoffLimit 1, the Job fails.
  const steps: Step[] = [
    [at(10), [pod('l', 'Running', 10, { index: 0 }), pod('w1', 'Running', 10, { index: 1 }), pod('w2', 'Running', 10, { index: 2 })]],
    [at(30), [pod('l', 'Succeeded', 30, { index: 0 })]],
    [at(40), [pod('w1', 'Failed', 40, { index: 1, exitCode: 143 }), pod('w2', 'Failed', 40, { index: 2, exitCode: 143 })]],
  ];
  const jobs = [0, 1, 2].map((run) => cronJobRun('mpi', run, { completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimit: 1 }, steps));

  it('proposes a success policy on the leader: each Job succeeds at 30 instead of failing at 40', async () => {
    const mpi = family(await advice(jobs), 'cronjob:mpi');
    const leader = proposal(mpi, 'success-policy');
    expect(leader.patch).toEqual({ spec: { successPolicy: { rules: [{ succeededIndexes: '0' }] } } });
    expect(leader.check).toMatchObject({ jobs: 3, decidedEarlier: 3, outcomeChanged: 3, podSecondsSaved: 3 * 2 * 10, harm: [] });
    expect(leader.check.examples[0]).toMatchObject({ recorded: `Failed (BackoffLimitExceeded) at ${at(40)}`, whatIf: `Succeeded (SuccessPolicy) at ${at(30)}` });
    expect(mpi.recommended?.kind).toBe('success-policy');
  });
});

describe('advice: a family where every candidate would harm a Job', () => {
  // quorum (families.ts): index 2 always fails with exit code 7, yet the Job succeeds on the
  // other two; FailJob on exit code 7 would fail every run.
  const jobs = [0, 1, 2].map(quorumRun);

  it('says so, lists each harmed Job with its evidence, and recommends nothing', async () => {
    const quorum = family(await advice(jobs), 'cronjob:quorum');
    expect(quorum.recommended).toBeUndefined();
    expect(quorum.verdict).toBe('every candidate would harm a Job (listed below): nothing is proposed');
    expect(quorum.proposals.map((p) => [p.kind, p.harmless])).toEqual([['fail-on-exit-codes', false]]);
    const harm = quorum.proposals[0]?.check.harm ?? [];
    expect(harm.map((h) => [h.job.name, h.harm])).toEqual([['quorum-28000000', 'fails'], ['quorum-28000001', 'fails'], ['quorum-28000002', 'fails']]);
    expect(harm[0]).toMatchObject({
      recorded: `Succeeded (SuccessPolicy) at ${at(60)}`,
      whatIf: `Failed (PodFailurePolicy_ExitCode7) at ${at(20)}`,
      divergence: { at: at(20), recorded: 'nothing', whatIf: expect.stringContaining('FailureTarget=True (PodFailurePolicy_ExitCode7)') },
    });
  });

  it('counts the Jobs that would fail sooner as decided earlier, as `whatif --fleet` does, and shows none as a saving', async () => {
    const quorum = family(await advice(jobs), 'cronjob:quorum');
    const failJob = proposal(quorum, 'fail-on-exit-codes');
    const tally = jobs.reduce((t, job) => tallyJob(t, { cluster: job.cluster, namespace: 'default', name: '', uid: '' }, whatIfJob({ log: job.log, config: DEFAULT_FOLD_CONFIG, patch: failJob.patch })), EMPTY_TALLY);
    expect(tally).toMatchObject({ jobs: 3, decidedEarlier: 3, outcomeChanged: 3 });
    expect(failJob.check).toMatchObject({ jobs: 3, decidedEarlier: 3, outcomeChanged: 3, unchanged: 0, examples: [] });
    expect(failJob.check.harm).toHaveLength(3);
  });
});

describe('advice: the patch is ready to apply', () => {
  it('every proposal patch makes each Job of its family a Job the API server accepts', async () => {
    const jobs = [0, 1, 2, 3].map((run) => cronJobRun('etl', run, { backoffLimit: 2 }, run < 3 ? retried(1) : threeFailures(3)));
    const etl = family(await advice(jobs), 'cronjob:etl');
    expect(etl.proposals.length).toBeGreaterThan(1);
    for (const p of etl.proposals) {
      for (const { log } of jobs) {
        const first = log.find((e) => e.type === 'JobObserved');
        if (first?.type !== 'JobObserved') throw new Error('no Job');
        expect(() => patchJob(first.job, p.patch, JOBFOLD_DEFAULT_GATES), p.kind).not.toThrow();
      }
      expect(p.check.refused).toEqual([]);
    }
  });
});
