import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../../cdk/constructs/secure-queue.ts';
import { COMMAND_MAX_RECEIVES } from '../../forwarder/commands/command-consumer.ts';
import { readConfig } from '../../forwarder/config.ts';
import { terminatePod } from './commands.ts';
import { DLQ, eventually, QUEUE, startHarness, type Harness } from './harness.ts';
import { aJob, aPod } from './objects.ts';

// Issue 14: a command the forwarder cannot apply after its retries lands in the cluster's DLQ
// with the error that kept it from applying, not bare (as the queue's redrive policy would
// move it). The local runtime's queues have no redrive policy, so this is what dead-letters
// commands locally too.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const attribute = (name: string) => h?.sqs.pending(DLQ)[0]?.attributes[name]?.StringValue;

describe('Given a command whose API call fails on every receive', () => {
  it('is dead-lettered on its last receive with retries-exhausted and the last error', async () => {
    h = await startHarness({ maxReceives: 3 });
    const job = h.kube.store.create('jobs', aJob());
    const pod = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.kube.failNext('DELETE', /\/pods\/job-a$/, 503, 100);
    const message = h.sqs.send(QUEUE, terminatePod(job, pod));

    await eventually(() => {
      expect(h?.sqs.pending(DLQ)).toHaveLength(1);
      expect(h?.sqs.pending(QUEUE)).toEqual([]);
    }, 10_000);

    expect(message.deletedOnDelivery).toBe(3);
    expect(h.sqs.pending(DLQ)[0]?.body).toBe(message.body);
    expect(attribute('reason')).toBe('retries-exhausted');
    expect(attribute('detail')).toMatch(/^failed on 3 receives; last error: .*503/);
    expect(attribute('receiveCount')).toBe('3');
    expect(attribute('sourceMessageId')).toBe(message.messageId);
    expect(h.metrics.get('forwarder_dead_letters_total', { reason: 'retries-exhausted' })).toBe(1);
    expect(h.metrics.get('forwarder_commands_total', { type: 'TerminatePod', outcome: 'transient' })).toBe(2);
    expect(h.metrics.get('forwarder_commands_total', { type: 'TerminatePod', outcome: 'dead-lettered' })).toBe(1);
    expect(h.logs.some((l) => l.msg === 'command failed on its last receive; dead-lettered with its error')).toBe(true);
    expect(h.kube.store.get('pods', 'default', 'job-a')).toBeDefined();
  });

  it('is still applied when the API recovers before the last receive', async () => {
    h = await startHarness({ maxReceives: 3 });
    const job = h.kube.store.create('jobs', aJob());
    const pod = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.kube.failNext('DELETE', /\/pods\/job-a$/, 503, 2);
    const message = h.sqs.send(QUEUE, terminatePod(job, pod));

    await eventually(() => expect(h?.sqs.pending(QUEUE)).toEqual([]), 10_000);

    expect(message.deletedOnDelivery).toBe(3);
    expect(h.sqs.pending(DLQ)).toEqual([]);
    expect(h.kube.store.get('pods', 'default', 'job-a')).toBeUndefined();
  });
});

describe('The forwarder\'s last receive', () => {
  it('defaults to the command queue\'s redrive maxReceiveCount, and can be set', () => {
    expect(COMMAND_MAX_RECEIVES).toBe(MAX_RECEIVE_COUNT);
    const parsed = readConfig(['--cluster-id', 'c1'], {});
    expect(parsed.kind === 'config' && parsed.config.maxReceives).toBe(MAX_RECEIVE_COUNT);
    const set = readConfig(['--cluster-id', 'c1'], { JOBFOLD_MAX_RECEIVES: '8' });
    expect(set.kind === 'config' && set.config.maxReceives).toBe(8);
    expect(readConfig(['--cluster-id', 'c1', '--max-receives', '0'], {}).kind).toBe('error');
  });
});
