import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { triageMessage } from '../../../functions/handlers/triage-handler.ts';
import { parkedBody } from '../../../functions/triage/parked-entry.ts';
import { formatRedrive, redriveParked } from '../../../functions/triage/redrive-parked.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import { onFailureBody, triageWorld, withOutage, type TriageWorld } from '../../support/triage-harness.ts';
import { NoMarkersStore, sampleEvents, statusOf } from '../writer/write-support.ts';
import type { ParkedMessage } from '../../../shared/contract/dead-letters.ts';
import type { ParkedQueue } from '../../../shared/ports.ts';

// `jobfold admin redrive` (issue 24): what the triage parked after a store outage goes back
// through the writer's code once the outage is over, exactly once in effect, with a dry run.

logger.setLogLevel('SILENT');
const events = sampleEvents('samples/named-failure.jsonl');
const job: StreamId = { kind: 'Job', clusterId: 'dev-eu-1', namespace: 'default', uid: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };

/** An SQS queue in memory: received messages are invisible until deleted or released. */
class MemoryQueue implements ParkedQueue {
  readonly visible: ParkedMessage[];
  readonly deleted: ParkedMessage[] = [];
  constructor(bodies: readonly string[]) {
    this.visible = bodies.map((body, i) => ({ id: `m-${i}`, body }));
  }
  async receive() { return this.visible.splice(0, 10); }
  async delete(message: ParkedMessage) { this.deleted.push(message); }
  async release(message: ParkedMessage) { this.visible.push(message); }
}

/** A store outage on the triage's last receive: every record of the sample parked (WriteFailed). */
async function parkedDuringOutage(): Promise<{ world: TriageWorld; store: NoMarkersStore; down: (value: boolean) => void; bodies: string[] }> {
  const inner = new NoMarkersStore();
  const { store, down } = withOutage(inner);
  const world = triageWorld(store);
  const sequenceNumbers = events.map((e) => world.shard.put(job.uid, JSON.stringify(e)));
  down(true);
  await triageMessage(world.deps, { body: onFailureBody(sequenceNumbers[0]!, sequenceNumbers.at(-1)!, events.length), receiveCount: 5 });
  return { world, store: inner, down, bodies: world.parked.map((entry) => parkedBody(entry)) };
}

/** The ingest stream, as the writer Lambda consumes it: each record put is written by the writer's code. */
function streamInto(world: TriageWorld) {
  const put: string[] = [];
  return {
    put,
    stream: {
      put: async (_key: string, data: string) => {
        put.push(data);
        const failures = await world.deps.write(kinesisEvent([data]).Records);
        if (failures.length > 0) throw new Error(String(failures[0]!.error));
      },
    },
  };
}

describe('given the records the triage parked during a store outage', () => {
  it('when the outage is over, redrive writes every record through the writer and empties the queue', async () => {
    const { world, store, down, bodies } = await parkedDuringOutage();
    expect(bodies).toHaveLength(events.length);
    expect((await store.read(job)).entries).toEqual([]);
    down(false);
    const queue = new MemoryQueue(bodies);
    const { stream } = streamInto(world);
    const summary = await redriveParked({ queue, stream }, { dryRun: false });
    expect(summary.counts).toEqual({ redriven: events.length, refused: 0, left: 0, failed: 0 });
    expect(queue.visible).toEqual([]);
    expect(queue.deleted).toHaveLength(events.length);
    expect((await statusOf(store, job)).failed).toBe(5);
    expect(formatRedrive(summary).split('\n').at(-1)).toBe(`${events.length} parked messages: ${events.length} redriven, 0 refused by the writer's validation, 0 left (not records this command redrives), 0 failed`);
  });

  it('when redrive runs again on the same messages (a crash between the put and the delete), the log holds each record once', async () => {
    const { world, store, down, bodies } = await parkedDuringOutage();
    down(false);
    await redriveParked({ queue: new MemoryQueue(bodies), stream: streamInto(world).stream }, { dryRun: false });
    const once = (await store.read(job)).entries.map((e) => e.eventId);
    await redriveParked({ queue: new MemoryQueue(bodies), stream: streamInto(world).stream }, { dryRun: false });
    const twice = (await store.read(job)).entries.map((e) => e.eventId);
    expect(twice).toEqual(once);
    expect(new Set(twice).size).toBe(twice.length);
  });

  it('when it is a dry run, nothing is put or deleted and every message is visible again', async () => {
    const { world, store, down, bodies } = await parkedDuringOutage();
    down(false);
    const queue = new MemoryQueue(bodies);
    const { stream, put } = streamInto(world);
    const summary = await redriveParked({ queue, stream }, { dryRun: true });
    expect(summary.counts.redriven).toBe(events.length);
    expect(put).toEqual([]);
    expect(queue.deleted).toEqual([]);
    expect(queue.visible).toHaveLength(events.length);
    expect((await store.read(job)).entries).toEqual([]);
    expect(formatRedrive(summary)).toMatch(/would be redriven, .*\(dry run: nothing put, nothing deleted\)$/);
  });

  it('when the stream is still failing, the message stays and the summary counts it failed', async () => {
    const { world, down, bodies } = await parkedDuringOutage();
    const queue = new MemoryQueue(bodies.slice(0, 1));
    const summary = await redriveParked({ queue, stream: streamInto(world).stream }, { dryRun: false });
    expect(summary.counts).toMatchObject({ redriven: 0, failed: 1 });
    expect(queue.visible).toHaveLength(1);
    down(false);
  });
});

describe('given parked messages that are not records to redrive', () => {
  it('leaves each in the queue, saying why: another code, a record cut to fit, a record the writer refuses, not JSON', async () => {
    const entry = (code: string, original: string, extra: Record<string, unknown> = {}) => JSON.stringify({ parked: code, error: { name: 'E', message: 'm' }, receiveCount: 5, errors: [], reason: 'r', truncated: false, original, ...extra });
    const queue = new MemoryQueue([
      entry('ReadFailed', onFailureBody('1', '2')),
      entry('RangeExpired', onFailureBody('1', '2')),
      entry('WriteFailed', JSON.stringify(events[0]).slice(0, 50), { truncated: true }),
      entry('WriteFailed', JSON.stringify({ ...(events[0] as object), detail: { eventId: 'x' } })),
      'not json',
    ]);
    const put: string[] = [];
    const summary = await redriveParked({ queue, stream: { put: async (_k, data) => void put.push(data) } }, { dryRun: false });
    expect(summary.lines.map((l) => [l.code, l.verdict])).toEqual([
      ['ReadFailed', 'left'], ['RangeExpired', 'left'], ['WriteFailed', 'left'], ['WriteFailed', 'refused'], ['?', 'left'],
    ]);
    expect(summary.lines[0]!.detail).toMatch(/writer-failures queue/);
    expect(summary.lines[2]!.detail).toMatch(/cut to fit/);
    expect(summary.lines[3]!.detail).toMatch(/detail\.observedAt/);
    expect(put).toEqual([]);
    expect(queue.visible).toHaveLength(5);
  });
});
