import { describe, expect, it } from 'vitest';
import { ingest } from '../../../shared/app/ingest.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { reconcile } from '../../../shared/app/reconcile.ts';
import { loadJobSetState, reconcileJobSet } from '../../../shared/app/reconcile-jobset.ts';
import type { StreamId } from '../../../shared/app/event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobSetStatus } from '../../../shared/jobset/index.ts';
import type { CreateJob } from '../../../shared/jobset/commands.ts';
import { at, childPod, SEED_002_FIXTURE } from './support.ts';

// The seed-002 stories end to end through the service: a JobSet whose failure policy fails it
// on PodFailurePolicy_ExitCode2 and restarts it on PodFailurePolicy_ExitCode3. The cluster's
// Job controller knows nothing of KEP-4443: the reasons come from jobfold's own Job decisions,
// which reach the JobSet's log as child-Job statuses.

const fixture = SEED_002_FIXTURE;
const CLUSTER = 'c1';

function harness() {
  const store = new InMemoryEventStore();
  let now = at(0);
  const clock = () => now;
  const rejections = { reject: async (_e: unknown, errors: unknown) => void expect(errors).toBeUndefined() };
  const send = async (detailType: string, object: Record<string, any>, seconds: number) => {
    now = at(seconds);
    const eventId = `${object.metadata.uid}/${seconds}`;
    const event = { source: `jobfold.cluster.${CLUSTER}`, 'detail-type': detailType, detail: { eventId, observedAt: now, object } };
    const result = await ingest({ store, rejections, clock }, event);
    expect(result.status).toBe('appended');
  };
  const jobSetStream: StreamId = { kind: 'JobSet', clusterId: CLUSTER, namespace: 'default', uid: fixture.jobset.metadata['uid'] as string };
  const jobStream = (uid: string): StreamId => ({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid });
  return {
    store,
    send,
    jobSetStream,
    jobStream,
    reconcileJob: (uid: string) => reconcile({ store, clock, config: DEFAULT_FOLD_CONFIG }, jobStream(uid)),
    reconcileJobSet: () => reconcileJobSet({ store, clock }, jobSetStream),
  };
}

/** The child Job as the cluster creates it from a CreateJob command. */
function childJob(command: CreateJob, uid: string) {
  return { ...command.job, metadata: { ...command.job.metadata, uid, creationTimestamp: at(1) } };
}

async function startJobSet(h: ReturnType<typeof harness>) {
  await h.send('JobSet Observed', { ...fixture.jobset, metadata: { ...fixture.jobset.metadata, creationTimestamp: at(0) } }, 0);
  const created = await h.reconcileJobSet();
  return created.commands.filter((c): c is CreateJob => c.type === 'CreateJob');
}

async function failChild(h: ReturnType<typeof harness>, command: CreateJob, exitCode: number, seconds: number) {
  const job = childJob(command, `${command.name}-uid`);
  await h.send('Job Observed', job, seconds);
  await h.send('Pod Observed', childPod(job, 'Running'), seconds + 1);
  await h.reconcileJob(job.metadata.uid);
  await h.send('Pod Observed', childPod(job, 'Failed', exitCode), seconds + 2);
  const decided = await h.reconcileJob(job.metadata.uid);
  return decided;
}

describe('Given the seed-002 JobSet (FailJobSet on ExitCode2, RestartJobSet on ExitCode3)', () => {
  it('creates its four child Jobs when first observed', async () => {
    const h = harness();
    const creates = await startJobSet(h);
    expect(creates.map((c) => c.name)).toEqual([
      'restart-job-example-simulations-0',
      'restart-job-example-simulations-1',
      'restart-job-example-simulations-2',
      'restart-job-example-simulations-3',
    ]);
  });

  it('when a child pod exits with code 2, the Job fails with PodFailurePolicy_ExitCode2 and the JobSet fails', async () => {
    const h = harness();
    const creates = await startJobSet(h);
    const decided = await failChild(h, creates[2] as CreateJob, 2, 10);
    const failed = decided.decisions.find((d) => d.type === 'JobConditionChanged' && d.condition.type === 'Failed');
    expect(failed?.type === 'JobConditionChanged' && failed.condition.reason).toBe('PodFailurePolicy_ExitCode2');

    const outcome = await h.reconcileJobSet();
    const jobSetFailed = outcome.decisions.find((d) => d.type === 'JobSetFailed');
    expect(jobSetFailed).toMatchObject({ rule: { name: 'failurePolicyRule0', action: 'FailJobSet' } });
    const { state } = await loadJobSetState(h.store, h.jobSetStream);
    expect(jobSetStatus(state).terminalState).toBe('Failed');
    expect(jobSetStatus(state).conditions.find((c) => c.type === 'Failed')?.status).toBe('True');
  });

  it('when a child pod exits with code 3, the JobSet restarts instead', async () => {
    const h = harness();
    const creates = await startJobSet(h);
    await failChild(h, creates[3] as CreateJob, 3, 10);
    const outcome = await h.reconcileJobSet();
    expect(outcome.decisions.find((d) => d.type === 'JobSetRestarted')).toMatchObject({
      action: 'RestartJobSet',
      rule: { name: 'failurePolicyRule1' },
      failedJob: { reason: 'PodFailurePolicy_ExitCode3' },
    });
    const { state } = await loadJobSetState(h.store, h.jobSetStream);
    expect(jobSetStatus(state)).toMatchObject({ restarts: 1, terminalState: '' });
  });
});
