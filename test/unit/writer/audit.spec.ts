import { describe, expect, it } from 'vitest';
import { verifyEntryChain } from '../../../shared/audit/verify-chain.ts';
import { verifyDecisions } from '../../../shared/audit/verify-decisions.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { NoMarkersStore, observationsOf, sampleEvents, writeDeps, writeInBatches } from './write-support.ts';

// What the writer logs passes the audit: the hash chain holds, and every decision records the
// chain hash of the position it was decided after (computed before the store chained it), and
// refolds to the same decision there.

const sample = observationsOf(sampleEvents('samples/named-failure.jsonl'));
const stream = sample[0]!.stream;

describe('the log the writer writes', () => {
  it.each([[[100]], [[6, 100]], [[1]]])('passes the audit when written in batches of %j', async (sizes) => {
    const store = new NoMarkersStore();
    await writeInBatches(writeDeps(store, { cache: new StateCache() }), stream, sample.map((s) => s.observation), sizes);
    const entries = (await store.read(stream)).entries;
    expect(entries.every((e) => e.hash !== undefined)).toBe(true);
    expect(verifyEntryChain(entries)).toEqual([]);
    expect(verifyDecisions(entries)).toEqual([]);
    const reads = entries.flatMap((e) => ((e.body as { read?: { head: number; chainHead?: string } }).read ?? []));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read.chainHead).toBe(entries[read.head - 1]?.hash);
  });
});

describe('a cold writer right after a snapshot', () => {
  it('still records the chain head its decisions read', async () => {
    // given a log that ends at a snapshot (every 2 entries), read by a writer with no warm state
    const store = new NoMarkersStore();
    const observations = sample.map((s) => s.observation);
    await writeInBatches(writeDeps(store, { snapshotEvery: 2 }), stream, observations.slice(0, 6), [100]);
    expect((await store.loadSnapshot(stream))?.seq).toBe((await store.read(stream)).head);
    // when the next batch is decided
    await writeInBatches(writeDeps(store), stream, observations.slice(6), [100]);
    // then every decision names the hash of the entry it read, and the audit holds
    const entries = (await store.read(stream)).entries;
    const reads = entries.flatMap((e) => ((e.body as { read?: { head: number; chainHead?: string } }).read ?? []));
    for (const read of reads) expect(read.chainHead).toBe(entries[read.head - 1]?.hash);
    expect(verifyDecisions(entries)).toEqual([]);
  });
});
