import { beforeEach, describe, expect, it } from 'vitest';
import type { EventStore, JobSummary, ListJobsQuery, StreamId, SummaryUpdate } from '../../../../shared/log/event-store.ts';
import { aStream, aSummary, anEntry, at } from './builders.ts';
import type { EventStoreFactory } from './builders.ts';
import { logEntries } from '../../../support/log-entries.ts';

/** The fleet view: newest first, paged, filtered; lookups by name; history kept. */
export function describeProjectionContract(factory: EventStoreFactory): void {
  let store: EventStore;

  const summarise = async (stream: StreamId, summary: SummaryUpdate): Promise<void> => {
    const { head } = await store.read(stream);
    await store.commit(stream, { expectedHead: head, recordedAt: summary.updatedAt, entries: [], outbox: [], summary });
  };
  const names = (items: JobSummary[]) => items.map((s) => s.name);
  const listAll = async (query: Omit<ListJobsQuery, 'cursor'>): Promise<JobSummary[][]> => {
    const pages: JobSummary[][] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listJobs({ ...query, ...(cursor === undefined ? {} : { cursor }) });
      pages.push(page.items);
      cursor = page.cursor;
    } while (cursor !== undefined);
    return pages;
  };
  const failed = { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: at(90) };
  const complete = { type: 'Complete', status: 'True', lastTransitionTime: at(80) };

  // Five objects created a minute apart: j0 oldest … j4 newest.
  const fleet = [
    { stream: aStream({ clusterId: 'cluster-a', namespace: 'ml' }), condition: complete },
    { stream: aStream({ clusterId: 'cluster-b', namespace: 'ml' }), condition: failed },
    { stream: aStream({ clusterId: 'cluster-a', namespace: 'etl' }), condition: failed },
    { stream: aStream({ kind: 'JobSet', clusterId: 'cluster-a', namespace: 'ml' }), condition: undefined },
    { stream: aStream({ clusterId: 'cluster-a', namespace: 'ml' }), condition: complete },
  ];
  const given = async (): Promise<void> => {
    for (const [i, { stream, condition }] of fleet.entries()) {
      await summarise(stream, aSummary({ name: `j${i}`, createdAt: at(60 * i), updatedAt: at(100), ...(condition ? { latestCondition: condition } : {}) }));
    }
  };

  describe('fleet view', () => {
    beforeEach(async () => { store = await factory(); });

    it('lists summaries newest first with their fields', async () => {
      await given();
      const { items, cursor } = await store.listJobs({ limit: 10 });
      expect(names(items)).toEqual(['j4', 'j3', 'j2', 'j1', 'j0']);
      expect(cursor).toBeUndefined();
      expect(items[3]).toEqual({ ...fleet[1]?.stream, name: 'j1', createdAt: at(60), updatedAt: at(100), latestCondition: failed });
    });

    it('pages through every summary once with the cursor', async () => {
      await given();
      expect((await listAll({ limit: 2 })).map(names)).toEqual([['j4', 'j3'], ['j2', 'j1'], ['j0']]);
      expect((await listAll({ limit: 5 })).map(names)).toEqual([['j4', 'j3', 'j2', 'j1', 'j0']]);
    });

    it('continues right after any item of a page with that item\'s cursor', async () => {
      await given();
      const page = await store.listJobs({ clusterId: 'cluster-a', limit: 3 });
      expect(names(page.items)).toEqual(['j4', 'j3', 'j2']);
      expect(page.after).toHaveLength(3);
      expect(names((await store.listJobs({ clusterId: 'cluster-a', limit: 3, cursor: page.after[0]! })).items)).toEqual(['j3', 'j2', 'j0']);
      expect(names((await store.listJobs({ clusterId: 'cluster-a', limit: 3, cursor: page.after[2]! })).items)).toEqual(['j0']);
      expect((await store.listJobs({ clusterId: 'cluster-a', limit: 3, cursor: page.after[1]! })).items.map((s) => s.uid))
        .toEqual([page.items[2]!.uid, fleet[0]!.stream.uid]);
    });

    it.each([
      ['cluster', { clusterId: 'cluster-a' }, ['j4', 'j3', 'j2', 'j0']],
      ['cluster and namespace', { clusterId: 'cluster-a', namespace: 'ml' }, ['j4', 'j3', 'j0']],
      ['namespace', { namespace: 'ml' }, ['j4', 'j3', 'j1', 'j0']],
      ['condition', { condition: 'Failed' }, ['j2', 'j1']],
      ['kind', { kind: 'JobSet' as const }, ['j3']],
      ['cluster and condition', { clusterId: 'cluster-a', condition: 'Complete' }, ['j4', 'j0']],
    ])('filters by %s', async (_, filter, expected) => {
      await given();
      expect((await listAll({ ...filter, limit: 1 })).flat().map((s) => s.name)).toEqual(expected);
    });

    it('shows the latest summary of an object after a later commit', async () => {
      await given();
      const first = fleet[0]?.stream as StreamId;
      await summarise(first, aSummary({ name: 'j0', createdAt: at(0), updatedAt: at(200), latestCondition: failed, finishedAt: at(90) }));

      expect(names((await store.listJobs({ condition: 'Failed', limit: 10 })).items)).toEqual(['j2', 'j1', 'j0']);
      expect(names((await store.listJobs({ condition: 'Complete', limit: 10 })).items)).toEqual(['j4']);
      expect(await store.findJob({ ...first, name: 'j0' })).toMatchObject({ finishedAt: at(90), updatedAt: at(200) });
    });

    it('finds the most recent object of a reused name, or the one with the given uid', async () => {
      const older = aStream();
      const newer = aStream();
      await summarise(newer, aSummary({ name: 'nightly', createdAt: at(3600) }));
      await summarise(older, aSummary({ name: 'nightly', createdAt: at(0), finishedAt: at(60) }));
      const query = { kind: 'Job' as const, clusterId: 'cluster-a', namespace: 'default', name: 'nightly' };

      expect(await store.findJob(query)).toMatchObject({ uid: newer.uid });
      expect(await store.findJob({ ...query, uid: older.uid })).toMatchObject({ uid: older.uid, finishedAt: at(60) });
      expect(await store.findJob({ ...query, name: 'other' })).toBeUndefined();
      expect(await store.findJob({ ...query, namespace: 'elsewhere' })).toBeUndefined();
      expect(await store.findJob({ ...query, name: 'other', uid: older.uid })).toBeUndefined();
    });

    it('shows by name an object not deleted first, then the newest creationTimestamp, then the latest arrival (issue 24)', async () => {
      const query = { kind: 'Job' as const, clusterId: 'cluster-a', namespace: 'default', name: 'rerun' };
      // deleted and recreated in the same second (TestImmediateJobRecreation): the live one, whichever was written last
      const [gone, live] = [aStream(), aStream()];
      await summarise(live, aSummary({ name: 'rerun', createdAt: at(10) }));
      await summarise(gone, aSummary({ name: 'rerun', createdAt: at(10), deleted: true }));
      expect(await store.findJob(query)).toMatchObject({ uid: live.uid });
      // an old deleted Job whose creationTimestamp is in the future does not hide the live one
      const future = aStream();
      await summarise(future, aSummary({ name: 'rerun', createdAt: '2099-01-01T00:00:00Z', deleted: true }));
      expect(await store.findJob(query)).toMatchObject({ uid: live.uid });
      // two not deleted in the same second: the one whose log began later
      const [first, second] = [aStream(), aStream()];
      const twins = { ...query, name: 'twins' };
      await logEntries(store, first, [anEntry('first-1')], at(20));
      await logEntries(store, second, [anEntry('second-1')], at(21));
      await summarise(second, aSummary({ name: 'twins', createdAt: at(5) }));
      await summarise(first, aSummary({ name: 'twins', createdAt: at(5) }));
      expect(await store.findJob(twins)).toMatchObject({ uid: second.uid });
      // all deleted: the newest
      const [a, b] = [aStream(), aStream()];
      await summarise(a, aSummary({ name: 'all-gone', createdAt: at(1), deleted: true }));
      await summarise(b, aSummary({ name: 'all-gone', createdAt: at(2), deleted: true }));
      expect(await store.findJob({ ...query, name: 'all-gone' })).toMatchObject({ uid: b.uid, deleted: true });
    });

    it('finds the live object of a name reused more often than one index page holds', async () => {
      const query = { kind: 'Job' as const, clusterId: 'cluster-a', namespace: 'default', name: 'daily' };
      const live = aStream();
      await summarise(live, aSummary({ name: 'daily', createdAt: at(0) }));
      for (let i = 1; i <= 30; i++) await summarise(aStream(), aSummary({ name: 'daily', createdAt: at(i), deleted: true }));
      expect(await store.findJob(query)).toMatchObject({ uid: live.uid });
    });

    it('keeps the log and the summary after the cluster deletes the Job', async () => {
      const stream = aStream();
      await logEntries(store, stream, [anEntry('created'), anEntry('deleted')], at(0));
      await summarise(stream, aSummary({ name: 'gone', latestCondition: complete, finishedAt: at(80), updatedAt: at(120) }));

      expect((await store.read(stream)).entries.map((e) => e.eventId)).toEqual(['created', 'deleted']);
      expect(await store.findJob({ ...stream, name: 'gone' })).toMatchObject({ finishedAt: at(80) });
      expect(names((await store.listJobs({ limit: 10 })).items)).toEqual(['gone']);
    });
  });
}
