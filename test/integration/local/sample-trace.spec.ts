import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack, TraceOutcome } from '../../../local/local-stack.ts';
import type { JobView } from '../../../functions/query/views.ts';
import { getJson, startTestStack } from './local-stack-fixture.ts';
import { adviseCommand } from '../../../cli/client/advise-command.ts';
import type { AdviceView } from '../../../shared/advise/view.ts';

// `npm start` feeds samples/fleet.jsonl: given the sample trace played against the wall clock,
// when the system is quiet, then every story is decided as samples/README.md says. Only
// conditions are asserted: which pods still needed a command depends on how fast this machine
// ingested the trace (the trace also records the pods' deletions).

let stack: LocalStack;
let outcome: TraceOutcome;
beforeAll(async () => {
  stack = await startTestStack({ sample: true });
  outcome = await (stack.trace as Promise<TraceOutcome>);
}, 120_000);
afterAll(() => stack.stop());

const jobs = (): JobView[] => outcome.decided.flatMap((object) => (object.kind === 'Job' ? [object.view] : []));
const job = (name: string): JobView => {
  const found = jobs().find((j) => j.job.name === name);
  if (!found) throw new Error(`no Job ${name} in ${jobs().map((j) => j.job.name).join(', ')}`);
  return found;
};
const condition = (name: string, type: string) => job(name).status.conditions.find((c) => c.type === type && c.status === 'True');

describe('the sample fleet trace', () => {
  it('feeds every line and covers three clusters', () => {
    expect(outcome.feed.failed).toEqual([]);
    expect(new Set(jobs().map((j) => j.job.clusterId))).toEqual(new Set(['prod-eu-1', 'prod-us-1', 'dev-ap-1']));
    expect(jobs()).toHaveLength(13);
  });

  it('completes the leader-only Job by its success policy (KEP-3998 story 1)', () => {
    expect(condition('leader-only', 'SuccessCriteriaMet')).toMatchObject({ reason: 'SuccessPolicy', message: 'Matched rules at index 0' });
    expect(condition('leader-only', 'Complete')).toMatchObject({ reason: 'SuccessPolicy' });
  });

  it('completes the leader-or-workers Job by rule 1, five workers of 1-9 (KEP-3998 story 2)', () => {
    expect(condition('leader-or-workers', 'SuccessCriteriaMet')).toMatchObject({ reason: 'SuccessPolicy', message: 'Matched rules at index 1' });
    expect(condition('leader-or-workers', 'Complete')).toMatchObject({ reason: 'SuccessPolicy' });
  });

  it('fails the named-rule Job with PodFailurePolicy_ExitCode2 (KEP-4443)', () => {
    expect(condition('train-exit2', 'FailureTarget')).toMatchObject({ reason: 'PodFailurePolicy_ExitCode2' });
    expect(condition('train-exit2', 'Failed')).toMatchObject({ reason: 'PodFailurePolicy_ExitCode2' });
  });

  it('fails the backoffLimitPerIndex Job with FailedIndexes, index 2 failed', () => {
    expect(condition('shard-scan', 'Failed')).toMatchObject({ reason: 'FailedIndexes' });
    expect(job('shard-scan').status).toMatchObject({ failedIndexes: '2', completedIndexes: '0,1,3' });
  });

  it('fails the Job past its activeDeadlineSeconds with DeadlineExceeded, on the wall clock', () => {
    expect(condition('nightly-report', 'Failed')).toMatchObject({ reason: 'DeadlineExceeded' });
  });

  it('refuses the pod that names no Job, with the reason at /local/rejected', async () => {
    const { body } = await getJson(`${stack.url}/local/rejected`);

    expect(body).toEqual([expect.objectContaining({ reason: expect.stringContaining('names no owning Job') })]);
  });

  it('advises the nightly-etl CronJob: FailJob on exit code 3, with its evidence (jobfold advise)', async () => {
    const text = await adviseCommand(['--endpoint', stack.url]);
    expect(text).toContain('Family:     cronjob:nightly-etl\nNamespace:  etl\nCluster:    dev-ap-1\n');
    expect(text).toContain('Apply:      podFailurePolicy: FailJob on exit code 3 (rule ExitCode3)\n');
    expect(text).toContain('exit code 3 (container main) failed 4 pod(s) in 2 Job(s) and no retry after it ever succeeded');
    const view = JSON.parse(await adviseCommand(['--endpoint', stack.url, '-o', 'json'])) as AdviceView;
    const etl = view.advice.find((f) => f.family.key === 'cronjob:nightly-etl');
    expect(etl?.recommended?.check).toMatchObject({ jobs: 7, replayed: 7, decidedEarlier: 2, unchanged: 5, harm: [] });
  });

  it('answers the query API about the decided Jobs', async () => {
    const list = await getJson(`${stack.url}/v1/jobs?cluster=prod-us-1`);
    const explain = await getJson(`${stack.url}/v1/clusters/prod-us-1/namespaces/batch/jobs/train-exit2/explain`);
    const missing = await getJson(`${stack.url}/v1/clusters/prod-us-1/namespaces/batch/jobs/no-such-job`);

    expect(list.status).toBe(200);
    expect((list.body as { items: Array<{ name: string }> }).items.map((i) => i.name).sort()).toEqual(['shard-scan', 'train-exit2']);
    expect(explain).toMatchObject({ status: 200, body: { outcome: 'Failed' } });
    expect(missing.status).toBe(404);
  });
});
