import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMIT_COMMANDS } from '../../../../shared/app/event-store-limits.ts';
import { StoreLimitError, UidClaimedError, VersionConflictError } from '../../../../shared/app/event-store.ts';
import type { CommitInput, EventStore, StreamId } from '../../../../shared/app/event-store.ts';
import { aCommand, aStream, aSummary, anEntry, at, T0 } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { entryHash, GENESIS_HASH, verifyChain } from '../../../../shared/log/hash-chain.ts';
import { logEntries } from '../../../support/log-entries.ts';

const decision = (expectedHead: number, overrides: Partial<CommitInput> = {}): CommitInput => ({
  expectedHead,
  recordedAt: at(60),
  entries: [{ eventId: 'd1', type: 'FailureTarget', observedAt: at(60), body: { reason: 'BackoffLimitExceeded' } }],
  outbox: [aCommand('c1')],
  summary: aSummary({ latestCondition: { type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded' } }),
  ...overrides,
});

/** Commit: decisions, outbox and summary land together at the expected head, or not at all. */
export function describeCommitContract(factory: EventStoreFactory): void {
  let store: EventStore;
  let stream: StreamId;

  describe('commit', () => {
    beforeEach(async () => {
      store = await factory();
      stream = aStream();
      await logEntries(store, stream, [anEntry('o1'), anEntry('o2')], T0);
    });

    it('appends the decisions after the expected head and stores the outbox and summary', async () => {
      const result = await store.commit(stream, decision(2));

      expect(result).toMatchObject({ head: 3, duplicates: [], snapshotSaved: false });
      const [o1, o2] = (await store.read(stream)).entries;
      const d1 = { eventId: 'd1', type: 'FailureTarget', observedAt: at(60), body: { reason: 'BackoffLimitExceeded' }, seq: 3, recordedAt: at(60) };
      // The decision continues the hash chain from the entry at the head.
      expect(result.appended).toEqual([{ ...d1, hash: entryHash(o2?.hash ?? '', d1) }]);
      expect((await store.read(stream)).entries.map((e) => [e.seq, e.eventId])).toEqual([[1, 'o1'], [2, 'o2'], [3, 'd1']]);
      expect(verifyChain(GENESIS_HASH, [o1!, o2!, ...result.appended])).toBeUndefined();
      expect(await store.pendingOutbox(10)).toEqual([{ ...aCommand('c1'), stream }]);
      expect(await store.findJob({ ...stream, name: 'train' })).toMatchObject({ ...stream, name: 'train', latestCondition: { type: 'FailureTarget' } });
    });

    it('commits to an empty stream at expected head 0', async () => {
      const empty = aStream();
      expect((await store.commit(empty, decision(0))).head).toBe(1);
      expect((await store.read(empty)).entries.map((e) => e.eventId)).toEqual(['d1']);
    });

    it('throws VersionConflictError and writes nothing when the head moved', async () => {
      await logEntries(store, stream, [anEntry('o3')], at(1));

      const error = await store.commit(stream, decision(2, { snapshot: { seq: 2, state: {} } })).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(VersionConflictError);
      expect(error).toMatchObject({ name: 'VersionConflictError', expectedHead: 2 });
      expect((await store.read(stream)).entries.map((e) => e.eventId)).toEqual(['o1', 'o2', 'o3']);
      expect(await store.pendingOutbox(10)).toEqual([]);
      expect(await store.findJob({ ...stream, name: 'train' })).toBeUndefined();
      expect(await store.loadSnapshot(stream)).toBeUndefined();
    });

    it('throws VersionConflictError when the expected head is beyond the log', async () => {
      await expect(store.commit(stream, decision(5))).rejects.toBeInstanceOf(VersionConflictError);
      expect((await store.read(stream)).head).toBe(2);
    });

    it('checks the head even when there is nothing to write', async () => {
      const nothing = { entries: [], outbox: [], summary: undefined };
      await expect(store.commit(stream, decision(1, nothing))).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store.commit(stream, decision(2, nothing))).toEqual({ head: 2, appended: [], duplicates: [], snapshotSaved: false });
    });

    it('skips commands whose commandId is already in the outbox', async () => {
      await store.commit(stream, decision(2));
      await store.commit(stream, decision(3, { entries: [anEntry('d2')], outbox: [aCommand('c1'), aCommand('c2')] }));
      expect((await store.pendingOutbox(10)).map((c) => c.commandId)).toEqual(['c1', 'c2']);
    });

    it('rejects more commands than a commit may hold and writes nothing', async () => {
      const outbox = Array.from({ length: MAX_COMMIT_COMMANDS + 1 }, (_, i) => aCommand(`c${i}`));
      await expect(store.commit(stream, decision(2, { outbox }))).rejects.toBeInstanceOf(StoreLimitError);
      expect((await store.read(stream)).head).toBe(2);
    });

    it('lets only one of two racing commits at the same head land', async () => {
      const outcomes = await Promise.allSettled([
        store.commit(stream, decision(2, { entries: [anEntry('x')], outbox: [aCommand('cx')] })),
        store.commit(stream, decision(2, { entries: [anEntry('y')], outbox: [aCommand('cy')] })),
      ]);

      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const rejected = outcomes.find((o) => o.status === 'rejected');
      expect(rejected?.status === 'rejected' && rejected.reason).toBeInstanceOf(VersionConflictError);
      expect((await store.read(stream)).head).toBe(3);
      expect(await store.pendingOutbox(10)).toHaveLength(1);
    });
  });

  describe('uid claims (a first commit with claimUid)', () => {
    beforeEach(async () => { store = await factory(); });
    const first = (namespace: string, more: Partial<StreamId> = {}) => ({ ...aStream(), uid: 'shared-uid', namespace, ...more });

    it('gives a (kind, cluster, uid) to the first namespace whose first commit claims it, under concurrent commits too; the others write nothing', async () => {
      const namespaces = ['team-a', 'team-b', 'team-c'];
      const results = await Promise.allSettled(namespaces.map((ns) => store.commit(first(ns), decision(0, { outbox: [], claimUid: true }))));

      const won = namespaces.filter((_, i) => results[i]?.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const holder = won[0] as string;
      for (const [i, ns] of namespaces.entries()) {
        if (ns === holder) continue;
        const result = results[i];
        expect(result?.status === 'rejected' ? result.reason : result).toBeInstanceOf(UidClaimedError);
        expect(result?.status === 'rejected' ? result.reason : undefined).toMatchObject({ holder, stream: first(ns) });
        expect((await store.read(first(ns))).head).toBe(0);
        expect(await store.findJob({ ...first(ns), name: 'train' })).toBeUndefined();
      }
      expect((await store.read(first(holder))).entries.map((e) => e.eventId)).toEqual(['d1']);
    });

    it('takes its own claim again, refuses a later namespace, and keeps other clusters and kinds apart', async () => {
      await store.commit(first('team-a'), decision(0, { outbox: [], claimUid: true }));

      expect((await store.commit(first('team-a'), decision(1, { outbox: [], claimUid: true, entries: [anEntry('d2')] }))).head).toBe(2);
      await expect(store.commit(first('team-z'), decision(0, { outbox: [], claimUid: true }))).rejects.toMatchObject({ name: 'UidClaimedError', holder: 'team-a' });
      // the same uid in another cluster or of another kind is another object
      expect((await store.commit(first('team-z', { clusterId: 'cluster-b' }), decision(0, { outbox: [], claimUid: true }))).head).toBe(1);
      expect((await store.commit(first('team-y', { kind: 'JobSet' }), decision(0, { outbox: [], claimUid: true }))).head).toBe(1);
    });
  });
}
