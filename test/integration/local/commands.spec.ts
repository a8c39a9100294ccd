import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { eventually, getJson, useTestStack } from './local-stack-fixture.ts';

// Reconcile, publish and the bus rules run as in AWS: given a Job with a success policy on its
// leader, when the leader succeeds, then the lingering pods' termination commands are published
// to that cluster's list, and the condition change to the conditions list.

const local = useTestStack();

describe('commands of a decided Job', () => {
  it('publishes one Pod Termination Requested per lingering pod to its cluster', async () => {
    const trace = new TraceRecorder(new Date().toISOString(), randomUUID().slice(0, 4));
    const job = trace.job('east-1', 0, 'ml', 'leader', {
      completions: 3, parallelism: 3, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] },
    });
    const pods = [0, 1, 2].map((i) => trace.runPod(job, 0, i));
    trace.exitPod(pods[0]!, 1, 0);
    for (const e of trace.entries) {
      await local.client.send(new PutEventsCommand({ Entries: [{ Source: e.Source, DetailType: e.DetailType, Detail: e.Detail }] }));
    }

    const commands = await eventually(async () => {
      const { body } = await getJson(`${local.stack.url}/local/clusters/east-1/commands`);
      return (body as unknown[]).length >= 2 ? (body as Array<{ detailType: string; time: string; detail: Record<string, unknown> }>) : undefined;
    });

    expect(commands).toHaveLength(2);
    for (const command of commands) {
      expect(command).toMatchObject({
        detailType: 'Pod Termination Requested',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
        detail: { clusterId: 'east-1', namespace: 'ml', jobName: 'leader', jobUid: job.uid, reason: 'SuccessPolicy', cause: 'JobFinishing' },
      });
    }
    expect(commands.map((c) => c.detail['podName']).sort()).toEqual([pods[1]!.name, pods[2]!.name].sort());
    expect((await getJson(`${local.stack.url}/local/clusters/west-1/commands`)).body).toEqual([]);
  });

  it('puts the commands on the cluster\'s SQS queue as EventBridge events, for its forwarder to receive and delete', async () => {
    const sqs = new SQSClient({ endpoint: local.stack.sqsEndpoint, region: local.stack.region, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    try {
      const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: local.stack.queueUrl('east-1'), MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));

      expect(received.Messages).toHaveLength(2);
      for (const message of received.Messages ?? []) {
        expect(JSON.parse(message.Body ?? '')).toMatchObject({ source: 'jobfold.control', 'detail-type': 'Pod Termination Requested', detail: { clusterId: 'east-1' } });
        await sqs.send(new DeleteMessageCommand({ QueueUrl: local.stack.queueUrl('east-1'), ReceiptHandle: message.ReceiptHandle }));
      }
      const again = await sqs.send(new ReceiveMessageCommand({ QueueUrl: local.stack.queueUrl('east-1'), WaitTimeSeconds: 0 }));
      expect(again.Messages ?? []).toEqual([]);
      expect(local.stack.sqs.size('jobfold-east-1-commands')).toBe(0);
    } finally {
      sqs.destroy();
    }
  });

  it('publishes the condition change to /local/conditions, not to the cluster', async () => {
    const changed = await eventually(() => local.stack.deliveries.conditions().find((c) => (c.detail['condition'] as { type: string }).type === 'SuccessCriteriaMet'));

    expect(changed.detail).toMatchObject({ clusterId: 'east-1', job: { name: 'leader' }, condition: { reason: 'SuccessPolicy' } });
    expect(local.stack.commands('east-1').some((c) => c.detailType === 'Job Condition Changed')).toBe(false);
  });

  it('fails the Job on its deadline when the timer fires, and terminates its pod', async () => {
    const trace = new TraceRecorder(new Date().toISOString(), randomUUID().slice(0, 4));
    const job = trace.job('east-1', 0, 'ml', 'short-deadline', { completions: 1, parallelism: 1, activeDeadlineSeconds: 1 });
    const pod = trace.runPod(job, 0, undefined);
    await local.client.send(new PutEventsCommand({ Entries: trace.entries.map(({ Source, DetailType, Detail }) => ({ Source, DetailType, Detail })) }));

    const command = await eventually(() => local.stack.commands('east-1').find((c) => c.detail['jobUid'] === job.uid));

    expect(command.detail).toMatchObject({ podName: pod.name, reason: 'DeadlineExceeded', cause: 'JobFinishing' });
  });
});
