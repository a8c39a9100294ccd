import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import { createServiceHarness } from '../../support/service-harness.ts';
import { at, childPod, SEED_002_FIXTURE } from './support.ts';

// ttlSecondsAfterFinished through the service: the writer, deciding a finished JobSet, asks for a
// wake-up when its TTL runs out, the timer reaches the writer as a Tick at that time, and the
// decision that follows sends `JobSet Deletion Requested` to the cluster.

const fixture = SEED_002_FIXTURE;
const CLUSTER = 'c1';

function harness() {
  const h = createServiceHarness({ store: new InMemoryEventStore(), now: at(0) });
  const send = async (detailType: string, object: Record<string, any>, seconds: number) => {
    h.clock.now = at(seconds);
    const event = { source: `jobfold.cluster.${CLUSTER}`, 'detail-type': detailType, detail: { eventId: `${object.metadata.uid}/${seconds}`, observedAt: at(seconds), object } };
    expect(await h.deliver([event])).toEqual([]);
    expect(h.rejected).toEqual([]);
  };
  const jobSetStream: StreamId = { kind: 'JobSet', clusterId: CLUSTER, namespace: 'default', uid: fixture.jobset.metadata['uid'] as string };
  return { h, send, jobSetStream };
}

describe('Given a JobSet managed by jobfold with ttlSecondsAfterFinished 30 that fails at 00:00:12', () => {
  async function failedJobSet() {
    const t = harness();
    const spec = { ...fixture.jobset.spec, managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME, ttlSecondsAfterFinished: 30 };
    await t.send('JobSet Observed', { ...fixture.jobset, metadata: { ...fixture.jobset.metadata, creationTimestamp: at(0) }, spec }, 0);
    const created = (await t.h.pendingEvents(t.jobSetStream)).filter((e) => e.detailType === 'Job Creation Requested');
    const manifest = (created[2]?.detail as { job: { metadata: Record<string, unknown> } }).job;
    const job = { ...manifest, metadata: { ...manifest.metadata, uid: `${String(manifest.metadata['name'])}-uid`, creationTimestamp: at(1) } };
    await t.send('Job Observed', job, 10);
    await t.send('Pod Observed', childPod(job as never, 'Running'), 11);
    await t.send('Pod Observed', childPod(job as never, 'Failed', 2), 12);
    return t;
  }

  it('when it is reconciled, a wake-up is scheduled when the TTL runs out, and nothing is deleted yet', async () => {
    const { h, jobSetStream } = await failedJobSet();
    expect(h.timers.filter((t) => t.stream.kind === 'JobSet').at(-1)).toEqual({ stream: jobSetStream, at: '2026-01-01T00:00:42.000Z' });
    const events = await h.pendingEvents(jobSetStream);
    expect(events.map((e) => e.detailType)).not.toContain('JobSet Deletion Requested');
  });

  it('when the timer fires, the writer logs a Tick and the JobSet is deleted in the foreground, once', async () => {
    const { h, jobSetStream } = await failedJobSet();
    h.clock.now = at(43);
    await h.fireTimer(jobSetStream, '2026-01-01T00:00:42.000Z');
    await h.fireTimer(jobSetStream, '2026-01-01T00:00:42.000Z');
    const entries = (await h.store.read(jobSetStream)).entries;
    expect(entries.filter((e) => e.type === 'Tick').map((e) => e.observedAt)).toEqual(['2026-01-01T00:00:42.000Z']);
    expect(entries.filter((e) => e.type === 'JobSetDeletionRequested')).toHaveLength(1);
    const deletions = (await h.pendingEvents(jobSetStream)).filter((e) => e.detailType === 'JobSet Deletion Requested');
    expect(deletions).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ jobSetName: 'restart-job-example', jobSetUid: jobSetStream.uid, propagationPolicy: 'Foreground' }) }),
    ]);
  });
});
