import { readFileSync } from 'node:fs';
import { BatchWriteItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { publishItems } from '../../../shared/publish/publish.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { writeBatch } from '../../../shared/decide/write-batch.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { jobSetDecider, jobSetStatus } from '../../../shared/jobset/index.ts';
import { freshTable, localClient } from './local-table.ts';
import { RecordingPublisher } from '../../support/service-harness.ts';

// Nothing stored is lost or misread: the table items in test/fixtures/stored-bff3173/ were written
// by jobfold at bff3173 (before the one write loop) on DynamoDB Local — Job logs in pages with
// their snapshots, archived pods and outbox pages; a Job whose sync a crash cut short after its
// first commit step; JobSet logs of appended entries and markers, decided by the reconcile
// function, with its outbound-batch outbox items and snapshots; a JobSet whose last child
// statuses were appended but never reconciled; and every outbox item still pending. Read with
// today's code, each log folds to the status bff3173 computed, the cut-short sync is finished as
// a run without a crash would have written it, the JobSet owed a decision gets it, and the
// pending outbox publishes exactly what bff3173's publisher would have.

const FIXTURES = new URL('../../fixtures/stored-bff3173/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8')) as Record<string, any>;

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    if ('$b64' in value) return Buffer.from((value as { $b64: string }).$b64, 'base64');
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

let client: DynamoDBClient;
let store: DynamoDbEventStore;
const deps = () => ({ store, clock: () => '2026-07-01T00:00:00Z', snapshotEvery: 5, limits: { pageBytes: 300, stepBytes: 1 } });

beforeAll(async () => {
  client = localClient();
  const tableName = await freshTable(client);
  store = new DynamoDbEventStore({ client, tableName });
  const items = decode(JSON.parse(readFileSync(new URL('items.json', FIXTURES), 'utf8'))) as Record<string, AttributeValue>[];
  for (let i = 0; i < items.length; i += 25) {
    await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}, 120_000);
afterAll(() => client?.destroy());

/**
 * A log as compared across Jobs: what each entry says, with the Job's uid (and so the chain
 * hashes) left out, and the version of the fold that took each decision (the reference's were
 * taken by bff3173's fold, the finished sync's by today's: FOLD_VERSION moves with every fold
 * change), and the latest success an interim condition logs since fold-2026-11-28.29
 * (shared/job/interim-instants.ts; bff3173's fold walked the pods for it instead).
 */
async function plainLog(stream: StreamId) {
  const { entries } = await store.read(stream);
  const text = JSON.stringify(entries.map(({ seq, eventId, type, observedAt, body }) => ({ seq, eventId, type, observedAt, body })),
    // Fields a later fold adds to the same decision: the latest success SuccessCriteriaMet logs (.28) and the
    // cause of each finalizer removal (PodFinalizersRemovalRequested.causes, .65), which bff3173 did not write.
    (key, v: unknown) => (key === 'chainHead' || key === 'foldVersion' || key === 'lastSuccessAt' || key === 'causes' ? undefined : v));
  return JSON.parse(text.replaceAll(stream.uid, 'JOB')) as unknown;
}

describe('a table written by bff3173, read by today\'s code', () => {
  it.each(['fx-managed', 'fx-failed'])('folds the Job %s (pages, snapshots, archived pods) to the status bff3173 computed', async (name) => {
    const { stream, status, head } = expected[name];
    const loaded = await loadState(jobDecider(), store, stream);
    expect(loaded.head).toBe(head);
    expect(jobStatus(loaded.state)).toEqual(status);
  });

  it('finishes a sync a crash cut short as a run without a crash wrote it, and puts its summary over the one bff3173 stored', async () => {
    const { stream, batches, reference, referenceStatus } = expected['fx-cut'];
    const [storedBefore] = await store.getSummaries([stream]);
    for (const batch of batches as Observation[][]) await writeBatch(jobDecider(), deps(), stream, batch);
    expect(jobStatus((await loadState(jobDecider(), store, stream)).state)).toEqual(referenceStatus);
    expect(await plainLog(stream)).toEqual(await plainLog(reference));
    // bff3173's summary carries no `hd` (the position a summary shows): the summary put after the commit replaces it.
    const [storedAfter] = await store.getSummaries([stream]);
    const [referenceSummary] = await store.getSummaries([reference]);
    expect(storedBefore?.updatedAt).not.toBe(deps().clock());
    expect(storedAfter?.updatedAt).toBe(deps().clock());
    expect(storedAfter?.latestCondition).toEqual(referenceSummary?.latestCondition);
  });

  it('folds the JobSet the reconcile function decided (entries, markers, snapshots) to the status bff3173 computed', async () => {
    const { stream, status } = expected['jobset-restarted'];
    expect(jobSetStatus((await loadState(jobSetDecider(), store, stream)).state)).toEqual(status);
    expect(status).toMatchObject({ restarts: 1 });
  });

  it('decides what a JobSet whose last statuses were never reconciled owes, once', async () => {
    const { stream, status } = expected['jobset-owed'];
    expect(jobSetStatus((await loadState(jobSetDecider(), store, stream)).state)).toEqual(status);
    expect(status.terminalState).toBe('');
    await writeBatch(jobSetDecider(), deps(), stream, []);
    const after = jobSetStatus((await loadState(jobSetDecider(), store, stream)).state);
    expect(after.terminalState).toBe('Failed');
    const head = (await store.read(stream)).head;
    await writeBatch(jobSetDecider(), deps(), stream, []);
    expect((await store.read(stream)).head).toBe(head);
  });

  it('publishes every pending outbox item of both formats, each event once', async () => {
    const pending = expected['pending'] as Record<string, string[]>;
    const wanted = Object.values(pending).flat().sort();
    const bus = new RecordingPublisher();
    // The fixture's items (the JobSet owed a decision queued its own since, under new ids).
    const items = (await store.pendingOutbox(1000)).filter((item) => item.commandId in pending);
    expect(items.map((item) => item.commandId).sort()).toEqual(Object.keys(pending).sort());
    const outcome = await publishItems({ store, publisher: bus, clock: () => '2026-07-01T00:01:00Z' }, items);
    expect(outcome.failedItems).toEqual([]);
    expect(bus.sent.map((e) => `${e.detailType} ${e.commandId}`).sort()).toEqual(wanted);
    expect((await store.pendingOutbox(1000)).filter((item) => item.commandId in pending)).toEqual([]);
  });
});
