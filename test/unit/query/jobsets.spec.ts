import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JobSetExplanationSchema } from '../../../functions/query/jobsets/jobset-explanation-schemas.ts';
import { JobSetViewSchema } from '../../../functions/query/jobsets/jobset-schemas.ts';
import { HistoryPageSchema } from '../../../functions/query/schemas/history-schemas.ts';
import { buildJobSetFleet, JOBSET_NAME } from './support/jobset-fleet.ts';
import { jobPath, jobSetPath, queryClient, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';

// Given the seed-002 JobSet played through the service twice (samples/jobset-exit-code-2.jsonl
// in c1: a simulation pod exits with code 2; samples/jobset-exit-code-3.jsonl in c2: exit code
// 3), when its routes are queried, then they answer with the JobSet fold's status and the shared
// explanation: the failure policy rule and the child Job that failed or restarted it.

const UID = '4f1d2c3b-9a8e-4d7c-b6a5-0e1f2a3b4c5d';

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildJobSetFleet(service);
  get = queryClient(service);
});

const failed = (suffix = '') => jobSetPath('c1', 'default', JOBSET_NAME, suffix);
const restarted = (suffix = '') => jobSetPath('c2', 'default', JOBSET_NAME, suffix);

type Decision = { seq: number; type: string; tippedBy?: number; sentence: string; decision: Record<string, any> };

describe('GET …/jobsets/{name}', () => {
  it('shows the failed JobSet with its spec, child Jobs and the commands issued', async () => {
    const { status, body } = await get(failed());
    expect(status).toBe(200);
    expect(JobSetViewSchema.parse(body)).toEqual(body);
    expect(body.jobSet).toEqual({ clusterId: 'c1', namespace: 'default', name: JOBSET_NAME, uid: UID });
    expect(body.status.terminalState).toBe('Failed');
    expect(body.spec.replicatedJobs).toEqual([{
      name: 'simulations', groupName: 'default', replicas: 4, parallelism: 1, completions: 1, completionMode: 'Indexed', backoffLimit: 0,
      podFailurePolicy: { rules: [
        { name: 'ExitCode2', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [2] } },
        { name: 'ExitCode3', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [3] } },
      ] },
      dependsOn: [],
    }]);
    expect(body.spec).toMatchObject({ coordinator: null, ttlSecondsAfterFinished: null });
    expect(body.commands.map((c: { type: string }) => c.type)).toEqual([...Array(4).fill('CreateJob'), ...Array(3).fill('DeleteJob')]);
    expect(body.explanation).toMatchObject({ outcome: 'Failed', conditions: [{ type: 'Failed', status: 'True', reason: 'FailJobSetFailurePolicyAction' }] });
    expect(body.log.head).toBe(21);
  });

  it('shows the restarted JobSet running its second attempt', async () => {
    const { body } = await get(restarted());
    expect(JobSetViewSchema.parse(body)).toEqual(body);
    expect(body.status).toMatchObject({ restarts: 1, restartsCountTowardsMax: 1, terminalState: '' });
    expect(body.childJobs.map((j: { restartAttempt: number }) => j.restartAttempt)).toEqual([1, 1, 1, 1]);
    expect(body.explanation.outcome).toBe('Running');
  });

  it('answers 404 for an unknown JobSet, another uid, and a Job name asked as a JobSet', async () => {
    expect(await get(jobSetPath('c1', 'default', 'nope'))).toMatchObject({
      status: 404,
      body: { message: 'jobset default/nope not found in cluster c1' },
    });
    expect((await get(failed(), { uid: 'other' })).status).toBe(404);
    expect((await get(jobSetPath('c1', 'default', 'restart-job-example-simulations-2'))).status).toBe(404);
  });
});

describe('GET …/jobsets/{name}/history', () => {
  it('pages the log with JobSet categories and the reconciler\'s event ids', async () => {
    const first = await get(failed('/history'), { limit: '3' });
    expect(HistoryPageSchema.parse(first.body)).toEqual(first.body);
    expect(first.body.entries[0]).toMatchObject({ seq: 1, type: 'JobSetObserved', category: 'observation' });
    expect(first.body.entries[1]).toMatchObject({ seq: 2, type: 'CreateJobIssued', category: 'command', eventId: `${UID}/1/0` });
    expect(first.body.nextAfter).toBe(3);
    const all = await get(failed('/history'), { limit: '500' });
    const categories = new Set(all.body.entries.map((e: { type: string; category: string }) => `${e.type}:${e.category}`));
    expect(categories).toEqual(
      new Set(['JobSetObserved:observation', 'CreateJobIssued:command', 'JobObserved:observation', 'JobSetFailed:decision', 'DeleteJobIssued:command', 'JobDeleted:observation']),
    );
  });
});

describe('GET …/jobsets/{name}/explain', () => {
  it('explains the failure: rule failurePolicyRule0 (FailJobSet) matched a child Job failing with PodFailurePolicy_ExitCode2', async () => {
    const { status, body } = await get(failed('/explain'));
    expect(status).toBe(200);
    expect(JobSetExplanationSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ jobSet: { clusterId: 'c1', name: JOBSET_NAME, uid: UID }, outcome: 'Failed', restarts: 0, rejection: [] });
    expect(body.summary).toMatch(/^JobSet default\/restart-job-example failed at 2026-01-01T00:02:00Z — FailJobSetFailurePolicyAction/);
    const [condition] = body.conditions;
    expect(condition).toMatchObject({ type: 'Failed', status: 'True', decidedBy: 15, tippedBy: 14 });
    expect(condition.evidence).toMatchObject({
      type: 'JobSetFailed',
      rule: { index: 0, name: 'failurePolicyRule0', action: 'FailJobSet' },
      failedJob: { name: 'restart-job-example-simulations-2', replicatedJob: 'simulations', reason: 'PodFailurePolicy_ExitCode2' },
    });
    expect(condition.sentence).toBe(
      'Failed: FailJobSetFailurePolicyAction — rule 0 "failurePolicyRule0" (FailJobSet) matched child Job ' +
        'restart-job-example-simulations-2 failing with PodFailurePolicy_ExitCode2, event #14',
    );
  });

  it('points at the logged child-Job status that tipped the failure, and at that Job\'s own explanation', async () => {
    const { body } = await get(failed('/explain'));
    const decision = body.events.find((e: Decision) => e.type === 'JobSetFailed') as Decision;
    const tipping = await get(failed('/history'), { after: String((decision.tippedBy ?? 0) - 1), limit: '1' });
    expect(tipping.body.entries[0]).toMatchObject({ type: 'JobObserved', body: { job: { metadata: { name: 'restart-job-example-simulations-2' } } } });
    const child = await get(jobPath('c1', 'default', 'restart-job-example-simulations-2', '/explain'));
    expect(child.body.outcome).toBe('Failed');
    expect(child.body.conditions.find((c: { type: string }) => c.type === 'Failed')).toMatchObject({ reason: 'PodFailurePolicy_ExitCode2' });
  });

  it('explains the restart: rule failurePolicyRule1 (RestartJobSet) matched a child Job failing with PodFailurePolicy_ExitCode3', async () => {
    const { status, body } = await get(restarted('/explain'));
    expect(status).toBe(200);
    expect(JobSetExplanationSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ jobSet: { clusterId: 'c2', uid: UID }, outcome: 'Running', restarts: 1, restartsCountTowardsMax: 1 });
    const restarts = body.events.filter((e: Decision) => e.type === 'JobSetRestarted') as Decision[];
    expect(restarts).toHaveLength(1);
    expect(restarts[0]?.decision).toMatchObject({
      action: 'RestartJobSet',
      rule: { index: 1, name: 'failurePolicyRule1', action: 'RestartJobSet' },
      failedJob: { name: 'restart-job-example-simulations-3', reason: 'PodFailurePolicy_ExitCode3' },
      restarts: 1,
    });
    expect(restarts[0]?.sentence).toMatch(
      /^Restarted \(1 of maxRestarts 10\): rule 1 "failurePolicyRule1" \(RestartJobSet\) matched child Job restart-job-example-simulations-3 failing with PodFailurePolicy_ExitCode3/,
    );
    const attempts = body.events.filter((e: Decision) => e.type === 'CreateJobIssued').map((e: Decision) => e.decision['restartAttempt']);
    expect(attempts).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(body.conditions).toMatchObject([{ type: 'RestartingJobSet', status: 'False', reason: 'JobsReady' }]);
  });

  it('lists every decision in log order, each with a sentence', async () => {
    const { body } = await get(restarted('/explain'));
    const seqs = body.events.map((e: Decision) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(body.events.every((e: Decision) => e.sentence !== '' && e.decision['type'] === e.type)).toBe(true);
  });
});
