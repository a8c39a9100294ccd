import { describe, expect, it } from 'vitest';
import { deletedEvent, observedEvent, tombstoneEvent } from '../../forwarder/observation.ts';
import { trimJob, trimPod } from '../../forwarder/trim.ts';
import { parseInbound } from '../../shared/contract/parse-inbound.ts';
import { aJob, aPod } from './objects.ts';

const job = { ...aJob(), metadata: { ...aJob().metadata, resourceVersion: '7' } };
const pod = { ...aPod(job, { name: 'p', phase: 'Failed' }), metadata: { ...aPod(job, { name: 'p' }).metadata, resourceVersion: '9' } };
const asEvent = (e: { source: string; detailType: string; detail: string }) => ({ source: e.source, 'detail-type': e.detailType, detail: JSON.parse(e.detail) });

describe('Trimming objects to the event contract', () => {
  it('drops what the fold does not read: managedFields, the last-applied annotation, container specs', () => {
    const trimmed = trimJob(job);
    if (!trimmed.ok) throw new Error(trimmed.reason);
    const metadata = trimmed.object.metadata as Record<string, unknown>;
    expect(metadata.managedFields).toBeUndefined();
    expect(metadata.annotations).toBeUndefined();
    expect((trimmed.object.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers).toEqual([
      { name: 'main', image: 'busybox', command: ['sh', '-c', 'echo $JOB_COMPLETION_INDEX'] },
    ]);
  });

  it('says why an object does not fit the contract', () => {
    const result = trimPod({ metadata: { name: 'no-uid' } });
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('metadata.uid') });
  });
});

describe('Observation events', () => {
  it('name an observed version <uid>/<resourceVersion> and pass parseInbound', () => {
    const result = observedEvent('c1', 'Pod', pod, '2026-01-01T00:00:10.000Z');
    if (!result.ok) throw new Error(result.reason);
    expect(result.event.eventId).toBe(`${pod.metadata.uid}/9`);
    expect(parseInbound(asEvent(result.event))).toMatchObject({ ok: true, targets: [{ entry: { body: { type: 'PodObserved', clusterId: 'c1' } } }] });
  });

  it('name a deletion <uid>/deleted, from the watch and from a tombstone alike', () => {
    const watched = deletedEvent('c1', 'Pod', pod, '2026-01-01T00:00:10.000Z');
    const remembered = tombstoneEvent('c1', { kind: 'Pod', uid: pod.metadata.uid ?? '', name: 'p', namespace: 'default', labels: pod.metadata.labels ?? {} }, '2026-01-01T00:00:10.000Z');
    if (!watched.ok || !remembered.ok) throw new Error('refused');

    expect(watched.event.eventId).toBe(`${pod.metadata.uid}/deleted`);
    expect(remembered.event.eventId).toBe(watched.event.eventId);
    expect(parseInbound(asEvent(watched.event))).toMatchObject({ ok: true, targets: [{ entry: { body: { type: 'PodDeleted', uid: pod.metadata.uid } } }] });
    expect(parseInbound(asEvent(remembered.event))).toMatchObject({ ok: true, targets: [{ stream: { uid: job.metadata.uid } }] });
  });

  it('report a deleted Job as Job Deleted', () => {
    const result = deletedEvent('c1', 'Job', job, '2026-01-01T00:00:10.000Z');
    if (!result.ok) throw new Error(result.reason);
    expect(parseInbound(asEvent(result.event))).toMatchObject({ ok: true, targets: [{ entry: { body: { type: 'JobDeleted', uid: job.metadata.uid } } }] });
  });

  it('carry the partition key of the Job they belong to: a pod its owning Job uid, a Job its own', () => {
    const podEvent = observedEvent('c1', 'Pod', pod, '2026-01-01T00:00:10.000Z');
    const jobEvent = observedEvent('c1', 'Job', job, '2026-01-01T00:00:10.000Z');
    const remembered = tombstoneEvent('c1', { kind: 'Pod', uid: pod.metadata.uid ?? '', name: 'p', namespace: 'default', labels: pod.metadata.labels ?? {} }, '2026-01-01T00:00:10.000Z');
    const orphan = observedEvent('c1', 'Pod', { ...pod, metadata: { ...pod.metadata, ownerReferences: [], labels: {} } }, '2026-01-01T00:00:10.000Z');
    if (!podEvent.ok || !jobEvent.ok || !remembered.ok || !orphan.ok) throw new Error('refused');

    const keyOf = (e: { detail: string }) => (JSON.parse(e.detail) as { partitionKey?: string }).partitionKey;
    expect(keyOf(podEvent.event)).toBe(job.metadata.uid);
    expect(keyOf(jobEvent.event)).toBe(job.metadata.uid);
    expect(keyOf(remembered.event)).toBe(job.metadata.uid);
    expect(keyOf(orphan.event)).toBe(pod.metadata.uid);
  });

  it('pass the contract with a partition key of up to 256 characters, and are refused over it, naming the field', () => {
    const result = observedEvent('c1', 'Pod', pod, '2026-01-01T00:00:10.000Z');
    if (!result.ok) throw new Error(result.reason);
    const event = asEvent(result.event);

    expect(parseInbound({ ...event, detail: { ...event.detail, partitionKey: 'k'.repeat(256) } })).toMatchObject({ ok: true });
    expect(parseInbound({ ...event, detail: { ...event.detail, partitionKey: 'k'.repeat(257) } })).toMatchObject({
      ok: false, errors: [expect.objectContaining({ path: 'detail.partitionKey' })],
    });
  });
});
