import { describe, expect, it } from 'vitest';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { eventually, getJson, useTestStack } from './local-stack-fixture.ts';

// POST /events speaks EventBridge's PutEvents: the SDK client works against it unchanged, entries
// are validated as EventBridge validates them, and accepted cluster events reach the ingest stream.

const local = useTestStack();

const entry = (detail: unknown = { eventId: 'e', observedAt: '2026-01-01T00:00:00Z', object: {} }) => ({
  Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed', Detail: JSON.stringify(detail),
});

describe('PutEvents through the SDK', () => {
  it('accepts a Job observation and ingests it, so the query API lists the Job', async () => {
    const trace = new TraceRecorder('2026-01-01T00:00:00Z');
    trace.job('c1', 0, 'default', 'put-through-sdk', { completions: 1, parallelism: 1 });
    const [{ Source, DetailType, Detail }] = trace.entries as [typeof trace.entries[number]];

    const output = await local.client.send(new PutEventsCommand({ Entries: [{ Source, DetailType, Detail }] }));

    expect(output.FailedEntryCount).toBe(0);
    expect(output.Entries?.[0]?.EventId).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await eventually(async () => {
      const { body } = await getJson(`${local.stack.url}/v1/jobs?cluster=c1`);
      const items = (body as { items: Array<{ name: string }> }).items;
      return items.some((i) => i.name === 'put-through-sdk') ? items : undefined;
    });
    expect(listed.map((i) => i.name)).toContain('put-through-sdk');
  });

  it('fails only the invalid entries, each with its ErrorCode and ErrorMessage', async () => {
    const output = await local.client.send(new PutEventsCommand({
      Entries: [
        entry(),
        { Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed' },
        { DetailType: 'Pod Observed', Detail: '{}' },
        { Source: 'jobfold.cluster.c1', Detail: '{}' },
        { Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed', Detail: '{"not": json' },
        { Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed', Detail: '[1, 2]' },
      ],
    }));

    expect(output.FailedEntryCount).toBe(5);
    expect(output.Entries?.map((e) => e.ErrorCode ?? 'ok')).toEqual(
      ['ok', 'InvalidArgument', 'InvalidArgument', 'InvalidArgument', 'MalformedDetail', 'MalformedDetail'],
    );
    expect(output.Entries?.[1]?.ErrorMessage).toBe('Parameter Detail is not valid. Reason: Detail is a required argument.');
  });

  it('refuses a call of more than 10 entries as a whole with a ValidationException', async () => {
    const call = local.client.send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => entry()) }));

    await expect(call).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
  });

  it('refuses entries over 256 KiB in total with a ValidationException', async () => {
    const big = entry({ eventId: 'big', observedAt: '2026-01-01T00:00:00Z', object: { pad: 'x'.repeat(256 * 1024) } });

    await expect(local.client.send(new PutEventsCommand({ Entries: [big] }))).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('sends an accepted event that jobfold refuses to /local/rejected with its reasons', async () => {
    await local.client.send(new PutEventsCommand({ Entries: [entry({ eventId: 'spoof', observedAt: '2026-01-01T00:00:00Z', clusterId: 'c2', object: {} })] }));

    const rejected = await eventually(() => local.stack.rejected().find((r) => (r.original as { detail?: { eventId?: string } }).detail?.eventId === 'spoof'));
    expect(rejected.reason).toContain('detail.clusterId');
    const { body } = await getJson(`${local.stack.url}/local/rejected`);
    expect(body).toContainEqual(expect.objectContaining({ id: rejected.id, reason: rejected.reason }));
  });
});

describe('malformed requests', () => {
  const post = (body: string, target = 'AWSEvents.PutEvents') => fetch(`${local.stack.eventsUrl}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
    body,
  });

  it('answers a body that is not JSON with 400 and an AWS error body', async () => {
    const response = await post('{nope');

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ __type: 'SerializationException', message: expect.any(String) });
  });

  it('answers another operation with 400 UnknownOperationException', async () => {
    const response = await post('{}', 'AWSEvents.ListRules');

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });

  it('answers a request without Entries with 400 ValidationException', async () => {
    const response = await post('{}');

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'ValidationException' });
  });
});
