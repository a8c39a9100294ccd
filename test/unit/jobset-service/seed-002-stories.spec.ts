import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobSetDecider, jobSetStatus, type JobSetLogDecision } from '../../../shared/jobset/index.ts';
import type { CreateJob } from '../../../shared/jobset/commands.ts';
import { constructJob } from '../../../shared/jobset/construct-job.ts';
import { createServiceHarness } from '../../support/service-harness.ts';
import { at, childPod, SEED_002_FIXTURE as fixture } from './support.ts';

// The seed-002 stories end to end through the service's writer: a JobSet whose failure policy
// fails it on PodFailurePolicy_ExitCode2 and restarts it on PodFailurePolicy_ExitCode3. The
// cluster's Job controller knows nothing of KEP-4443: the reasons come from jobfold's own Job
// decisions, which reach the JobSet's log as child-Job statuses, in the same delivery.

const CLUSTER = 'c1';

function harness() {
  const h = createServiceHarness({ store: new InMemoryEventStore(), now: at(0) });
  const send = async (detailType: string, object: Record<string, any>, seconds: number) => {
    h.clock.now = at(seconds);
    const eventId = `${object.metadata.uid}/${seconds}`;
    const event = { source: `jobfold.cluster.${CLUSTER}`, 'detail-type': detailType, detail: { eventId, observedAt: at(seconds), object } };
    expect(await h.deliver([event])).toEqual([]);
    expect(h.rejected).toEqual([]);
  };
  const jobSetStream: StreamId = { kind: 'JobSet', clusterId: CLUSTER, namespace: 'default', uid: fixture.jobset.metadata['uid'] as string };
  const jobStream = (uid: string): StreamId => ({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid });
  const jobSet = async () => {
    const { state, tail } = await loadState(jobSetDecider(), h.store, jobSetStream, { fromStart: true });
    const decisions = tail.filter((e): e is JobSetLogDecision => jobSetDecider().log.isDecision(e));
    return { state, decisions };
  };
  return { h, send, jobSetStream, jobStream, jobSet };
}

/** The CreateJob commands the JobSet's decisions stand for (its log records them; the manifest is built again). */
async function createdJobs(h: ReturnType<typeof harness>): Promise<CreateJob[]> {
  const { state, decisions } = await h.jobSet();
  const jobSet = state.jobSet!;
  return decisions.flatMap((d) => {
    if (d.type !== 'CreateJobIssued') return [];
    const rjob = jobSet.spec.replicatedJobs.find((r) => r.name === d.replicatedJob)!;
    const job = constructJob(jobSet, rjob, d.jobIndex, d.restartAttempt);
    return [{ type: 'CreateJob', commandId: d.commandId, namespace: jobSet.metadata.namespace, name: d.name,
      replicatedJob: d.replicatedJob, jobIndex: d.jobIndex, restartAttempt: d.restartAttempt, suspend: d.suspend, job }];
  });
}

/** The child Job as the cluster creates it from a CreateJob command. */
function childJob(command: CreateJob, uid: string) {
  return { ...command.job, metadata: { ...command.job.metadata, uid, creationTimestamp: at(1) } };
}

async function startJobSet(h: ReturnType<typeof harness>) {
  await h.send('JobSet Observed', { ...fixture.jobset, metadata: { ...fixture.jobset.metadata, creationTimestamp: at(0) } }, 0);
  return createdJobs(h);
}

/** The child Job created from `command` runs its pod, which exits with `exitCode`; the Job's decisions. */
async function failChild(h: ReturnType<typeof harness>, command: CreateJob, exitCode: number, seconds: number) {
  const job = childJob(command, `${command.name}-uid`);
  await h.send('Job Observed', job, seconds);
  await h.send('Pod Observed', childPod(job, 'Running'), seconds + 1);
  await h.send('Pod Observed', childPod(job, 'Failed', exitCode), seconds + 2);
  const log = await h.h.log(h.jobStream(job.metadata.uid));
  return log.map((entry) => entry.body as { type: string; condition?: { type: string; reason: string } });
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
    const failed = decided.find((d) => d.type === 'JobConditionChanged' && d.condition?.type === 'Failed');
    expect(failed?.condition?.reason).toBe('PodFailurePolicy_ExitCode2');

    const { state, decisions } = await h.jobSet();
    const jobSetFailed = decisions.find((d) => d.type === 'JobSetFailed');
    expect(jobSetFailed).toMatchObject({ rule: { name: 'failurePolicyRule0', action: 'FailJobSet' }, at: at(12) });
    expect(jobSetStatus(state).terminalState).toBe('Failed');
    expect(jobSetStatus(state).conditions.find((c) => c.type === 'Failed')?.status).toBe('True');
  });

  it('when a child pod exits with code 3, the JobSet restarts instead', async () => {
    const h = harness();
    const creates = await startJobSet(h);
    await failChild(h, creates[3] as CreateJob, 3, 10);
    const { state, decisions } = await h.jobSet();
    expect(decisions.find((d) => d.type === 'JobSetRestarted')).toMatchObject({
      action: 'RestartJobSet',
      rule: { name: 'failurePolicyRule1' },
      failedJob: { reason: 'PodFailurePolicy_ExitCode3' },
      at: at(12),
    });
    expect(jobSetStatus(state)).toMatchObject({ restarts: 1, terminalState: '' });
  });
});
