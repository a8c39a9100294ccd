import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { observedEvent, type OutgoingEvent } from '../../forwarder/observation.ts';
import { entrySize, MAX_ENTRY_BYTES } from '../../forwarder/send/batching.ts';
import { DEFAULT_PACK_LIMITS, PackBuffer, packEntries, type PackLimits } from '../../forwarder/send/pack.ts';
import { Packer } from '../../forwarder/send/packer.ts';
import { createBatchSender } from '../../forwarder/send/put-events.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import { decodePack, PACKED_DETAIL_TYPE } from '../../shared/contract/packed-observations.ts';
import { parseInboundRecord } from '../../shared/contract/parse-inbound-record.ts';
import { silentLogger } from '../../forwarder/log.ts';
import { aJob, aPod } from './objects.ts';

// Packing (docs/forwarder.md): pod events of one Job produced close together leave as one
// `Pod Observations` event, each observation exactly as it would have been sent alone.

const job = aJob();
const other = aJob({ name: 'other' });
/** A pod event of `owner`; `noise` adds that many bytes of incompressible annotation. */
function podEvent(n: number, owner = job, noise = 0): OutgoingEvent {
  const pod = aPod(owner, { name: `p-${n}`, index: n });
  if (noise > 0) pod.metadata.annotations = { ...pod.metadata.annotations, 'example.com/noise': incompressible(noise) };
  const result = observedEvent('c1', 'Pod', { ...pod, metadata: { ...pod.metadata, resourceVersion: String(100 + n) } }, '2026-01-01T00:00:10.000Z', { epoch: 1, seq: n });
  if (!result.ok) throw new Error(result.reason);
  return result.event;
}
/** Printable ASCII with no quote or backslash, at random: ~6.5 bits a character, so base64 of its brotli is longer than it. */
const PRINTABLE = Array.from({ length: 0x7f - 0x23 }, (_, i) => String.fromCharCode(0x23 + i)).filter((c) => c !== '\\').join('');
const incompressible = (length: number) => [...randomBytes(length)].map((b) => PRINTABLE[b % PRINTABLE.length]).join('');
const jobEvent = () => {
  const result = observedEvent('c1', 'Job', { ...job, metadata: { ...job.metadata, resourceVersion: '7' } }, '2026-01-01T00:00:10.000Z');
  if (!result.ok) throw new Error(result.reason);
  return result.event;
};
const limits = (overrides: Partial<PackLimits> = {}): PackLimits => ({ ...DEFAULT_PACK_LIMITS, ...overrides });

/** The single events a list of entries carries, in order, as the writer unpacks them. */
function unpacked(entries: readonly OutgoingEvent[]): { detailType: string; detail: unknown }[] {
  return entries.flatMap((e) => {
    if (e.detailType !== PACKED_DETAIL_TYPE) return [{ detailType: e.detailType, detail: JSON.parse(e.detail) as unknown }];
    const pack = decodePack(JSON.parse(e.detail));
    if (!pack.ok) throw new Error(JSON.stringify(pack.errors));
    return (pack.items as { 'detail-type': string; detail: unknown }[]).map((i) => ({ detailType: i['detail-type'], detail: i.detail }));
  });
}
const asSent = (events: readonly OutgoingEvent[]) => events.map((e) => ({ detailType: e.detailType, detail: JSON.parse(e.detail) as unknown }));

afterEach(() => void vi.useRealTimers());

describe('packing one Job\'s pod events', () => {
  it('given pod events of one Job within the window, when it passes, then one pack holds each exactly as sent alone, in order', () => {
    const buffer = new PackBuffer(limits());
    const events = [1, 2, 3, 4].map((n) => podEvent(n));
    expect(events.flatMap((e) => buffer.add(e, 1_000))).toEqual([]);
    expect(buffer.due(1_049)).toEqual([]);
    const [pack, ...rest] = buffer.due(1_050);
    expect(rest).toEqual([]);
    expect(pack).toMatchObject({ detailType: PACKED_DETAIL_TYPE, partitionKey: job.metadata.uid, source: 'jobfold.cluster.c1' });
    expect(pack?.packed?.map((o) => o.eventId)).toEqual(events.map((e) => e.eventId));
    expect(unpacked([pack as OutgoingEvent])).toEqual(asSent(events));
  });

  it('given one pod event alone in its window, then it leaves as the single event it is', () => {
    const buffer = new PackBuffer(limits());
    const event = podEvent(1);
    buffer.add(event, 0);
    expect(buffer.due(50)).toEqual([event]);
  });

  it('given a full count, then the pack leaves at once without waiting for the window', () => {
    const buffer = new PackBuffer(limits({ maxObservations: 3 }));
    const out = [1, 2, 3, 4].flatMap((n) => buffer.add(podEvent(n), 0));
    expect(out.map((e) => e.packed?.length)).toEqual([3]);
    expect(buffer.openObservations).toBe(1);
  });

  it('given events of two Jobs, then each Job gets its own pack', () => {
    const buffer = new PackBuffer(limits());
    [podEvent(1), podEvent(1, other), podEvent(2), podEvent(2, other)].forEach((e) => buffer.add(e, 0));
    expect(buffer.drain().map((e) => e.partitionKey)).toEqual([job.metadata.uid, other.metadata.uid]);
  });

  it('given an event that cannot be packed, then the open packs leave before it, keeping the order', () => {
    const buffer = new PackBuffer(limits());
    const pods = [podEvent(1), podEvent(2)];
    pods.forEach((e) => buffer.add(e, 0));
    const out = buffer.add(jobEvent(), 1);
    expect(out.map((e) => e.detailType)).toEqual([PACKED_DETAIL_TYPE, 'Job Observed']);
    expect(unpacked(out).map((u) => u.detailType)).toEqual(['Pod Observed', 'Pod Observed', 'Job Observed']);
  });

  it('given a pack exactly at the entry limit it goes as one; one byte past, it is split and nothing is cut', () => {
    const events = [1, 2, 3, 4, 5].map((n) => podEvent(n, job, 2_000));
    const [whole] = packEntries(events, MAX_ENTRY_BYTES);
    const at = entrySize(whole as OutgoingEvent);
    expect(packEntries(events, at)).toHaveLength(1);
    const split = packEntries(events, at - 1);
    expect(split.length).toBeGreaterThan(1);
    for (const entry of split) expect(entrySize(entry)).toBeLessThanOrEqual(at - 1);
    expect(unpacked(split)).toEqual(asSent(events));
  });

  it('given twice a full entry of incompressible observations, then several packs under 256 KiB carry every one once, in order', () => {
    const buffer = new PackBuffer(limits());
    const events = Array.from({ length: 40 }, (_, n) => podEvent(n, job, 12_000)); // ~2 × 254 KiB once encoded
    const out = [...events.flatMap((e) => buffer.add(e, 0)), ...buffer.drain()];
    expect(out.length).toBeGreaterThanOrEqual(3);
    for (const entry of out) expect(entrySize(entry)).toBeLessThanOrEqual(DEFAULT_PACK_LIMITS.maxEntryBytes);
    expect(unpacked(out)).toEqual(asSent(events));
  });

  it('given one observation too big for any pack, then it leaves alone as today\'s single event', () => {
    const big = podEvent(1, job, 250_000); // fits an entry alone, but not compressed and base64'd in a pack
    expect(entrySize(big)).toBeLessThanOrEqual(DEFAULT_PACK_LIMITS.maxEntryBytes);
    const events = [podEvent(0), big, podEvent(2)];
    const out = packEntries(events, DEFAULT_PACK_LIMITS.maxEntryBytes);
    expect(out).toContain(big);
    expect(unpacked(out)).toEqual(asSent(events));
    for (const entry of out) expect(entrySize(entry)).toBeLessThanOrEqual(DEFAULT_PACK_LIMITS.maxEntryBytes);
  });

  it('given a pack, when the writer parses it, then it yields the observations of its Job and refuses none', () => {
    const events = [1, 2, 3].map((n) => podEvent(n));
    const [pack] = packEntries(events, MAX_ENTRY_BYTES);
    const parsed = parseInboundRecord({ source: pack?.source, 'detail-type': pack?.detailType, detail: JSON.parse(pack?.detail ?? '') });
    expect(parsed.ok && parsed.primary.map((t) => t.entry.eventId)).toEqual(events.map((e) => e.eventId));
    expect(parsed.ok && parsed.refused).toEqual([]);
  });
});

describe('the packer', () => {
  it('given pod events, when the window passes, then the pack goes to the pipeline; with window 0 each goes at once', () => {
    vi.useFakeTimers();
    const sent: OutgoingEvent[] = [];
    const packer = new Packer({ sink: (e) => sent.push(e), limits: limits({ windowMs: 20 }), now: () => Date.now() });
    packer.submit(podEvent(1));
    packer.submit(podEvent(2));
    vi.advanceTimersByTime(19);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent.map((e) => e.packed?.length)).toEqual([2]);
    const direct: OutgoingEvent[] = [];
    new Packer({ sink: (e) => direct.push(e), limits: limits({ windowMs: 0 }) }).submit(podEvent(3));
    expect(direct).toHaveLength(1);
  });

  it('counts packs sent and the observations in them', async () => {
    const metrics = new Metrics();
    const client = { send: async (c: { input: { Entries: unknown[] } }) => ({ Entries: c.input.Entries.map(() => ({ EventId: 'x' })) }) };
    const send = createBatchSender({ client: client as unknown as EventBridgeClient, eventBusName: 'b', policy: { maxAttempts: 1, baseMs: 1, maxMs: 1 }, metrics, log: silentLogger });
    await send([...packEntries([1, 2, 3].map((n) => podEvent(n)), MAX_ENTRY_BYTES), podEvent(4)]);
    expect(metrics.get('forwarder_packs_sent_total')).toBe(1);
    expect(metrics.get('forwarder_packed_observations_total')).toBe(3);
    expect(metrics.get('forwarder_events_sent_total')).toBe(2);
  });
});
