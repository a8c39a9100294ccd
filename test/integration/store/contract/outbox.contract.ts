import { beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { EventStore, NewCommand, StreamId } from '../../../../shared/log/event-store.ts';
import { aCommand, aStream, at } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';

/** Outbox: pending commands of every stream, oldest first (or named), until marked published. */
export function describeOutboxContract(factory: EventStoreFactory): void {
  let store: EventStore;
  const commitCommands = (stream: StreamId, outbox: NewCommand[]) =>
    store.commit(stream, { expectedHead: 0, recordedAt: at(0), entries: [], outbox });

  describe('outbox', () => {
    beforeEach(async () => { store = await factory(); });

    it('lists pending commands of all streams oldest first, up to the limit', async () => {
      const a = aStream();
      const b = aStream({ kind: 'JobSet', clusterId: 'cluster-b' });
      await commitCommands(a, [aCommand('a2', at(20)), aCommand('a1', at(10))]);
      await commitCommands(b, [aCommand('b1', at(15)), aCommand('b0', at(10))]);

      expect((await store.pendingOutbox(10)).map((c) => c.commandId)).toEqual(['a1', 'b0', 'b1', 'a2']);
      expect(await store.pendingOutbox(2)).toEqual([{ ...aCommand('a1', at(10)), stream: a }, { ...aCommand('b0', at(10)), stream: b }]);
    });

    it('no longer lists a command once it is marked published', async () => {
      await commitCommands(aStream(), [aCommand('c1', at(1)), aCommand('c2', at(2))]);

      await store.markPublished(['c1'], at(5));

      expect((await store.pendingOutbox(10)).map((c) => c.commandId)).toEqual(['c2']);
    });

    it('ignores unknown ids and ids already published', async () => {
      await commitCommands(aStream(), [aCommand('c1', at(1))]);
      await store.markPublished(['c1'], at(5));

      await store.markPublished(['c1', 'nope', 'c1'], at(6));

      expect(await store.pendingOutbox(10)).toEqual([]);
    });

    it('keeps a pending item\'s publish progress, which only moves forward', async () => {
      await commitCommands(aStream(), [aCommand('c1', at(1))]);

      await store.saveOutboxProgress('c1', 500);
      await store.saveOutboxProgress('c1', 200);

      expect((await store.pendingOutbox(10)).map((c) => [c.commandId, c.progress])).toEqual([['c1', 500]]);
      await store.saveOutboxProgress('c1', 1000);
      expect((await store.pendingOutbox(10))[0]?.progress).toBe(1000);
    });

    it('reads named items as stored now, in the order named, without the unknown and the published', async () => {
      const a = aStream();
      await commitCommands(a, [aCommand('n1', at(1)), aCommand('n2', at(2)), aCommand('n3', at(3))]);
      await store.saveOutboxProgress('n3', 40);
      await store.markPublished(['n2'], at(5));

      const items = await store.pendingOutboxItems(['n3', 'nope', 'n2', 'n1', 'n3']);

      expect(items).toEqual([{ ...aCommand('n3', at(3)), stream: a, progress: 40 }, { ...aCommand('n1', at(1)), stream: a }]);
      expect(await store.pendingOutboxItems([])).toEqual([]);
    });

    it('reads a large detail back whole through both reads, while progress and publication still update it', async () => {
      // An outbox page carrying thousands of pods: random uids, so it stays large compressed.
      const pods = Array.from({ length: 3000 }, () => randomUUID());
      const big: NewCommand = { ...aCommand('big', at(1)), detail: { names: pods.map((uid) => `pod-${uid.slice(0, 5)}`), uids: pods } };
      await commitCommands(aStream(), [big, aCommand('small', at(2))]);

      await store.saveOutboxProgress('big', 500);

      expect((await store.pendingOutbox(10)).map((c) => [c.commandId, c.detail, c.progress])).toEqual([['big', big.detail, 500], ['small', aCommand('small', at(2)).detail, undefined]]);
      expect((await store.pendingOutboxItems(['big']))[0]?.detail).toEqual(big.detail);
      await store.markPublished(['big'], at(5));
      expect((await store.pendingOutboxItems(['big', 'small'])).map((c) => c.commandId)).toEqual(['small']);
    });

    it('ignores progress on unknown or published items', async () => {
      await commitCommands(aStream(), [aCommand('c1', at(1))]);
      await store.markPublished(['c1'], at(5));

      await store.saveOutboxProgress('c1', 10);
      await store.saveOutboxProgress('nope', 10);

      expect(await store.pendingOutbox(10)).toEqual([]);
    });
  });
}
