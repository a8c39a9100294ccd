import { describe, expect, it } from 'vitest';
import { readJobSetWindow } from '../../../functions/query/jobsets/jobset-log-window.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { explainJobSet } from '../../../shared/jobset/index.ts';
import { aJob, aPod, at, type PodOptions } from '../../support/builders.ts';
import { at as jobSetAt, jobFailed, jobSetObserved, jobSucceeded } from '../jobset/support/builders.ts';
import { given as givenJobSet } from '../jobset/support/given.ts';
import { jobPath, queryClient } from './support/query-client.ts';
import { aService, busEvent, deliverAt } from './support/service-fleet.ts';

// Issue 20: a correction carries what its explanation needs, so the query API, which reads only
// the entries an explanation cites, serves it. Given a Job jobfold does not run, failed on a
// FailJob failure at 10:00 that arrived before its success at 0:30 (test/unit/job/
// outcome-correction.spec.ts), when the success arrives and the writer corrects the outcome, then
// GET …/explain and the Job view list the correction and end the summary with it, as explainJob
// over the whole log does. And given a JobSet whose correction lies before the window of
// decisions its routes read (a long log), then the correction is still listed, with both instants.

const job = aJob({
  completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimit: 6,
  successPolicy: { rules: [{ succeededCount: 1 }] },
  podFailurePolicy: { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
});
/** The ownerReference of a pod of `of`. */
const ownerOf = (of: Job) => ({ apiVersion: 'batch/v1', kind: 'Job', name: of.metadata.name, uid: of.metadata.uid, controller: true });
/** A pod of `of`, as the cluster reported it at `rv`, observed at `observedAt`. */
const podOfJob = (of: Job) => (name: string, rv: number, observedAt: string, options: PodOptions) => {
  const object = aPod({ name, resourceVersion: String(rv), ...options });
  return busEvent('c1', 'Pod Observed', { eventId: `${name}/${rv}`, observedAt, object: { ...object, metadata: { ...object.metadata, ownerReferences: [ownerOf(of)] } } });
};
const pod = podOfJob(job);

describe('a corrected Job outcome, served', () => {
  it('given the success at 0:30 arrived after the FailJob failure at 10:00, then the explain route and the view carry the correction', async () => {
    const service = aService(new InMemoryEventStore());
    await deliverAt(service, at(10), [busEvent('c1', 'Job Observed', { eventId: 'job/1', observedAt: at(0), object: job }), pod('a', 1, at(10), { index: 0 })]);
    await deliverAt(service, at(600), [pod('a', 3, at(600), { index: 0, phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] })]);
    await deliverAt(service, at(601), [pod('b', 2, at(30), { index: 1, phase: 'Succeeded' })]);
    const get = queryClient(service);

    const { status, body } = await get(jobPath('c1', 'default', job.metadata.name, '/explain'));
    expect(status).toBe(200);
    expect(body.outcome).toBe('Succeeded');
    expect(body.corrections).toEqual([
      expect.objectContaining({ retracted: ['FailureTarget', 'Failed'], retractedMetAt: at(600), reason: 'SuccessPolicy', metAt: at(30) }),
    ]);
    expect(body.summary).toContain(`jobfold took back FailureTarget and Failed (its criterion met at ${at(600)})`);

    const view = await get(jobPath('c1', 'default', job.metadata.name));
    expect(view.body.explanation.summary).toContain('jobfold took back FailureTarget and Failed');
  });
});

describe('a Job whose Failed was taken back for a pod the cluster still ran, served', () => {
  it('given p1 failed at 1:05 arriving before p0 running at 0:30, then the explain route lists the correction and says why', async () => {
    // test/unit/job/reordered-deliveries.spec.ts: jobfold fails the Job at once, p0 arrives and
    // shows the cluster's Job was still waiting for it; Failed follows once p0's deletion arrives.
    const failing = aJob({ backoffLimit: 0, parallelism: 1, completions: 1 });
    const own = ownerOf(failing);
    const podOf = podOfJob(failing);
    const service = aService(new InMemoryEventStore());
    await deliverAt(service, at(65), [busEvent('c1', 'Job Observed', { eventId: 'job/1', observedAt: at(0), object: failing }), podOf('p1', 3, at(65), { phase: 'Failed', exitCode: 1, finishedAt: at(64) })]);
    await deliverAt(service, at(66), [podOf('p0', 2, at(30), {})]);
    await deliverAt(service, at(80), [busEvent('c1', 'Pod Deleted', { eventId: 'p0/deleted', observedAt: at(80), object: { metadata: { uid: 'p0', name: 'p0', namespace: 'default', ownerReferences: [own] } } })]);
    const get = queryClient(service);

    const { status, body } = await get(jobPath('c1', 'default', failing.metadata.name, '/explain'));
    expect(status).toBe(200);
    expect(body.outcome).toBe('Failed');
    expect(body.corrections).toEqual([expect.objectContaining({ retracted: ['Failed'], reason: 'BackoffLimitExceeded' })]);
    expect(body.summary).toContain('showed pod p0 still running then on the cluster\'s clock, and the controller writes Failed only once no pod is terminating.');
  });
});

describe('a Job whose Failed was taken back for more pods than a reopening names, served', () => {
  it('given p-fail failed at 6:40, then 200 pods running at 0:30 arriving in one batch, then the entry is written naming 100 and counting 200, and the explain route says "and 100 more"', async () => {
    // test/unit/job/reopening-cap.spec.ts at twice the cap (outcome-correction.ts REOPENING_PODS_NAMED).
    // The failure arrives after the creations jobfold expects of the new Job have timed out (5 min),
    // none of them seen: jobfold fails the Job at once.
    const failing = aJob({ backoffLimit: 0, parallelism: 201, completions: 201 });
    const podOf = podOfJob(failing);
    const store = new InMemoryEventStore();
    const service = aService(store);
    await deliverAt(service, at(400), [busEvent('c1', 'Job Observed', { eventId: 'job/1', observedAt: at(0), object: failing }), podOf('p-fail', 1000, at(400), { phase: 'Failed', exitCode: 1, finishedAt: at(399) })]);
    await deliverAt(service, at(401), Array.from({ length: 200 }, (_, i) => podOf(`p${i}`, i + 1, at(30), {})));

    const stream: StreamId = { kind: 'Job', clusterId: 'c1', namespace: 'default', uid: String(failing.metadata.uid) };
    const read = await store.read(stream);
    const corrections = read.entries.filter((e) => e.type === 'JobOutcomeCorrected');
    expect(corrections).toHaveLength(1);
    const evidence = (corrections[0]?.body as { evidence: { pods: { name: string }[]; podCount: number } }).evidence;
    expect(evidence.podCount).toBe(200);
    expect(evidence.pods.map((p) => p.name)).toEqual(Array.from({ length: 100 }, (_, i) => `p${i}`));

    const { status, body } = await queryClient(service)(jobPath('c1', 'default', failing.metadata.name, '/explain'));
    expect(status).toBe(200);
    expect(body.corrections).toEqual([expect.objectContaining({ retracted: ['Failed'], reason: 'BackoffLimitExceeded' })]);
    expect(body.summary).toContain(', p99 and 100 more still running then on the cluster\'s clock');
  });
});

describe('a corrected JobSet outcome, in a log longer than the decisions read', () => {
  it('given the failure corrected to Completed and 30 entries after it, when read with a window of 6, then the correction is cited with both instants', async () => {
    // cluster-clock.spec.ts: b-0 completes at :05, a-0 fails at :10; the failure and the JobSet arrive first.
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], successPolicy: { operator: 'Any' } }, { seconds: 10 });
    const late = givenJobSet(jobFailed('a', 0, { seconds: 10 }), spec, jobSucceeded('b', 0, { seconds: 5 })).whenSettled({ now: jobSetAt(10) });
    const ticks = Array.from({ length: 30 }, (_, i) => ({ type: 'Tick', at: jobSetAt(20 + i) }));
    const log = [...late.log, ...ticks];
    const store = new InMemoryEventStore();
    const stream: StreamId = { kind: 'JobSet', clusterId: 'c1', namespace: 'default', uid: 'js-uid' };
    const entries = log.map((event, i) => ({ eventId: `e${i + 1}`, type: event.type, observedAt: event.at, body: event }));
    await store.commit(stream, { expectedHead: 0, recordedAt: jobSetAt(60), entries, outbox: [] });

    const window = await readJobSetWindow(store, stream, 6);
    expect(window.decisionsFrom).toBe(log.length - 5);
    const corrected = log.findIndex((e) => e.type === 'JobSetOutcomeCorrected') + 1;
    expect(corrected).toBeLessThan(window.decisionsFrom);
    const explained = explainJobSet(window.state, [...window.cited.filter((d) => d.seq < window.decisionsFrom), ...window.decisions]);
    expect(explained.corrections).toEqual([
      expect.objectContaining({ decidedBy: corrected, retracted: ['Failed'], retractedMetAt: jobSetAt(10), reason: 'AllJobsCompleted', metAt: jobSetAt(5) }),
    ]);
  });
});
