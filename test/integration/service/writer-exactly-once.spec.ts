import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { crashesOf, ids, kinds, withoutUid, type Crash } from '../../support/crashing-run.ts';
import { aJobScenario, run as runJob } from '../../unit/writer/exactly-once-support.ts';
import { run as runJobSet } from '../../unit/jobset-service/exactly-once-support.ts';
import { writeDeps, writeJob } from '../../unit/writer/write-support.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { ATTR, ITEM_TYPE } from '../../../functions/adapters/table-layout.ts';

// test/unit/writer/exactly-once.spec.ts and test/unit/jobset-service/exactly-once.spec.ts on
// DynamoDB Local's log pages and outbox. Each run is its own Job (JobSet) on one table; logs and
// ids are compared with its uid (and so the chain hashes) taken out.

interface Outcome {
  readonly log: unknown;
  readonly ids: unknown;
  readonly sent: readonly OutboundEvent[];
  readonly crashes: number;
}

/** Each crashed run crashed once, and wrote the log and published the commands of the reference. */
async function expectEachLikeTheReference(reference: Outcome, crashes: readonly Crash[], once: (crash: Crash) => Promise<Outcome>) {
  for (const crash of crashes) {
    const crashed = await once(crash);
    const where = `${crash.point} step ${crash.step} of batch ${crash.batch}`;
    expect(crashed.crashes, where).toBe(1);
    expect(crashed.log, where).toEqual(reference.log);
    expect(crashed.ids, where).toEqual(reference.ids);
    expect(kinds(crashed.sent), where).toEqual(kinds(reference.sent));
  }
}

describe('the writer dying at each commit step on DynamoDB Local', () => {
  let client: DynamoDBClient;
  let store: DynamoDbEventStore;
  let runs = 0;
  beforeAll(async () => {
    client = localClient();
    store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
  });
  afterAll(() => client?.destroy());

  it('of a Job: leaves the uncrashed log and publishes every command once, under its id', async () => {
    // The Job whose sync carries every kind of command (a managed Job whose leader succeeds:
    // terminations in pages, the condition, finalizer removals, the status).
    const once = async (crash?: Crash) => {
      const uid = `job-${++runs}`;
      const outcome = await runJob(aJobScenario(uid, true, 'leader succeeds'), store, crash);
      return { ...outcome, log: withoutUid(outcome.log, uid), ids: withoutUid(ids(outcome.sent), uid) };
    };

    const reference = await once();
    // Dying before step n's commit leaves the log that dying after step n - 1's does: after every
    // step of the sync's batch, and before the first.
    const tipping = crashesOf(reference.stepsPerBatch).filter((c) => c.batch === 2 && (c.point === 'afterCommit' || c.step === 1));
    expect(tipping.length).toBeGreaterThanOrEqual(6);
    await expectEachLikeTheReference(reference, tipping, once);
  }, 180_000);

  it('of a JobSet: leaves the uncrashed log and publishes every command once, under its id', async () => {
    // The managed JobSet whose first sync takes several commit steps, dying before and after each
    // step of each batch.
    const once = async (crash?: Crash) => {
      const uid = `js-${++runs}`;
      const outcome = await runJobSet(uid, store, crash);
      return { ...outcome, log: withoutUid(outcome.log, uid), ids: withoutUid(outcome.ids, uid) };
    };

    const reference = await once();
    const crashes = crashesOf(reference.stepsPerBatch);
    expect(crashes.length).toBeGreaterThanOrEqual(10);
    await expectEachLikeTheReference(reference, crashes, once);
  }, 300_000);
});

describe('the writer dying between a commit and its summary on DynamoDB Local', () => {
  let client: DynamoDBClient;
  let tableName: string;
  beforeAll(async () => {
    client = localClient();
    tableName = await freshTable(client);
  });
  afterAll(() => client?.destroy());

  /** The table's client, but the next summary put dies (the process ended after the commit's transaction). */
  function dyingBeforeSummary(): { client: DynamoDBClient; arm: () => void } {
    let armed = false;
    const dying = new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return (command: unknown, ...rest: unknown[]) => {
          if (armed && command instanceof PutItemCommand && command.input.Item?.[ATTR.type]?.S === ITEM_TYPE.summary) {
            armed = false;
            return Promise.reject(new Error('the process died before the summary put'));
          }
          return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
        };
      },
    });
    return { client: dying, arm: () => { armed = true; } };
  }

  it('shows the summary of the head once the batch is delivered again', async () => {
    const { stream, batches } = aJobScenario('job-summary-crash', true, 'leader succeeds');
    const { client: dying, arm } = dyingBeforeSummary();
    const store = new DynamoDbEventStore({ client: dying, tableName });
    const deps = writeDeps(store, { cache: new StateCache() });
    const condition = async () => (await store.getSummaries([stream]))[0]?.latestCondition?.type;
    for (const batch of batches.slice(0, 2)) await writeJob(deps, stream, [...batch]);
    const before = await condition();

    arm();
    await expect(writeJob(deps, stream, [...(batches[2] ?? [])])).rejects.toThrow('the process died before the summary put');
    const head = (await store.read(stream)).head;
    expect(await condition()).toBe(before);

    await writeJob(deps, stream, [...(batches[2] ?? [])]);
    expect((await store.read(stream)).head).toBe(head);
    expect(await condition()).toBe('SuccessCriteriaMet');
  }, 60_000);
});
