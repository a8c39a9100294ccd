import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import type { StreamId } from '../../../shared/log/event-store.ts';
import type { InboundError } from '../../../shared/contract/parse-inbound.ts';
import { MAX_PACK_DECODED_BYTES } from '../../../shared/contract/packed-observations.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { createRecordWriter, createWriterHandler } from '../../../functions/handlers/writer-handler.ts';
import { decodedSlices, groupRecords } from '../../../functions/handlers/writer/stream-records.ts';
import { CrashableStore } from '../../support/service-harness.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import { packEnvelope, packOf, packRuns } from '../../support/packed-events.ts';
import { commandKeys, NoMarkersStore, outboxEvents, sampleEvents, statusOf } from './write-support.ts';

// The writer decodes a `Pod Observations` pack at the boundary into its observations, in
// order; everything after (dedupe by eventId, decide at each position) is unchanged.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';

const context = { functionName: 'writer', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
function handlerOver(store: NoMarkersStore, slice?: { observations: number; decodedBytes: number }) {
  const rejected: { text: unknown; errors: readonly InboundError[] }[] = [];
  const handler = createWriterHandler({
    store, clock: () => '2026-06-01T00:00:00Z', config: DEFAULT_FOLD_CONFIG, ...(slice ? { slice } : {}),
    rejections: { reject: async (text, errors) => void rejected.push({ text, errors }) },
    timers: { schedule: async () => undefined },
  });
  return { handler, rejected };
}

const events = sampleEvents('samples/named-failure.jsonl');
const job: StreamId = { kind: 'Job', clusterId: 'dev-eu-1', namespace: 'default', uid: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };
const pods = events.slice(1, 6);
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const withCount = (detail: object, count: number) => ({ partitionKey: job.uid, encoding: 'br', count, ...detail });

async function logOf(batches: readonly unknown[][], slice?: { observations: number; decodedBytes: number }) {
  const store = new NoMarkersStore();
  const { handler, rejected } = handlerOver(store, slice);
  for (const batch of batches) expect(await handler(kinesisEvent(batch), context)).toEqual({ batchItemFailures: [] });
  const entries = (await store.read(job)).entries.map((e) => `${e.type} ${e.eventId}`);
  return { entries, status: await statusOf(store, job), commands: commandKeys(await outboxEvents(store, job)), rejected };
}

describe('the writer, given packed observations', () => {
  it('when a Job is fed in packs, then its log, status and commands are those of the same events fed singly', async () => {
    const singly = await logOf([events]);
    for (const sizes of [[2], [3, 1], [100]]) {
      expect(await logOf([packRuns(events, sizes)])).toEqual(singly);
    }
    expect(singly.status.failed).toBe(5);
  });

  it('when a pack is delivered again, or overlaps single events, then each eventId is logged once', async () => {
    const singly = await logOf([events]);
    const packed = packRuns(events, [4]);
    expect(await logOf([packed, packed])).toEqual(singly);
    expect(await logOf([events.slice(0, 3), packed])).toEqual(singly);
  });

  it('when one observation of a pack is invalid, then it alone is refused with its reason and the others are stored', async () => {
    const bad = JSON.parse(JSON.stringify(pods[2])) as { detail: { object: { metadata: { name: string } } } };
    bad.detail.object.metadata.name = 'Not_A_Name';
    const { entries, rejected } = await logOf([[events[0], packOf([pods[0], pods[1], bad, pods[3]])]]);
    const idOf = (e: unknown) => (e as { detail: { eventId: string } }).detail.eventId;
    expect(entries.filter((e) => e.startsWith('PodObserved'))).toEqual([pods[0], pods[1], pods[3]].map((p) => `PodObserved ${idOf(p)}`));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.errors[0]?.path).toBe('detail.object.metadata.name');
    const alone = JSON.parse(String(rejected[0]?.text)) as { 'detail-type': string; detail: unknown };
    expect(alone['detail-type']).toBe('Pod Observed');
    expect(alone.detail).toEqual(bad.detail);
  });

  it('when a pack holds an event that may not be packed, then that one is refused alone', async () => {
    const { entries, rejected } = await logOf([[packOf([pods[0], events[0]], job.uid)]]);
    expect(entries).toEqual(['PodObserved pod-uid-0/1010']);
    expect(rejected[0]?.errors[0]).toEqual({ path: 'detail-type', message: expect.stringContaining('not "Job Observed"') });
  });

  it.each([
    ['bad base64', withCount({ observations: 'not base64!' }, 1), 'detail.observations', /not base64/],
    ['not brotli', withCount({ observations: b64('plain text') }, 1), 'detail.observations', /not brotli/],
    ['not JSON', withCount({ observations: b64(brotliCompressSync('[{"detail-type":')) }, 1), 'detail.observations', /JSON/],
    ['not an array', withCount({ observations: b64(brotliCompressSync('{}')) }, 1), 'detail.observations', /JSON array/],
    ['a count that lies', withCount({ observations: b64(brotliCompressSync('[]')) }, 3), 'detail.count', /holds 0/],
    ['an unknown encoding', { ...withCount({ observations: b64('x') }, 1), encoding: 'gzip' }, 'detail.encoding', /br/],
    ['no partitionKey', { encoding: 'br', count: 1, observations: b64(brotliCompressSync('[]')) }, 'detail.partitionKey', /.+/],
    ['a decompression bomb', withCount({ observations: b64(brotliCompressSync(Buffer.alloc(MAX_PACK_DECODED_BYTES + 1, 0x20))) }, 1), 'detail.observations', new RegExp(`more than ${MAX_PACK_DECODED_BYTES} bytes`)],
  ])('when a pack is %s, then the whole pack is refused naming the field', async (_name, detail, path, message) => {
    const { entries, rejected } = await logOf([[packEnvelope(pods[0], detail)]]);
    expect(entries).toEqual([]);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.errors[0]).toEqual({ path, message: expect.stringMatching(message) });
  });

  it('when a pack holds an observation of another Job, then the whole pack is refused', async () => {
    const other = JSON.parse(JSON.stringify(pods[1]).replaceAll(job.uid, 'other-job')) as object;
    const byKey = await logOf([[packOf([pods[0], other], job.uid)]]);
    expect(byKey.entries).toEqual([]);
    expect(byKey.rejected[0]?.errors[0]?.path).toBe('detail.observations[1].detail.partitionKey');
    const unkeyed = JSON.parse(JSON.stringify(other)) as { detail: { partitionKey?: string } };
    delete unkeyed.detail.partitionKey;
    const byOwner = await logOf([[packOf([pods[0], unkeyed], job.uid)]]);
    expect(byOwner.entries).toEqual([]);
    expect(byOwner.rejected[0]?.errors[0]?.path).toBe('detail.observations[1].detail.object.metadata.ownerReferences');
  });

  it('when a batch holds more observations than a slice, then it is decoded and written a slice at a time, deciding as in one', async () => {
    const records = kinesisEvent(packRuns(events, [2])).Records;
    const slices = [...decodedSlices(records, { observations: 2, decodedBytes: Infinity })];
    expect(slices.length).toBeGreaterThan(2);
    const entries = (batch: { groups: { entries: { eventId: string }[] }[] }) => batch.groups.flatMap((g) => g.entries.map((e) => e.eventId));
    expect(slices.flatMap(entries)).toEqual(entries(groupRecords(records)));
    expect([...decodedSlices(records, { observations: Infinity, decodedBytes: 1 })]).toHaveLength(records.length);
    const singly = await logOf([events]);
    expect(await logOf([packRuns(events, [2])], { observations: 1, decodedBytes: Infinity })).toEqual(singly);
  });

  it('when a log fails in one slice, then none of its records in later slices are written, and its failure names them all', async () => {
    const store = new CrashableStore(new NoMarkersStore());
    let commits = 0;
    store.beforeCommit = async () => {
      if (++commits === 1) throw new Error('throttled');
    };
    const write = createRecordWriter({
      store, clock: () => '2026-06-01T00:00:00Z', config: DEFAULT_FOLD_CONFIG, slice: { observations: 1, decodedBytes: Infinity },
      rejections: { reject: async () => undefined }, timers: { schedule: async () => undefined },
    });
    const records = kinesisEvent(packRuns(events, [2])).Records;
    const failures = await write(records);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.sequenceNumbers).toEqual(records.map((r) => r.kinesis.sequenceNumber));
    expect(failures[0]?.startSequenceNumber).toBe(records[0]?.kinesis.sequenceNumber);
    expect(failures[0]?.endSequenceNumber).toBe(records.at(-1)?.kinesis.sequenceNumber);
    expect((await store.read(job)).entries).toEqual([]);
  });
});
