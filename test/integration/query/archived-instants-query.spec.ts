import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import type { EventStore, LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { entryEvent } from '../../../shared/job/log-codec.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { countAtSync } from '../../../shared/job/observe-pod.ts';
import { explainJob, jobOutcome } from '../../../shared/job/explain.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { anIndexedJob, aPod, at, CLUSTER, JOB_UID, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { jobPath, queryClient, type Get } from '../../unit/query/support/query-client.ts';
import { writeDeps, writeJob } from '../../unit/writer/write-support.ts';
import { freshTable, localClient } from '../store/local-table.ts';

// Issues 20, 21: same log => same answer, for the query API too. `status?at=` and `/explain`
// fold from the newest snapshot before their point. Folding a Job's interim condition notes the
// instant its criterion was met (state.outcomeMetAt) and the latest success seen
// (state.successMetAt); a pod archived by an earlier snapshot holds one of the instants they are
// read from. The writer logs both in the condition's evidence (shared/job/interim-instants.ts),
// so the query restores only the archived pods its tail names. A log written before
// fold-2026-11-28.29 lacks them: its fold reads them from every pod, and the query restores the
// whole archive (shared/job/archive-restore.ts). Restoring only the named pods there, the
// criterion's instant was unknown, and a pod seen running after it but before jobfold's finish
// was counted in the final status as if it had kept the Job waiting (settleAfterFinish):
// `failed: 1` where the replay of the log says 0.

const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: JOB_UID };
const status = jobPath(CLUSTER, 'default', 'myjob', '/status');
const explain = jobPath(CLUSTER, 'default', 'myjob', '/explain');

/** The instants an interim condition's evidence logs since fold-2026-11-28.29. */
const LOGGED_INSTANTS = ['metAt', 'lastSuccessAt'];

/** An interim condition's entry as a writer before fold-2026-11-28.29 logged it: without the instants. */
function asBefore(entry: LogEntry): LogEntry {
  const body = entry.body as { condition?: { type?: string }; evidence?: Record<string, unknown> };
  const type = body.condition?.type;
  if (entry.type !== 'JobConditionChanged' || (type !== 'SuccessCriteriaMet' && type !== 'FailureTarget')) return entry;
  const evidence = Object.fromEntries(Object.entries(body.evidence ?? {}).filter(([key]) => !LOGGED_INSTANTS.includes(key)));
  return { ...entry, body: { ...body, evidence } };
}

/** The store as the query reads it: the log as written now or as written before, and how often the whole archive is read. */
function readAs(store: DynamoDbEventStore, edit: (entry: LogEntry) => LogEntry) {
  const reads = { wholeArchive: 0 };
  const view = new Proxy(store, {
    get(target, prop) {
      if (prop === 'read') {
        return async (...args: Parameters<EventStore['read']>) => {
          const result = await target.read(...args);
          return { ...result, entries: result.entries.map(edit) };
        };
      }
      if (prop === 'loadAllArchivedPods') reads.wholeArchive += 1;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { view, reads };
}

let client: DynamoDBClient;
let store: DynamoDbEventStore;
beforeAll(async () => {
  client = localClient();
  store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
  // given a Job of 4 indexes whose success policy needs indexes 0 and 1, its pods running
  const often = writeDeps(store, { snapshotEvery: 1 });
  await writeJob(often, stream, [jobObserved(anIndexedJob(4, { successPolicy: { rules: [{ succeededIndexes: '0-1' }] } }), at(0))]);
  await writeJob(often, stream, [0, 1, 2, 3].map((index) => podObserved(aPod({ index }), at(1))));
  // and pod-1 succeeded at 0:05, its finalizer gone at 0:06: settled, archived by the snapshot after it
  await writeJob(often, stream, [podObserved(aPod({ index: 1, phase: 'Succeeded' }), at(5))]);
  await writeJob(often, stream, [podObserved(aPod({ index: 1, phase: 'Succeeded', finalizer: false }), at(6))]);
  // and no snapshot from then on: every later point is folded from that one
  const rarely = writeDeps(store, { snapshotEvery: 100_000 });
  // pod-0's success at 0:20 arrives after pod-2's report of 0:30: the policy was met at 0:20
  await writeJob(rarely, stream, [podObserved(aPod({ index: 2, ready: at(2) }), at(30)), podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(20))]);
  // the pods jobfold terminated are gone: Complete at 0:42
  await writeJob(rarely, stream, [podDeleted('pod-2', at(41)), podDeleted('pod-3', at(42))]);
  // pod-x, never seen before, was running at 0:35 (after the policy was met) and failed at 0:50
  await writeJob(rarely, stream, [podObserved(aPod({ index: 3, name: 'pod-x' }), at(35))]);
  await writeJob(rarely, stream, [podObserved(aPod({ index: 3, name: 'pod-x', phase: 'Failed' }), at(50))]);
});
afterAll(() => client.destroy());

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe.each([
  { log: 'written now (the interim condition logs its instants)', edit: (entry: LogEntry) => entry, wholeArchive: false },
  { log: 'written before fold-2026-11-28.29 (no instants logged)', edit: asBefore, wholeArchive: true },
])('status?at= and /explain of a Job with a success policy, folded from a snapshot on DynamoDB Local: a log $log', ({ edit, wholeArchive }) => {
  let get: Get;
  let reads: { wholeArchive: number };
  beforeAll(() => {
    const read = readAs(store, edit);
    reads = read.reads;
    get = queryClient({ store: read.view, config: DEFAULT_FOLD_CONFIG });
  });

  /**
   * The log as the query reads it, and what a replay of its first `seq` entries from the start
   * says: folded, then counted as the sync at that position counted (a reader's fold ends with
   * the decider's `settle`, docs/architecture.md "Counting").
   */
  async function replay(seq: number) {
    const { entries } = await store.read(stream, { afterSeq: 0, limit: seq });
    const log: JobEvent[] = entries.map(edit).map(entryEvent);
    const state = initialState(DEFAULT_FOLD_CONFIG);
    for (const event of log) evolve(state, event);
    countAtSync(state);
    return { state, log };
  }

  it('the log is as named: its SuccessCriteriaMet logs the policy\'s instant, 0:20, or none', async () => {
    const { log } = await replay(1_000);
    const met = log.find((event) => event.type === 'JobConditionChanged' && event.condition.type === 'SuccessCriteriaMet');
    expect(met?.type === 'JobConditionChanged' ? met.evidence.metAt : 'no condition').toBe(wholeArchive ? undefined : at(20));
  });

  it('answer at every position what a replay of the log up to it says', async () => {
    const head = (await get(status)).body.head as number;
    expect(head).toBeGreaterThan(10);
    for (let seq = 1; seq <= head; seq++) {
      // when the status is asked at each position
      const { status: code, body } = await get(status, { at: String(seq) });
      // then it is the replay's
      const { state } = await replay(seq);
      expect(code).toBe(200);
      expect({ seq, outcome: body.outcome, status: body.status }).toEqual({ seq, outcome: jobOutcome(state), status: asJson(jobStatus(state)) });
    }
  });

  it('does not count the pod started after the policy was met in the final status', async () => {
    // when the status is asked at the head, then pod-x's failure is outside the final status
    const { body } = await get(status);
    expect(body.outcome).toBe('Succeeded');
    expect(body.status.failed).toBe(0);
    expect(body.status.completedIndexes).toBe('0,1');
  });

  it('explains the Job as a replay of its whole log does', async () => {
    // when the Job is explained at its head
    const { status: code, body } = await get(explain);
    // then its outcome, summary and conditions, sentences included, are the replayed state's over
    // the whole log: pod-x, terminated after the finish (a decision /explain does not cite), is
    // not counted among SuccessCriteriaMet's lingering pods
    const { state, log } = await replay((await get(status)).body.head);
    const replayed = asJson(explainJob(state, log));
    const folded = (explanation: typeof replayed) => ({ outcome: explanation.outcome, summary: explanation.summary, conditions: explanation.conditions });
    expect(code).toBe(200);
    expect(folded(body)).toEqual(folded(replayed));
  });

  it(wholeArchive ? 'restores the whole archive for the folds over the condition' : 'restores only the archived pods the tails name', () => {
    // then the archive was read whole only for the log without the instants
    if (wholeArchive) expect(reads.wholeArchive).toBeGreaterThan(0);
    else expect(reads.wholeArchive).toBe(0);
  });
});
