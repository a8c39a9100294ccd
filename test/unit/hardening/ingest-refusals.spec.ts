import { describe, expect, it } from 'vitest';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import { fitRejection, MAX_ENTRY_BYTES } from '../../../functions/aws/fit-rejection.ts';
import { checkEntry, jsonDepth } from '../../../local/bus/put-events-request.ts';
import { aJob, aPod, T0 } from '../../support/builders.ts';
import { podObservedEvent } from '../../support/inbound-events.ts';

// Issue 14 §4 and §3 of "What to build": every inbound event is stored or refused with its
// reason; validation at ingest matches what the store can hold; refusals fit their sink.

const LONE = '\uD800';
const job = aJob({}, { uid: 'refusals-job', name: 'refusals' });
const pod = aPod({ name: 'p' });
const valid = () => JSON.parse(JSON.stringify(podObservedEvent(pod, job, T0))) as Record<string, any>;

function refusal(event: unknown) {
  const result = parseInbound(event);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.errors;
}

describe('ingest refuses what the store cannot hold, naming the field', () => {
  it.each([
    ['a lone surrogate in the namespace', (e: any) => { e.detail.object.metadata.namespace = `ns${LONE}`; }, 'detail.object.metadata.namespace'],
    ['a lone surrogate in the owner uid', (e: any) => { e.detail.object.metadata.ownerReferences[0].uid = `u${LONE}`; }, 'detail.object.metadata.ownerReferences[0].uid'],
    ['a lone surrogate in the eventId', (e: any) => { e.detail.eventId = `id${LONE}`; }, 'detail.eventId'],
    ['a lone low surrogate in a label value', (e: any) => { e.detail.object.metadata.labels = { a: '\uDC00x' }; }, 'detail.object.metadata.labels.a'],
    ['a lone surrogate in a key', (e: any) => { e.detail.object.metadata.labels = { [`k${LONE}`]: 'v' }; }, /detail\.object\.metadata\.labels\.k\uFFFD/],
    ['a lone surrogate in an unknown top-level key', (e: any) => { e[`x${LONE}`] = 1; }, /^x\uFFFD$/],
  ])('%s', (_name, mutate, path) => {
    const event = valid();
    mutate(event);
    const [error] = refusal(event);
    expect(error?.path).toEqual(typeof path === 'string' ? path : expect.stringMatching(path));
    expect(error?.message).toMatch(/lone UTF-16 surrogate/);
    expect(error?.path.isWellFormed()).toBe(true);
  });

  it('refuses an eventId of 256 characters but 768 bytes (issue 14 §4)', () => {
    const event = valid();
    event['detail'].eventId = '€'.repeat(256);
    expect(refusal(event)).toContainEqual({ path: 'detail.eventId', message: 'must be at most 512 bytes of UTF-8' });
  });

  it('accepts an eventId of exactly 512 bytes, refuses 513', () => {
    const at512 = valid();
    at512['detail'].eventId = `${'€'.repeat(170)}ab`; // 510 + 2 bytes, 172 characters
    expect(parseInbound(at512).ok).toBe(true);
    const at513 = valid();
    at513['detail'].eventId = `${'€'.repeat(170)}abc`; // 510 + 3 = 513 bytes, 173 characters
    expect(refusal(at513)).toContainEqual({ path: 'detail.eventId', message: 'must be at most 512 bytes of UTF-8' });
  });

  it('refuses an owner uid from the controller-uid label longer than 128 bytes', () => {
    const event = valid();
    delete event['detail'].object.metadata.ownerReferences;
    event['detail'].object.metadata.labels = { 'batch.kubernetes.io/controller-uid': 'u'.repeat(200) };
    // Label values are bounded at 63 by metadata validation; either refusal names the owner.
    expect(refusal(event)[0]?.path).toMatch(/detail\.object\.metadata/);
  });

  it('refuses a container name longer than a DNS label (63)', () => {
    const event = valid();
    event['detail'].object.status.containerStatuses[0].name = 'c'.repeat(150_000);
    expect(refusal(event).map((e) => e.path)).toContain('detail.object.status.containerStatuses[0].name');
  });

  it('accepts well-formed astral characters (surrogate pairs) in annotations', () => {
    const event = valid();
    event['detail'].object.metadata.annotations = { emoji: '😀' };
    expect(parseInbound(event).ok).toBe(true);
  });
});

describe('fitRejection', () => {
  const limit = MAX_ENTRY_BYTES - 1024;
  it.each([
    ['a 300 KB original', 'x'.repeat(300_000), 1],
    ['an original of quotes and control characters (6 bytes each in JSON)', '"\u0001'.repeat(100_000), 1],
    ['an original of astral characters', '😀'.repeat(100_000), 1],
    ['40 errors of 10 KB each', 'y'.repeat(100_000), 40],
  ])('cuts the whole rejection to fit one entry, by bytes, saying so: %s', (_name, original, count) => {
    const errors = Array.from({ length: count }, (_, i) => ({ path: `p${i}`, message: 'm'.repeat(count > 1 ? 10_000 : 10) }));
    const text = fitRejection(original, errors);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
    const detail = JSON.parse(text);
    expect(detail.truncated).toBe(true);
    expect(original.startsWith(detail.original)).toBe(true);
    expect(detail.errors.length).toBeGreaterThan(0);
    expect(detail.reason).not.toBe('');
  });

  it('cuts a long error from its middle, keeping the field it names and why', () => {
    // given the refusal of a pod name of 100 KB, which upstream's message quotes whole
    const name = 'p'.repeat(100_000);
    const message = `metadata.name: Invalid value: "${name}": must be no more than 253 characters`;

    // when it is fitted into a rejection
    const detail = JSON.parse(fitRejection('{}', [{ path: 'detail.object.metadata.name', message }]));

    // then the message and the reason start with the field and end with why, in at most ~1 KiB
    for (const text of [detail.errors[0].message, detail.reason]) {
      expect(text).toMatch(/^(detail\.object\.metadata\.name: )?metadata\.name: Invalid value: "p+… \(truncated: \d+ characters\) …p+": must be no more than 253 characters$/);
    }
    expect(detail.errors[0].message.length).toBeLessThan(1100);
    expect(detail.truncated).toBe(true);
  });

  it('never splits a surrogate pair where it cuts an error', () => {
    const detail = JSON.parse(fitRejection('{}', [{ path: 'p', message: '😀'.repeat(5_000) }]));
    expect(detail.errors[0].message).toMatch(/^(😀)+… \(truncated: \d+ characters\) …(😀)+$/u);
  });

  it('keeps a small rejection whole', () => {
    const detail = JSON.parse(fitRejection('{}', [{ path: 'source', message: 'bad' }]));
    expect(detail).toEqual({ errors: [{ path: 'source', message: 'bad' }], reason: 'source: bad', truncated: false, original: '{}' });
  });
});

describe('the local bus', () => {
  it('refuses a Detail nested 100,000 levels deep at PutEvents, as EventBridge does past 1000', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const result = checkEntry({ Source: 'jobfold.cluster.a', DetailType: 'Pod Observed', Detail: deep });
    expect(result).toEqual({ ok: false, errorCode: 'MalformedDetail', errorMessage: expect.stringMatching(/100000 levels deep.*up to 1000 levels/) });
  });

  it('accepts 1000 levels and measures depth outside strings only', () => {
    expect(checkEntry({ Source: 's', DetailType: 'd', Detail: `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}` }).ok).toBe(true);
    expect(jsonDepth('{"a":"{{{[[[\\"{{"}')).toBe(1);
  });
});
