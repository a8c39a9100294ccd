import { beforeEach, describe, expect, it } from 'vitest';
import type { EventStore, Snapshot, StreamId } from '../../../../shared/log/event-store.ts';
import { aStream, anEntry, at, noise, podEventBody, T0 } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { logEntries } from '../../../support/log-entries.ts';

/** Snapshots: saved with a commit, never ahead of the log, kept at their positions. */
export function describeSnapshotContract(factory: EventStoreFactory): void {
  let store: EventStore;
  let stream: StreamId;

  const snapshotAt = (seq: number, state: unknown, expectedHead = 3) =>
    store.commit(stream, { expectedHead, recordedAt: at(1), entries: [], outbox: [], snapshot: { seq, state } });

  describe('snapshots', () => {
    beforeEach(async () => {
      store = await factory();
      stream = aStream();
      await logEntries(store, stream, [anEntry('o1'), anEntry('o2'), anEntry('o3')], T0);
    });

    it('has no snapshot until one is committed', async () => {
      expect(await store.loadSnapshot(stream)).toBeUndefined();
    });

    it('starts a fold of an empty log at nothing, of a log without a snapshot at its first entry, else at the newest snapshot, a large one too (loadStart)', async () => {
      const empty = aStream();
      expect(await store.loadStart(empty)).toEqual({ empty: true });
      await store.commit(empty, { expectedHead: 0, recordedAt: at(1), entries: [], outbox: [], summary: undefined });
      expect(await store.loadStart(empty)).toEqual({ empty: true });
      expect(await store.loadStart(stream)).toEqual({ empty: false });

      const large = { pods: Array.from({ length: 420 }, (_, i) => podEventBody(i)) };
      await snapshotAt(2, large);
      expect(await store.loadStart(stream)).toEqual({ snapshot: { seq: 2, state: large }, empty: false });
      await snapshotAt(3, { small: true });
      expect(await store.loadStart(stream)).toEqual({ snapshot: { seq: 3, state: { small: true } }, empty: false });
    });

    it('loads the snapshot saved with a commit', async () => {
      const result = await store.commit(stream, {
        expectedHead: 3, recordedAt: at(1), entries: [anEntry('d1')], outbox: [], snapshot: { seq: 4, state: { active: 2 } },
      });
      expect(result.snapshotSaved).toBe(true);
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 4, state: { active: 2 } });
    });

    it('round-trips a state of about 350 KB', async () => {
      const state = { pods: Array.from({ length: 420 }, (_, i) => podEventBody(i)) };
      expect(JSON.stringify(state).length).toBeGreaterThan(340_000);
      await snapshotAt(3, state);
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 3, state });
    });

    it('round-trips a state too large for one item, and keeps it when a later small one is saved', async () => {
      const large: Snapshot = { seq: 2, state: { blob: noise(1_200_000, 7) } };
      await snapshotAt(large.seq, large.state);
      expect(await store.loadSnapshot(stream)).toEqual(large);

      await snapshotAt(3, { small: true });
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 3, state: { small: true } });
      expect(await store.loadSnapshot(stream, { atOrBefore: 2 })).toEqual(large);
    });

    it('keeps the first snapshot saved at a seq', async () => {
      await snapshotAt(3, { v: 'first' });
      expect((await snapshotAt(3, { v: 'second' })).snapshotSaved).toBe(false);
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 3, state: { v: 'first' } });
    });

    it('keeps an older snapshot at its position, and loads the newest by default', async () => {
      await snapshotAt(3, { v: 3 });
      expect((await snapshotAt(2, { v: 2 })).snapshotSaved).toBe(true);
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 3, state: { v: 3 } });
      expect(await store.loadSnapshot(stream, { atOrBefore: 2 })).toEqual({ seq: 2, state: { v: 2 } });
    });

    it('loads the newest snapshot at or before a position', async () => {
      await logEntries(store, stream, Array.from({ length: 12 }, (_, i) => anEntry(`more-${i}`)), T0);
      for (const seq of [5, 10, 15]) await snapshotAt(seq, { v: seq }, 15);
      const at = async (atOrBefore: number) => (await store.loadSnapshot(stream, { atOrBefore }))?.seq;
      expect(await at(4)).toBeUndefined();
      expect(await at(-1)).toBeUndefined();
      expect([await at(5), await at(9), await at(10), await at(14), await at(15), await at(1_000)]).toEqual([5, 5, 10, 10, 15, 15]);
      expect(await store.loadSnapshot(stream)).toEqual({ seq: 15, state: { v: 15 } });
    });

    it('rejects a snapshot ahead of the log it would summarise, writing nothing', async () => {
      const input = { expectedHead: 3, recordedAt: at(1), entries: [anEntry('d1')], outbox: [], snapshot: { seq: 5, state: {} } };
      await expect(store.commit(stream, input)).rejects.toBeInstanceOf(RangeError);
      expect((await store.read(stream)).head).toBe(3);
      expect(await store.loadSnapshot(stream)).toBeUndefined();
    });

    it('does not save a snapshot that a repeat within the commit left ahead of the new head', async () => {
      const result = await store.commit(stream, {
        expectedHead: 3, recordedAt: at(1), entries: [anEntry('o4'), anEntry('o4')], outbox: [], snapshot: { seq: 5, state: {} },
      });
      expect(result).toMatchObject({ head: 4, duplicates: ['o4'], snapshotSaved: false });
      expect(await store.loadSnapshot(stream)).toBeUndefined();
    });
  });
}
