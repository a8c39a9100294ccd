import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { logger } from '../../../functions/commons/powertools.ts';
import { reconcileAndSchedule } from '../../../functions/handlers/reconcile-handler.ts';
import { createWriterHandler } from '../../../functions/handlers/writer-handler.ts';
import { timerRecord } from '../../../functions/handlers/writer/timer-record.ts';
import type { StreamId } from '../../../shared/app/event-store.ts';
import { ingest } from '../../../shared/app/ingest.ts';
import { reconcile } from '../../../shared/app/reconcile.ts';
import { reconcileJobSet } from '../../../shared/app/reconcile-jobset.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import type { CreateJob } from '../../../shared/jobset/commands.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import { NoMarkersStore, outboxEvents } from '../writer/write-support.ts';
import { at, childPod, SEED_002_FIXTURE } from './support.ts';

// ttlSecondsAfterFinished through the service: the reconcile of a finished JobSet asks for a
// wake-up when its TTL runs out, the timer reaches the writer as a Tick at that time, and the
// reconcile that follows sends `JobSet Deletion Requested` to the cluster.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';

const fixture = SEED_002_FIXTURE;
const CLUSTER = 'c1';
const context = { functionName: 'writer', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

function harness() {
  const store = new NoMarkersStore();
  let now = at(0);
  const clock = () => now;
  const timers: { stream: StreamId; at: string }[] = [];
  const deps = { store, clock, config: DEFAULT_FOLD_CONFIG, timers: { schedule: async (stream: StreamId, due: string) => void timers.push({ stream, at: due }) } };
  const rejections = { reject: async (_e: unknown, errors: unknown) => void expect(errors).toBeUndefined() };
  const send = async (detailType: string, object: Record<string, any>, seconds: number) => {
    now = at(seconds);
    const event = { source: `jobfold.cluster.${CLUSTER}`, 'detail-type': detailType, detail: { eventId: `${object.metadata.uid}/${seconds}`, observedAt: now, object } };
    expect((await ingest({ store, rejections, clock }, event)).status).toBe('appended');
  };
  const writer = createWriterHandler({ ...deps, rejections });
  const jobSetStream: StreamId = { kind: 'JobSet', clusterId: CLUSTER, namespace: 'default', uid: fixture.jobset.metadata['uid'] as string };
  return {
    store, timers, send, writer, jobSetStream,
    setClock: (seconds: number) => void (now = at(seconds)),
    reconcileJob: (uid: string) => reconcile(deps, { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid }),
    /** The use case alone, which reports the commands it decided. */
    decideJobSet: () => reconcileJobSet(deps, jobSetStream),
    /** As the reconcile trigger runs it: the use case, and its wake-up scheduled. */
    reconcileJobSet: () => reconcileAndSchedule(deps, jobSetStream),
  };
}

describe('Given a JobSet managed by jobfold with ttlSecondsAfterFinished 30 that fails at 00:00:12', () => {
  async function failedJobSet() {
    const h = harness();
    const spec = { ...fixture.jobset.spec, managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME, ttlSecondsAfterFinished: 30 };
    await h.send('JobSet Observed', { ...fixture.jobset, metadata: { ...fixture.jobset.metadata, creationTimestamp: at(0) }, spec }, 0);
    const created = (await h.decideJobSet()).commands.filter((c): c is CreateJob => c.type === 'CreateJob');
    const command = created[2] as CreateJob;
    const job = { ...command.job, metadata: { ...command.job.metadata, uid: `${command.name}-uid`, creationTimestamp: at(1) } };
    await h.send('Job Observed', job, 10);
    await h.send('Pod Observed', childPod(job, 'Running'), 11);
    await h.reconcileJob(job.metadata.uid);
    await h.send('Pod Observed', childPod(job, 'Failed', 2), 12);
    await h.reconcileJob(job.metadata.uid);
    await h.reconcileJobSet();
    return h;
  }

  it('when it is reconciled, a wake-up is scheduled when the TTL runs out, and nothing is deleted yet', async () => {
    const h = await failedJobSet();
    expect(h.timers.filter((t) => t.stream.kind === 'JobSet')).toEqual([{ stream: h.jobSetStream, at: '2026-01-01T00:00:42.000Z' }]);
    const events = await outboxEvents(h.store, h.jobSetStream);
    expect(events.map((e) => e.detailType)).not.toContain('JobSet Deletion Requested');
  });

  it('when the timer fires, the writer logs a Tick and the JobSet is deleted in the foreground, once', async () => {
    const h = await failedJobSet();
    const fired = timerRecord(h.jobSetStream, '2026-01-01T00:00:42.000Z');
    h.setClock(43);
    expect(await h.writer(kinesisEvent([fired]), context)).toEqual({ batchItemFailures: [] });
    await h.writer(kinesisEvent([fired]), context);
    const entries = (await h.store.read(h.jobSetStream)).entries;
    expect(entries.filter((e) => e.type === 'Tick').map((e) => e.observedAt)).toEqual(['2026-01-01T00:00:42.000Z']);
    expect(entries.filter((e) => e.type === 'JobSetDeletionRequested')).toHaveLength(1);
    const deletions = (await outboxEvents(h.store, h.jobSetStream)).filter((e) => e.detailType === 'JobSet Deletion Requested');
    expect(deletions).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ jobSetName: 'restart-job-example', jobSetUid: h.jobSetStream.uid, propagationPolicy: 'Foreground' }) }),
    ]);
  });
});
