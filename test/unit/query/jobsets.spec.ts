import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { JobSetExplanationSchema, JobSetViewSchema } from '../../../functions/query/jobsets/jobset-schemas.ts';
import { HistoryPageSchema } from '../../../functions/query/schemas/history-schemas.ts';
import { buildFleet } from './support/fleet.ts';
import { jobSetPath, queryClient, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';

// Given the log of a JobSet that failed (seed 002 story 2: a simulation Job failed with reason
// PodFailurePolicy_ExitCode2 and failure policy rule 0, FailJobSet, matched), when it is
// queried, then the routes answer as for Jobs, with the JobSet fold's status.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 0);
  get = queryClient(service);
});

const jobSet = (suffix = '') => jobSetPath('c1', 'default', 'restart-job-example', suffix);

describe('GET …/jobsets/{name}', () => {
  it('shows the JobSet failed, with its child Jobs and the commands issued', async () => {
    const { status, body } = await get(jobSet());
    expect(status).toBe(200);
    expect(JobSetViewSchema.parse(body)).toEqual(body);
    expect(body.jobSet).toEqual({ clusterId: 'c1', namespace: 'default', name: 'restart-job-example', uid: 'restart-job-example-uid' });
    expect(body.status.terminalState).toBe('Failed');
    expect(body.explanation.outcome).toBe('Failed');
    expect(body.spec.replicatedJobs).toEqual([{ name: 'simulations', groupName: 'default', replicas: 4, parallelism: 1, completions: 1 }]);
    expect(body.commands.filter((c: { type: string }) => c.type === 'CreateJob')).toHaveLength(4);
    expect(body.log.head).toBeGreaterThan(4);
  });

  it('answers 404 for an unknown JobSet, and for a Job name asked as a JobSet', async () => {
    expect(await get(jobSetPath('c1', 'default', 'nope'))).toMatchObject({
      status: 404,
      body: { message: 'jobset default/nope not found in cluster c1' },
    });
    expect((await get(jobSetPath('c1', 'default', 'foobar'))).status).toBe(404);
  });
});

describe('GET …/jobsets/{name}/history', () => {
  it('pages the log with JobSet categories', async () => {
    const first = await get(jobSet('/history'), { limit: '3' });
    expect(HistoryPageSchema.parse(first.body)).toEqual(first.body);
    expect(first.body.entries[0]).toMatchObject({ seq: 1, type: 'JobSetObserved', category: 'observation' });
    expect(first.body.nextAfter).toBe(3);
    const all = await get(jobSet('/history'), { limit: '500' });
    const categories = new Set(all.body.entries.map((e: { type: string; category: string }) => `${e.type}:${e.category}`));
    expect(categories).toContain('CreateJobIssued:command');
    expect(categories).toContain('JobSetFailed:decision');
    expect(categories).toContain('JobObserved:observation');
  });
});

describe('GET …/jobsets/{name}/explain', () => {
  it('names the failure policy rule and the child Job that failed the JobSet', async () => {
    const { status, body } = await get(jobSet('/explain'));
    expect(status).toBe(200);
    expect(JobSetExplanationSchema.parse(body)).toEqual(body);
    expect(body.outcome).toBe('Failed');
    expect(body.summary).toMatch(/^JobSet default\/restart-job-example failed at /);
    const failed = body.reasons.find((r: { type: string }) => r.type === 'JobSetFailed');
    expect(failed.sentence).toMatch(/^Job restart-job-example-simulations-\d failed \(PodFailurePolicy_ExitCode2\): rule 0 "failurePolicyRule0" \(FailJobSet\) matched$/);
    expect(failed.tippingEvent).toMatchObject({ type: 'JobObserved' });
  });
});
