import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { LocalStack } from '../../../local/local-stack.ts';
import { MAX_PACK_DECODED_BYTES, MAX_PACK_OBSERVATIONS, PACKED_DETAIL_TYPE } from '../../../shared/contract/packed-observations.ts';
import { eventBridgeFor, startTestStack } from '../local/local-stack-fixture.ts';
import { packOf } from '../../support/packed-events.ts';
import { entryOf, jobEvent, podEvent } from './hostile-cases.ts';

// Hostile `Pod Observations` packs (docs/events.md, "Packed observations") through PutEvents with
// the real SDK client against the local stack on DynamoDB Local. A pack that cannot be decoded,
// or holds another Job's observation, is refused as a whole with a reason naming the field and
// nothing of it is stored; a bad observation in a good pack is refused alone and the others are
// stored; a healthy Job beside them stays byte-identical.

type Event = ReturnType<typeof podEvent>;
let stack: LocalStack;
let client: EventBridgeClient;
const HEALTHY = { uid: 'packed-healthy', name: 'packed-healthy' };
const HEALTHY_PATH = `/v1/clusters/cluster-a/namespaces/default/jobs/${HEALTHY.name}`;
let healthyBefore: string[];
let serial = 0;

const healthyNow = async () => Promise.all(['', '/history', '/explain'].map(async (s) => (await fetch(`${stack.url}${HEALTHY_PATH}${s}`)).text()));
const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');
const keyed = (event: Event, uid: string) => ({ ...event, detail: { ...event.detail, partitionKey: uid } });

/** A Job of its own per case, with `pods` pod events of it (keyed by its uid, as a forwarder sends them). */
function aJob(pods = 3) {
  const uid = `packed-job-${++serial}`;
  const name = `packed-${serial}`;
  return { uid, name, job: jobEvent(uid, name, { completions: pods, parallelism: pods }), pods: Array.from({ length: pods }, (_, i) => keyed(podEvent(uid, name, `p${i}`, 'Running'), uid)) };
}

async function put(source: string, detailType: string, detail: unknown): Promise<string | undefined> {
  const output = await client.send(new PutEventsCommand({ Entries: [{ Source: source, DetailType: detailType, Detail: typeof detail === 'string' ? detail : JSON.stringify(detail) }] }));
  return (output.FailedEntryCount ?? 0) > 0 ? `${output.Entries?.[0]?.ErrorCode}: ${output.Entries?.[0]?.ErrorMessage}` : undefined;
}

const stored = async (uid: string) => (await stack.store.read({ kind: 'Job', clusterId: 'cluster-a', namespace: 'default', uid })).entries
  .filter((e) => e.type === 'PodObserved' || e.type === 'PodDeleted').map((e) => e.eventId);

/** Sends the Job, then `detail` as a pack; returns the rejections it caused and the pod events stored. */
async function sendPack(job: ReturnType<typeof aJob>, detail: unknown) {
  await put(job.job.source, job.job['detail-type'], job.job.detail);
  await stack.whenQuiet(0);
  const before = stack.rejected().length;
  const refusal = await put(job.job.source, PACKED_DETAIL_TYPE, detail);
  await stack.whenQuiet(0);
  return { refusal, rejections: stack.rejected().slice(before).map((r) => JSON.stringify(r.errors)), stored: await stored(job.uid) };
}

const packDetail = (job: ReturnType<typeof aJob>, events: readonly unknown[] = job.pods) => packOf(events, job.uid).detail;
/** A pack of arbitrary items (events become `{ "detail-type", detail }`; anything else goes as it is). */
const rawPack = (job: ReturnType<typeof aJob>, items: readonly unknown[]) => withCount(job, items.length, b64(brotliCompressSync(JSON.stringify(items.map((e) =>
  typeof e === 'object' && e !== null && 'detail-type' in e ? { 'detail-type': (e as Event)['detail-type'], detail: (e as Event).detail } : e)))));
const withCount = (job: ReturnType<typeof aJob>, count: number, observations: string) => ({ partitionKey: job.uid, encoding: 'br', count, observations });

beforeAll(async () => {
  stack = await startTestStack();
  client = eventBridgeFor(stack);
  for (const event of [jobEvent(HEALTHY.uid, HEALTHY.name, { completions: 2, parallelism: 2 }),
    podEvent(HEALTHY.uid, HEALTHY.name, 'a', 'Running'), podEvent(HEALTHY.uid, HEALTHY.name, 'b', 'Succeeded')]) {
    const { entry } = entryOf(event) as { entry: { Source: string; DetailType: string; Detail: string } };
    await put(entry.Source, entry.DetailType, entry.Detail);
  }
  await stack.whenQuiet(0);
  healthyBefore = await healthyNow();
}, 120_000);

afterAll(async () => {
  client?.destroy();
  await stack?.stop();
});

describe('hostile Pod Observations packs on the local stack (DynamoDB Local)', () => {
  it('given a valid pack, then every observation is stored, in order', async () => {
    const job = aJob(4);
    const { rejections, stored: ids } = await sendPack(job, packDetail(job));
    expect(rejections).toEqual([]);
    expect(ids).toEqual(job.pods.map((p) => p.detail.eventId));
  });

  const whole: [string, (job: ReturnType<typeof aJob>) => unknown, string][] = [
    ['bad base64', (j) => withCount(j, 1, '%%%not base64%%%'), 'detail.observations'],
    ['base64 that is not brotli', (j) => withCount(j, 1, b64('{"not":"compressed"}')), 'detail.observations'],
    ['brotli that is not JSON', (j) => withCount(j, 1, b64(brotliCompressSync('[{"detail-type":"Pod Observed",'))), 'detail.observations'],
    ['brotli of invalid UTF-8', (j) => withCount(j, 1, b64(brotliCompressSync(Buffer.from([0x5b, 0xff, 0xfe, 0x5d])))), 'detail.observations'],
    ['JSON that is no array', (j) => withCount(j, 1, b64(brotliCompressSync('{"detail-type":"Pod Observed"}'))), 'detail.observations'],
    ['a decompression bomb just past the cap', (j) => withCount(j, 1, b64(brotliCompressSync(Buffer.alloc(MAX_PACK_DECODED_BYTES + 1, 0x20)))), 'detail.observations'],
    ['a decompression bomb at 2x the cap (1 GiB would be no harder)', (j) => withCount(j, 1, b64(brotliCompressSync(Buffer.alloc(2 * MAX_PACK_DECODED_BYTES, 0x5b)))), 'detail.observations'],
    ['a count that is not what it holds', (j) => ({ ...(packDetail(j) as object), count: 2 }), 'detail.count'],
    ['a count of 0', (j) => withCount(j, 0, b64(brotliCompressSync('[]'))), 'detail.count'],
    ['a count over the cap', (j) => ({ ...(packDetail(j) as object), count: MAX_PACK_OBSERVATIONS + 1 }), 'detail.count'],
    ['an unknown encoding', (j) => ({ ...(packDetail(j) as object), encoding: 'gzip' }), 'detail.encoding'],
    ['no partitionKey', (j) => ({ ...(packDetail(j) as Record<string, unknown>), partitionKey: undefined }), 'detail.partitionKey'],
    ['observations as a number', (j) => ({ ...(packDetail(j) as object), observations: 42 }), 'detail.observations'],
    ['a pack naming its cluster', (j) => ({ ...(packDetail(j) as object), clusterId: 'other' }), 'detail.clusterId'],
    ['an observation keyed to another Job', (j) => packDetail(j, [j.pods[0], keyed(j.pods[1] as Event, 'someone-else')]), 'detail.observations[1].detail.partitionKey'],
    ['an observation owned by another Job (unkeyed)', (j) => packDetail(j, [j.pods[0], podEvent('someone-else', 'x', 'q', 'Running')]), 'detail.observations[1].detail.object.metadata.ownerReferences'],
    ['an observation of the same owner in another namespace', (j) => packDetail(j, [j.pods[0], { ...j.pods[1], detail: { ...j.pods[1]!.detail, object: { ...j.pods[1]!.detail.object, metadata: { ...j.pods[1]!.detail.object.metadata, namespace: 'elsewhere' } } } }]), 'detail.observations[1].detail.object.metadata.namespace'],
  ];
  it.each(whole)('given %s, then the whole pack is refused naming the field and nothing of it is stored', async (_name, detail, path) => {
    const job = aJob();
    const { refusal, rejections, stored: ids } = await sendPack(job, detail(job));
    expect(refusal).toBeUndefined();
    expect(rejections).toHaveLength(1);
    expect(rejections[0]).toContain(`"path":"${path}"`);
    expect(ids).toEqual([]);
  });

  // the reason as it appears in the rejection's errors (JSON)
  const alone: [string, (job: ReturnType<typeof aJob>) => unknown, string][] = [
    ['a name no API server would store', (j) => ({ ...j.pods[1], detail: { ...j.pods[1]!.detail, object: { ...j.pods[1]!.detail.object, metadata: { ...j.pods[1]!.detail.object.metadata, name: 'Bad_Name' } } } }), '"path":"detail.object.metadata.name"'],
    ['a Job Observed, which may not be packed', (j) => ({ ...j.job, detail: { ...j.job.detail, eventId: `${j.uid}/again`, partitionKey: j.uid } }), '"path":"detail-type"'],
    ['a number instead of an event', () => 42, '"path":"detail-type"'],
    ['an observation over 256 KiB alone (it compresses to nothing)', (j) => ({ ...j.pods[1], detail: { ...j.pods[1]!.detail, object: { ...j.pods[1]!.detail.object, metadata: { ...j.pods[1]!.detail.object.metadata, annotations: { 'example.com/big': 'x'.repeat(300_000) } } } } }), '"path":"","message":"event is'],
    ['an observation nested 40 levels deep', (j) => ({ ...j.pods[1], detail: { ...j.pods[1]!.detail, object: { ...j.pods[1]!.detail.object, deep: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown } } }), 'nested deeper than 32 levels'],
    ['an observation with a __proto__ key', (j) => JSON.parse(JSON.stringify(j.pods[1]).replace('"status":', '"__proto__":{"polluted":true},"status":')) as unknown, 'the key \\"__proto__\\" is not allowed'],
    ['an observation without an eventId', (j) => ({ ...j.pods[1], detail: { ...j.pods[1]!.detail, eventId: undefined } }), '"path":"detail.eventId"'],
  ];
  it.each(alone)('given a pack with %s, then that one is refused with its reason and the others are stored', async (_name, bad, reason) => {
    const job = aJob();
    const events = [job.pods[0], bad(job), job.pods[2]];
    const { rejections, stored: ids } = await sendPack(job, rawPack(job, events));
    expect(rejections).toHaveLength(1);
    expect(rejections[0]).toContain(reason);
    expect(ids).toEqual([job.pods[0]!.detail.eventId, job.pods[2]!.detail.eventId]);
  });

  it('given a pack whose entry is over 256 KiB, then the bus refuses it and nothing is stored', async () => {
    const job = aJob();
    const noise = Array.from({ length: 280_000 }, (_, i) => String.fromCharCode(0x23 + ((i * 7919) % 91 === 57 ? 0 : (i * 7919) % 91))).join('');
    await expect(put(job.job.source, PACKED_DETAIL_TYPE, { ...(packDetail(job) as object), padding: noise }))
      .rejects.toThrow('Total size of the entries in the request is over the limit.');
    await stack.whenQuiet(0);
    expect(await stored(job.uid)).toEqual([]);
  });

  it('given a pack that repeats an observation, or one already stored alone, then each eventId is stored once', async () => {
    const job = aJob();
    await put(job.pods[0]!.source, job.pods[0]!['detail-type'], job.pods[0]!.detail);
    const { rejections, stored: ids } = await sendPack(job, packDetail(job, [job.pods[0], job.pods[1], job.pods[1], job.pods[2]]));
    expect(rejections).toEqual([]);
    expect(ids).toEqual(job.pods.map((p) => p.detail.eventId));
  });

  it('leaves the healthy Job byte-identical', async () => {
    await stack.whenQuiet(0);
    expect(await healthyNow()).toEqual(healthyBefore);
  });
});
