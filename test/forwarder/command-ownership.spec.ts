import { afterEach, describe, expect, it } from 'vitest';
import { terminatePod } from './commands.ts';
import { DLQ, eventually, QUEUE, startHarness, type Harness } from './harness.ts';
import { aJob, aPod } from './objects.ts';

// Issue 14 §7: the forwarder deletes a pod only for the Job that controls it, in the command's
// namespace (and the namespace it watches); anything else is refused with a log line, a metric
// and a dead letter. Against the fake API server.

let h: Harness;
afterEach(async () => {
  await h.close();
});

const queueEmpty = () => expect(h.sqs.pending(QUEUE)).toEqual([]);
const deadLetterReasons = () => h.sqs.pending(DLQ).map((m) => m.attributes.reason?.StringValue);

describe('TerminatePod for a pod that is not the command’s Job’s', () => {
  it('refuses a pod controlled by another Job, keeping it, with a log line, a metric and a dead letter', async () => {
    h = await startHarness();
    const mine = h.kube.store.create('jobs', aJob({ name: 'mine' }));
    const other = h.kube.store.create('jobs', aJob({ name: 'other' }));
    const victim = h.kube.store.create('pods', aPod(other, { name: 'other-a' }));
    // A forged command: Job "mine" asks to delete the other Job's pod (by its real name and uid).
    h.sqs.send(QUEUE, terminatePod(mine, victim));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'other-a')?.metadata.uid).toBe(victim.metadata.uid);
    expect(h.kube.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(deadLetterReasons()).toEqual(['pod-not-owned-by-job']);
    expect(h.metrics.get('forwarder_commands_refused_total', { type: 'TerminatePod', reason: 'pod-not-owned-by-job' })).toBe(1);
    expect(h.logs).toContainEqual(expect.objectContaining({ msg: 'command refused', reason: 'pod-not-owned-by-job' }));
  });

  it('refuses a pod with no controller and another Job’s controller-uid label', async () => {
    h = await startHarness();
    const mine = h.kube.store.create('jobs', aJob({ name: 'mine' }));
    const other = h.kube.store.create('jobs', aJob({ name: 'other' }));
    const pod = aPod(other, { name: 'loose' });
    delete pod.metadata.ownerReferences;
    const stored = h.kube.store.create('pods', pod);
    h.sqs.send(QUEUE, terminatePod(mine, stored));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'loose')).toBeDefined();
    expect(deadLetterReasons()).toEqual(['pod-not-owned-by-job']);
  });

  it('deletes a pod whose only tie to the Job is the controller-uid label', async () => {
    h = await startHarness();
    const job = h.kube.store.create('jobs', aJob({ name: 'mine' }));
    const pod = aPod(job, { name: 'labelled' });
    delete pod.metadata.ownerReferences;
    const stored = h.kube.store.create('pods', pod);
    h.sqs.send(QUEUE, terminatePod(job, stored));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'labelled')).toBeUndefined();
    expect(deadLetterReasons()).toEqual([]);
  });

  it('refuses a command for a namespace the forwarder does not watch', async () => {
    h = await startHarness({ namespace: 'team-a' });
    const job = h.kube.store.create('jobs', aJob({ name: 'mine' }));
    const pod = h.kube.store.create('pods', aPod(job, { name: 'elsewhere' }));
    h.sqs.send(QUEUE, terminatePod(job, pod));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'elsewhere')).toBeDefined();
    expect(deadLetterReasons()).toEqual(['outside-watched-namespace']);
    expect(h.metrics.get('forwarder_commands_refused_total', { type: 'TerminatePod', reason: 'outside-watched-namespace' })).toBe(1);
  });
});
