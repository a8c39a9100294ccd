import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBridgeClientFor } from '../../forwarder/aws-clients.ts';
import { silentLogger } from '../../forwarder/log.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import type { OutgoingEvent } from '../../forwarder/observation.ts';
import { entrySize, MAX_REQUEST_BYTES } from '../../forwarder/send/batching.ts';
import { EventPipeline } from '../../forwarder/send/pipeline.ts';
import { createBatchSender, type RetryPolicy } from '../../forwarder/send/put-events.ts';
import { Spool } from '../../forwarder/send/spool.ts';
import { someEvents } from './events.ts';
import { FakeEventBridge } from './fake-event-bridge.ts';
import { eventually } from './harness.ts';

const POLICY: RetryPolicy = { maxAttempts: 3, baseMs: 8, maxMs: 100 };

let bus: FakeEventBridge;
let dir: string;
beforeEach(async () => {
  bus = await FakeEventBridge.start();
  dir = await mkdtemp(join(tmpdir(), 'jobfold-send-'));
});
afterEach(async () => {
  await bus.close();
  await rm(dir, { recursive: true, force: true });
});

function sender(overrides: { sleeps?: number[]; random?: () => number; metrics?: Metrics } = {}) {
  const metrics = overrides.metrics ?? new Metrics();
  const send = createBatchSender({
    client: eventBridgeClientFor({ eventsEndpoint: bus.url, region: 'us-east-1' }, {}),
    eventBusName: 'jobfold',
    policy: POLICY,
    metrics,
    log: silentLogger,
    random: overrides.random ?? Math.random,
    sleep: async (ms) => void overrides.sleeps?.push(ms),
  });
  return { send, metrics };
}

async function pipeline(options: { maxBytes?: number; onOverflow?: (e: readonly OutgoingEvent[]) => void; durable?: OutgoingEvent[] } = {}) {
  const metrics = new Metrics();
  const spool = await Spool.open({ dir, maxBytes: options.maxBytes ?? 1024 * 1024, log: silentLogger });
  const { send } = sender({ metrics });
  const p = new EventPipeline({
    send,
    spool,
    metrics,
    log: silentLogger,
    memoryLimit: 1000,
    replayBackoff: { baseMs: 5, maxMs: 20 },
    rejectedFile: join(dir, 'rejected.jsonl'),
    onDurable: (events) => void options.durable?.push(...events),
    ...(options.onOverflow ? { onOverflow: options.onOverflow } : {}),
  });
  p.start();
  return { pipeline: p, metrics, spool };
}

describe('Sending events to EventBridge', () => {
  it('never exceeds 10 entries or 1 MiB in one call', async () => {
    const { pipeline: p } = await pipeline();
    for (const event of [...someEvents(23), ...someEvents(6, 240 * 1024)]) p.submit(event);
    await p.whenIdle();
    await p.stop();
    expect(bus.delivered).toHaveLength(29);
    for (const call of bus.calls) {
      expect(call.entries.length).toBeLessThanOrEqual(10);
      const bytes = call.entries.reduce((sum, e) => sum + entrySize({ source: e.Source, detailType: e.DetailType, detail: e.Detail } as OutgoingEvent), 0);
      expect(bytes).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
    }
  });

  it('retries throttled calls after growing, jittered delays', async () => {
    const sleeps: number[] = [];
    const randoms = [0.9, 0.1];
    const { send, metrics } = sender({ sleeps, random: () => randoms.shift() ?? 0.5 });
    bus.throttleNext(2);

    const outcome = await send(someEvents(3));

    expect(outcome.sent).toHaveLength(3);
    expect(bus.calls.map((c) => c.outcome)).toEqual(['throttled', 'throttled', 'ok']);
    // Equal jitter: retry n waits between half and all of base * 2^n.
    expect(sleeps).toEqual([Math.round(4 + 0.9 * 4), Math.round(8 + 0.1 * 8)]);
    expect(metrics.total('forwarder_put_events_retries_total')).toBe(2);
  });

  it('resends only the entries that failed, in their order', async () => {
    const { send } = sender({ sleeps: [] });
    bus.failEntries(2, 'InternalFailure', (e) => ['e1', 'e3'].includes(JSON.parse(e.Detail).eventId));

    const outcome = await send(someEvents(5));

    expect(outcome.failed).toEqual([]);
    expect(bus.calls[1]?.entries.map((e) => JSON.parse(e.Detail).eventId)).toEqual(['e1', 'e3']);
    expect(bus.eventIds()).toEqual(['e0', 'e2', 'e4', 'e1', 'e3']);
  });

  it('reports what still fails after the last attempt', async () => {
    const { send } = sender({ sleeps: [] });
    bus.failNext(3);

    const outcome = await send(someEvents(2));

    expect(outcome.failed.map((e) => e.eventId)).toEqual(['e0', 'e1']);
    expect(outcome.lastError).toMatch(/InternalException/);
  });

  it('keeps an entry EventBridge refuses for good in rejected.jsonl, and counts it', async () => {
    const { pipeline: p, metrics } = await pipeline();
    bus.failEntries(1, 'MalformedDetail', (e) => JSON.parse(e.Detail).eventId === 'e1');
    for (const event of someEvents(3)) p.submit(event);
    await p.whenIdle();
    await p.stop();

    expect(bus.eventIds()).toEqual(['e0', 'e2']);
    expect(metrics.get('forwarder_events_rejected_total', { code: 'MalformedDetail' })).toBe(1);
    const rejected = (await readFile(join(dir, 'rejected.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rejected).toMatchObject([{ code: 'MalformedDetail', event: { eventId: 'e1' } }]);
  });
});

describe('Spooling', () => {
  it('spools events while EventBridge fails and replays them in order when it recovers', async () => {
    const durable: OutgoingEvent[] = [];
    const { pipeline: p, metrics, spool } = await pipeline({ durable });
    bus.down();
    for (const event of someEvents(25)) p.submit(event);

    await eventually(() => expect(spool.count).toBe(25));
    expect(p.spooling).toBe(true);
    expect(metrics.get('forwarder_spooling')).toBe(1);
    expect(durable).toHaveLength(25);
    bus.up();

    await eventually(() => expect(bus.eventIds()).toEqual(someEvents(25).map((e) => e.eventId)));
    await p.whenIdle();
    expect(p.spooling).toBe(false);
    expect(metrics.total('forwarder_events_replayed_total')).toBe(25);
    await p.stop();
  });

  it('replays the spool after a restart', async () => {
    const first = await pipeline();
    bus.down();
    for (const event of someEvents(12)) first.pipeline.submit(event);
    await eventually(() => expect(first.spool.count).toBe(12));
    await first.pipeline.stop();
    bus.up();

    const second = await pipeline();
    expect(second.pipeline.spooling).toBe(true);
    second.pipeline.submit(someEvents(13)[12] as OutgoingEvent);

    await eventually(() => expect(bus.uniqueEventIds()).toEqual(someEvents(13).map((e) => e.eventId)));
    await second.pipeline.stop();
  });

  it('spools what is still in memory when stopped, so nothing waits only in memory', async () => {
    const first = await pipeline();
    bus.down();
    for (const event of someEvents(3)) first.pipeline.submit(event);
    await first.pipeline.stop();

    const reopened = await Spool.open({ dir, maxBytes: 1024 * 1024, log: silentLogger });
    expect(reopened.count).toBe(3);
    await reopened.close();
  });

  it('says so loudly when the spool is full: a metric, and the events handed to onOverflow', async () => {
    const overflowed: OutgoingEvent[] = [];
    const { pipeline: p, metrics } = await pipeline({ maxBytes: 8 * 1024, onOverflow: (e) => void overflowed.push(...e) });
    bus.down();
    for (const event of someEvents(60, 400)) p.submit(event);

    await eventually(() => expect(overflowed.length).toBeGreaterThan(0));
    expect(metrics.total('forwarder_spool_overflow_events_total')).toBe(overflowed.length);
    await p.stop();
  });
});
