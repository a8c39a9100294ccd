import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { itemEvents } from '../../../shared/publish/publish.ts';
import { OutboundDetailType } from '../../../shared/contract/outbound.ts';
import { COMMAND_ID_ANNOTATION, JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { Pod } from '../../../shared/k8s/pod.ts';
import { JobViewSchema } from '../../../functions/query/schemas/job-schemas.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podDeletedEvent, podObservedEvent, SERVICE_CLUSTER } from '../../support/inbound-events.ts';
import { jobPath, queryClient } from './support/query-client.ts';
import { aService, deliverAt, tickAt, type Service } from './support/service-fleet.ts';

// A command is "sent" once it is in the outbox; jobfold records no acknowledgement from the
// forwarder. What the log does hold is what the cluster reported next. Given a decision that
// terminates, creates or releases (finalizer) pods, when the cluster later reports those pods
// deleted, created (by the forwarder's `jobfold.io/command-id`) or without the tracking
// finalizer, then the Job view counts them under `observed`
// with the latest observation's seq, each pod once; reports of other pods, or of the pod still
// running, count for nothing.

const view = async (service: Service, name: string) => {
  const { status, body } = await queryClient(service)(jobPath(SERVICE_CLUSTER, 'default', name));
  expect(status).toBe(200);
  expect(JobViewSchema.parse(body)).toEqual(body);
  return body;
};

const withCommandId = (pod: Pod, commandId: string): Pod => ({
  ...pod,
  metadata: { ...pod.metadata, annotations: { ...pod.metadata.annotations, [COMMAND_ID_ANNOTATION]: commandId } },
});

describe('Given a Job past its deadline, whose running pod jobfold terminates', () => {
  it('counts the pod once the cluster reports it deleting, and names that entry', async () => {
    const service = aService(new InMemoryEventStore());
    const job = aJob({ completions: 2, parallelism: 2, activeDeadlineSeconds: 5 }, { name: 'lingering', uid: 'lingering-uid' });
    const stream = jobStream(job);
    const pod = (name: string, phase: 'Running' | 'Succeeded', extra = {}) => aPod({ name, uid: `${name}-uid`, phase, ...extra });
    await deliverAt(service, at(0), [
      jobObservedEvent(job, at(0)), podObservedEvent(pod('a', 'Running'), job, at(0)), podObservedEvent(pod('b', 'Running'), job, at(0)),
    ]);
    await deliverAt(service, at(1), [podObservedEvent(pod('a', 'Succeeded'), job, at(1))]);
    await tickAt(service, stream, at(10));

    const before = await view(service, 'lingering');
    const terminate = before.commands.find((c: { type: string }) => c.type === 'TerminatePod');
    expect(terminate).toMatchObject({ dispatched: true, pods: [{ name: 'b' }], observed: { count: 0, of: 1 } });

    await deliverAt(service, at(12), [podObservedEvent(pod('b', 'Running', { deletionTimestamp: at(12) }), job, at(12))]);
    const deleting = await view(service, 'lingering');
    const seq = deleting.log.head;
    expect(deleting.commands.find((c: { type: string }) => c.type === 'TerminatePod').observed).toEqual({ count: 1, of: 1, lastSeq: seq, lastAt: at(12) });

    // The pod's deletion, reported next, is the same pod: still one of one, at the first report.
    await deliverAt(service, at(13), [podDeletedEvent(pod('b', 'Running'), job, at(13))]);
    const gone = await view(service, 'lingering');
    expect(gone.commands.find((c: { type: string }) => c.type === 'TerminatePod').observed).toEqual({ count: 1, of: 1, lastSeq: seq, lastAt: at(12) });
  });
});

describe('Given a Job jobfold manages, for which it requests two pods', () => {
  it('counts the pods the cluster reports with the commands\' ids, and no other pod', async () => {
    const service = aService(new InMemoryEventStore());
    const job = aJob({ completions: 2, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME }, { name: 'managed', uid: 'managed-uid' });
    await deliverAt(service, at(0), [jobObservedEvent(job, at(0))]);
    const queued = await Promise.all((await service.store.pendingOutbox(100)).map((item) => itemEvents(service.store, item)));
    const ids = queued.flat().filter((e) => e.detailType === OutboundDetailType.CreatePod).map((e) => e.detail['commandId'] as string);
    expect(ids).toEqual(['managed-uid/create/0', 'managed-uid/create/1']);

    const first = await view(service, 'managed');
    expect(first.commands.find((c: { type: string }) => c.type === 'CreatePod')).toMatchObject({ dispatched: true, count: 2, observed: { count: 0, of: 2 } });

    await deliverAt(service, at(1), [
      podObservedEvent(withCommandId(aPod({ name: 'managed-x', uid: 'x-uid' }), ids[0]!), job, at(1)),
      podObservedEvent(aPod({ name: 'stranger', uid: 'stranger-uid' }), job, at(1)),
    ]);
    await deliverAt(service, at(12), [podObservedEvent(withCommandId(aPod({ name: 'managed-x', uid: 'x-uid', ready: true }), ids[0]!), job, at(12))]);
    const later = await view(service, 'managed');
    const create = later.commands.find((c: { type: string }) => c.type === 'CreatePod');
    expect(create.observed).toMatchObject({ count: 1, of: 2, lastAt: at(1) });
  });
});

describe('Given a Job jobfold manages, whose pod succeeded and was counted', () => {
  it('lists the finalizer removal, and counts the pod once the cluster reports it without the finalizer', async () => {
    const service = aService(new InMemoryEventStore());
    const job = aJob({ completions: 1, parallelism: 1, managedBy: JOBFOLD_CONTROLLER_NAME }, { name: 'counted', uid: 'counted-uid' });
    const pod = (extra = {}) => withCommandId(aPod({ name: 'counted-x', uid: 'cx-uid', ...extra }), 'counted-uid/create/0');
    await deliverAt(service, at(0), [jobObservedEvent(job, at(0))]);
    await deliverAt(service, at(2), [podObservedEvent(pod(), job, at(1)), podObservedEvent(pod({ phase: 'Succeeded' }), job, at(2))]);

    const removal = (body: { commands: { type: string }[] }) => body.commands.find((c) => c.type === 'RemovePodFinalizer');
    expect(removal(await view(service, 'counted'))).toMatchObject({ dispatched: true, pods: [{ name: 'counted-x', uid: 'cx-uid' }], observed: { count: 0, of: 1 } });

    await deliverAt(service, at(3), [podObservedEvent(pod({ phase: 'Succeeded', finalizer: false }), job, at(3))]);
    const after = await view(service, 'counted');
    expect(removal(after)).toMatchObject({ observed: { count: 1, of: 1, lastSeq: after.log.head, lastAt: at(3) } });
  });
});
