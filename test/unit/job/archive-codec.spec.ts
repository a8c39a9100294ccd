import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeArchivedPods, encodeArchivedPods } from '../../../shared/job/archive-codec.ts';
import type { ArchivedPod } from '../../../shared/job/snapshot.ts';

// The archive's stored form (shared/job/archive-codec.ts): given archived pods as the decider's
// save hands them to a store, when they are stored as one group and read back, then each is the
// object stored, key for key; groups stored before the form (arrays of objects, as 257ac7f's
// adapter wrote them: test/fixtures/archived-pods-257ac7f) read as they were; and the form is
// smaller than the objects.

const FIXTURE = new URL('../../fixtures/archived-pods-257ac7f/', import.meta.url);
/** Archived pods as 257ac7f's archivePod formed them, at the position its save stored them (every optional field set by one of them). */
const storedAt257ac7f = JSON.parse(readFileSync(new URL('pods.json', FIXTURE), 'utf8')) as ArchivedPod[];

const throughStore = (pods: readonly ArchivedPod[]): ArchivedPod[] => decodeArchivedPods(JSON.parse(JSON.stringify(encodeArchivedPods(pods))));

describe('the archive\'s stored form', () => {
  it('gives back every pod of a group key for key, whatever it shares with the others', () => {
    expect(throughStore(storedAt257ac7f)).toStrictEqual(storedAt257ac7f);
    // Each alone: the group's shared fields are then its own.
    for (const pod of storedAt257ac7f) expect(throughStore([pod])).toStrictEqual([pod]);
    expect(throughStore([])).toStrictEqual([]);
  });

  it('reads groups stored in earlier forms: an array of the pods themselves (257ac7f), and v 2 (b107864)', () => {
    expect(decodeArchivedPods(JSON.parse(JSON.stringify(storedAt257ac7f)))).toStrictEqual(storedAt257ac7f);
    // The first three pods as b107864's encodeArchivedPods wrote them: no differences between pods, names and uids whole.
    const v2 = {
      v: 2, ns: 'train', at: 20026, t: 1795910401000, e: 1795910400001, p: [
        ['9813b75b-38b9-473b-b300-000000000001', 'train-0-02ex4', 0, 2, 0, 0, 13490, 0, 4000, 4000, 0, '183014468', 2],
        ['9813b75b-38b9-473b-b300-000000000002', 'train-50-0awfq', 50, 3, 1, 50, 10039, 1000, 8500, 1000, -7000, '183011018', [1795910500000, 3], 'deleted', null, 2, 1, 8000, 8000],
        ['9813b75b-38b9-473b-b300-000000000003', 'train-7-x1y2z', 7, 3, 46, 7, null, [1795910401100.5], [1795910401800], [1795910401000.5], null, null, null, ['hand-made-id'], 0, null, null, [1795910401650], [1795910401700.25], 12],
      ],
    };
    expect(decodeArchivedPods(v2)).toStrictEqual(storedAt257ac7f.slice(0, 3));
  });

  it('stores a forwarded Job\'s counted pods in under a third of their JSON', () => {
    const [counted] = storedAt257ac7f as [ArchivedPod];
    const many = Array.from({ length: 500 }, (_, i): ArchivedPod => {
      const uid = `${counted.uid.slice(0, -6)}${String(i).padStart(6, '0')}`;
      return { ...counted, uid, index: i, seq: i, lastSeq: 13_000 + i, lastEventId: `${uid}/${183_014_000 + i}`, version: String(183_014_000 + i) };
    });
    expect(throughStore(many)).toStrictEqual(many);
    expect(JSON.stringify(encodeArchivedPods(many)).length).toBeLessThan(JSON.stringify(many).length / 3);
  });

  it('refuses what is neither form, naming what it found', () => {
    expect(() => decodeArchivedPods({ pods: [] })).toThrow(/expected an array of pods or a group \{v, p\}, got \{"pods":\[\]\}/);
    expect(() => decodeArchivedPods({ v: 4, p: [] })).toThrow(/group form v 4 is not one of 2, 3/);
    expect(() => decodeArchivedPods({ v: 3, p: [['uid'], { uid: 'x' }] })).toThrow(/p\[1\] is not a pod tuple/);
    expect(() => decodeArchivedPods({ v: 3, u: 1, p: [['not-base64', 'n', 0]] })).toThrow(/uid "not-base64" is not 16 bytes in base64url/);
  });

  it('gives back any archived pod (generated) key for key', () => {
    const instant = fc.oneof(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.double({ min: 0, max: 4_102_444_800_000, noNaN: true }));
    const pod: fc.Arbitrary<ArchivedPod> = fc.record(
      {
        uid: fc.oneof(fc.constantFrom('u1', 'u2', '9813B75B-38B9-473B-B300-000000000001'), fc.uuid()),
        name: fc.oneof(fc.string(), fc.constantFrom('train-0-02ex4', 'train-7-x', 'train-7-', 'train--1-q', 'train')),
        namespace: fc.constantFrom('default', 'train'),
        phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown', 'Weird'),
        index: fc.constantFrom(-1, 0, 7, 50, 100_000),
        counted: fc.constantFrom('none', 'succeeded', 'failed', 'ignored'),
        gone: fc.boolean(),
        seq: fc.nat(),
        lastSeq: fc.integer({ min: 1, max: 1_000_000 }),
        lastEventId: fc.oneof(fc.string(), fc.constantFrom('u1/deleted', 'u1/17', '9813b75b-38b9-473b-b300-000000000001/17', 'u2/')),
        version: fc.constantFrom('17', '183014468', '0', '007', '999999999999999', '9999999999999999', '99999999999999999999', 'abc'),
        order: fc.oneof(
          fc.record({ epoch: fc.constantFrom(1, 1795910400001), seq: fc.integer({ min: 1, max: 50 }) }),
          fc.record({ epoch: fc.constant(1), seq: fc.constant(1), jobSeq: fc.integer({ min: 1, max: 9 }) }),
        ),
        finalCount: fc.constantFrom('outside', 'owed'),
        finalCountOf: fc.nat(),
        released: fc.constant(true),
        trackedSeen: fc.constant(true),
        strippedLive: fc.constant(true),
        strippedAt: instant,
        deletionTimestamp: instant,
        failureCount: fc.integer({ min: 1, max: 10 }),
        ignoredFailureCount: fc.integer({ min: 1, max: 10 }),
        finishedAt: instant,
        finishedTrackedAt: instant,
        firstSeenAt: instant,
        lastSeenAt: instant,
        archivedAt: fc.constantFrom(0, 7, 20026),
      },
      { requiredKeys: ['uid', 'name', 'namespace', 'phase', 'index', 'counted', 'gone', 'seq'] },
    ).map((generated) => JSON.parse(JSON.stringify(generated)) as ArchivedPod);
    fc.assert(fc.property(fc.array(pod, { maxLength: 6 }), (pods) => {
      expect(throughStore(pods)).toStrictEqual(pods);
    }), { numRuns: 2000 });
  });
});
