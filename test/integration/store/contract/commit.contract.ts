import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMIT_COMMANDS } from '../../../../shared/log/event-store-limits.ts';
import { StoreLimitError, VersionConflictError } from '../../../../shared/log/event-store.ts';
import type { CommitInput, EventStore, StreamId } from '../../../../shared/log/event-store.ts';
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
}
