// Write units of the log formats and of a big snapshot, measured on DynamoDB Local with
// ReturnConsumedCapacity (figures, not assertions; the assertions are in
// dynamodb-event-store.spec.ts). Run: node test/integration/store/page-wcu-figures.ts
// DynamoDB Local reports PutItem units as DynamoDB bills them (1 per KB) but not transactions,
// so a transaction's units are given as DynamoDB bills them (capacity.billedWriteUnits: 2 per
// started KB of each item).
import { constants } from 'node:zlib';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { entryItem, jsonAttributes } from '../../../functions/adapters/item-codec.ts';
import { pageItems } from '../../../functions/adapters/log-page-codec.ts';
import { itemBytes } from '../../../functions/adapters/metered-table.ts';
import type { CapacityUse } from '../../../functions/adapters/metered-table.ts';
import { keys } from '../../../functions/adapters/table-layout.ts';
import { createLocalClient, createTables, startDynamoDbLocal } from '../../../local/dynamodb-local.ts';
import type { LogEntry, NewEntry } from '../../../shared/log/event-store.ts';
import { decide, evolve, initialState, takeSnapshot, type JobEvent } from '../../../shared/job/index.ts';
import { chainEntries, GENESIS_HASH } from '../../../shared/log/hash-chain.ts';
import { syntheticEvents, syntheticJob } from '../../../bench/synthetic-job.ts';
import { aCommand, aStream, aSummary, at, podEventBody, T0 } from './contract/builders.ts';

const EVENTS = 500;
const observation = (i: number): NewEntry => ({
  eventId: `0b6f3c2e-8d1a-4f7e-9a55-${String(i).padStart(12, '0')}/${123456789 + i}`,
  type: 'PodObserved', observedAt: at(i), body: podEventBody(i),
});
const batch = Array.from({ length: EVENTS }, (_, i) => observation(i));

const local = await startDynamoDbLocal();
const client = createLocalClient(local.endpoint);
try {
  const tableName = 'figures';
  await createTables(client, tableName);
  let uses: CapacityUse[] = [];
  const store = new DynamoDbEventStore({ client, tableName, onConsumedCapacity: (use) => uses.push(use) });
  const units = (operation?: string) => uses.filter((u) => operation === undefined || u.operation === operation).reduce((n, u) => n + u.writeUnits, 0);

  // 1. Legacy (versions up to bff3173 appended each event alone): its entry item (1 unit per
  // started KB, as a PutItem) and its marker (1 unit).
  const legacy = keys.stream(aStream());
  const legacyWcu = batch.reduce((n, entry, i) => n + Math.ceil(itemBytes(entryItem(legacy, entry, i + 1, T0, 'bff3173')) / 1024) + 1, 0);

  // 2. One page, nothing else: a single conditional PutItem.
  const paged = aStream();
  uses = [];
  await store.commit(paged, { expectedHead: 0, recordedAt: T0, entries: batch, outbox: [] });
  const pageWcu = units('PutItem');

  // 3. The same page with an outbox item (one transaction) and a summary (put after it: 1 unit and its four index entries).
  const withSummary = aStream();
  uses = [];
  const billedBefore = store.capacity.billedWriteUnits;
  await store.commit(withSummary, { expectedHead: 0, recordedAt: T0, entries: batch, outbox: [aCommand('c1')], summary: aSummary() });
  const billedTransaction = store.capacity.billedWriteUnits - billedBefore;
  const logged: LogEntry[] = chainEntries(GENESIS_HASH, batch.map((e, i) => ({ ...e, seq: i + 1, recordedAt: T0 })));
  const [page] = pageItems(keys.stream(withSummary), logged, { prevHash: GENESIS_HASH });
  const pageBytes = itemBytes(page ?? {});

  // 4. The snapshot of a 10,000-pod Job with every pod live (the largest it gets).
  const options = { completions: 10_000, parallelism: 10_000, failureEvery: 50 };
  const state = initialState({ gates: { PodFailurePolicyName: true }, validateSpecs: true });
  evolve(state, { type: 'JobObserved', eventId: 'job', clusterId: 'bench', observedAt: '2026-01-01T00:00:00Z', job: syntheticJob(options), seq: 1 });
  let seq = 1;
  for (const event of syntheticEvents(options).slice(0, 20_000)) {
    evolve(state, { ...(event as JobEvent), seq: ++seq });
    for (const decision of decide(state, event.observedAt).decisions) evolve(state, { ...decision, seq: ++seq });
  }
  const snapshot = takeSnapshot(state).snapshot;
  const snapshotJsonBytes = Buffer.byteLength(JSON.stringify(snapshot));
  const stored = jsonAttributes('d', snapshot)['d'];
  const snapshotStoredBytes = stored?.B?.byteLength ?? Buffer.byteLength(stored?.S ?? '');
  const snap = aStream();
  uses = [];
  await store.commit(snap, { expectedHead: 0, recordedAt: T0, entries: [], outbox: [], snapshot: { seq: 0, state: snapshot } });
  const snapshotWcu = units('PutItem');

  console.log(JSON.stringify({
    events: EVENTS,
    eventJsonBytes: Buffer.byteLength(JSON.stringify(batch[0]?.body)),
    legacyWcuPerEvent: legacyWcu / EVENTS,
    pageItemBytes: pageBytes,
    pagePutItemWcu: pageWcu,
    pagePutItemWcuPerEvent: pageWcu / EVENTS,
    pageWithSummaryTransactionWcuAsBilled: billedTransaction,
    pageWithSummaryWcuPerEventAsBilled: billedTransaction / EVENTS,
    pageWithSummaryTransactionWcuDynamoDbLocal: units('TransactWriteItems'),
    snapshotPods: state.pods.size,
    snapshotJsonBytes,
    snapshotStoredBytes,
    snapshotBrotliQuality: snapshotJsonBytes > 64 * 1024 ? 5 : constants.BROTLI_MAX_QUALITY,
    snapshotWcu,
  }, null, 2));
} finally {
  client.destroy();
  await local.stop();
}
