import { describe, expect, it } from 'vitest';
import type { InboundError } from '../../../shared/contract/parse-inbound.ts';
import { partitionKeyProblem } from '../../../shared/contract/partition-key.ts';
import { REJECTION_DETAIL_TYPE, REJECTION_SOURCE } from '../../../functions/aws/bus-rejection-sink.ts';
import { timerRecord } from '../../../functions/handlers/writer/timer-record.ts';
import { triageEvent } from '../../../functions/triage/triage-event.ts';
import { triageUndeliveredEvent } from '../../../functions/triage/undelivered-event.ts';
import { aJob, aPod, T0 } from '../../support/builders.ts';
import { podObservedEvent } from '../../support/inbound-events.ts';

// The dead-letter triage of an event the inbound rule could not put into the ingest stream
// (issue 14: stored or refused with its reason, never dead-lettered): judged by the writer's
// own validation, refused with its reasons, or put into the stream again under a key Kinesis takes.

const job = aJob({}, { uid: 'job-uid', name: 'triaged' });
const podEvent = (partitionKey?: unknown) => {
  const event = podObservedEvent(aPod({ name: 'p' }), job, T0) as { detail: Record<string, unknown> };
  if (partitionKey !== undefined) event.detail['partitionKey'] = partitionKey;
  return event;
};
const KINESIS_SAYS = "1 validation error detected: Value at 'partitionKey' failed to satisfy constraint: Member must have length less than or equal to 256";

describe('given an event the ingest stream did not take', () => {
  it.each([
    ['257 characters', 'k'.repeat(257)],
    ['empty', ''],
    ['a number', 42],
    ['a lone surrogate', 'k\uD800'],
  ])('when its partitionKey is %s, then it is refused naming detail.partitionKey, and the stream\'s error', (_name, key) => {
    const decision = triageUndeliveredEvent(JSON.stringify(podEvent(key)), KINESIS_SAYS);
    expect(decision.action).toBe('refuse');
    const errors = decision.action === 'refuse' ? decision.errors : [];
    expect(errors.some((e) => /partitionKey/.test(`${e.path} ${e.message}`))).toBe(true);
    expect(errors.at(-1)).toEqual({ path: '', message: `the ingest stream did not take it: ${KINESIS_SAYS}` });
  });

  it('when it is valid (the stream was throttled for 24 h), then it is put again under its own key', () => {
    const text = JSON.stringify(podEvent('job-uid'));
    expect(triageUndeliveredEvent(text, 'ProvisionedThroughputExceededException')).toEqual({ action: 'redrive', partitionKey: 'job-uid', data: text });
  });

  it('when it is valid and has no partitionKey, then it is put again under its event id, as the rule keys it', () => {
    const event = podEvent();
    expect(triageUndeliveredEvent(JSON.stringify(event), 'throttled')).toMatchObject({ action: 'redrive', partitionKey: (event as unknown as { id: string }).id });
  });

  it('when it is a timer record, then it is put again under its Job\'s uid', () => {
    const text = JSON.stringify(timerRecord({ kind: 'Job', clusterId: 'cluster-a', namespace: 'default', uid: 'job-uid' }, T0));
    expect(triageUndeliveredEvent(text, 'throttled')).toEqual({ action: 'redrive', partitionKey: 'job-uid', data: text });
  });

  it('when it is not JSON, then it is refused saying so', () => {
    expect(triageUndeliveredEvent('{"source":', 'x')).toMatchObject({ action: 'refuse', errors: [{ path: '', message: 'the dead-lettered message is not JSON' }, expect.anything()] });
  });

  it('when it is a rejection the bus could not file, then it is parked with the bus\'s error', () => {
    const text = JSON.stringify({ source: REJECTION_SOURCE, 'detail-type': REJECTION_DETAIL_TYPE, detail: { reason: 'bad' } });
    expect(triageUndeliveredEvent(text, 'SQS throttled')).toEqual({
      action: 'park', reason: 'a rejection the bus could not deliver to the rejected-events queue: SQS throttled',
    });
  });
});

describe('carrying the decision out', () => {
  const ports = (fail?: Error) => {
    const refused: { event: unknown; errors: readonly InboundError[] }[] = [];
    const put: { key: string; data: string }[] = [];
    return {
      refused, put,
      rejections: { reject: async (event: unknown, errors: readonly InboundError[]) => { if (fail) throw fail; refused.push({ event, errors }); } },
      stream: { put: async (key: string, data: string) => { if (fail) throw fail; put.push({ key, data }); } },
    };
  };

  it('refuses into the rejection sink with the original text and the reasons', async () => {
    const p = ports();
    const text = JSON.stringify(podEvent('k'.repeat(300)));
    const outcome = await triageEvent(text, KINESIS_SAYS, p);
    expect(outcome).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^detail\.partitionKey: .*; the ingest stream did not take it/) });
    expect(p.refused).toEqual([{ event: text, errors: expect.any(Array) }]);
  });

  it('redrives into the stream', async () => {
    const p = ports();
    expect(await triageEvent(JSON.stringify(podEvent('job-uid')), 'throttled', p)).toEqual({ outcome: 'redriven', partitionKey: 'job-uid' });
    expect(p.put.map((r) => r.key)).toEqual(['job-uid']);
  });

  it('reports a failure to refuse or redrive, never throws', async () => {
    const p = ports(new Error('bus down'));
    expect(await triageEvent(JSON.stringify(podEvent('job-uid')), 'throttled', p)).toMatchObject({ outcome: 'failed', error: { message: 'bus down' } });
    expect(await triageEvent(JSON.stringify(podEvent('')), 'x', p)).toMatchObject({ outcome: 'failed', error: { message: 'bus down' } });
  });
});

describe('which partition keys Kinesis takes', () => {
  it.each([
    ['k'.repeat(256), undefined],
    ['€'.repeat(256), undefined],
    ['k'.repeat(257), /at most 256 characters/],
    ['\u{1F600}'.repeat(129), /got 258 UTF-16 units/],
    ['', /must not be empty/],
    [42, /must be a string, got number/],
    [null, /got null/],
    ['a\uDC00', /lone UTF-16 surrogate/],
  ])('%j → %s', (key, problem) => {
    const found = partitionKeyProblem(key);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});
