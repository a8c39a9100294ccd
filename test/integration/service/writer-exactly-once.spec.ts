import { afterAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { aJobScenario, crashesOf, ids, kinds, run } from '../../unit/writer/exactly-once-support.ts';

// test/unit/writer/exactly-once.spec.ts on DynamoDB Local's log pages and outbox, for the Job
// whose sync carries every kind of command (a managed Job whose leader succeeds: terminations
// in pages, the condition, finalizer removals, the status), dying before and after each commit
// step of that sync's batch (after each, and before the first). Each run is its own Job on one table; logs and ids are compared
// with the Job's uid (and so the chain hashes) taken out.

describe('the writer dying at each commit step on DynamoDB Local', () => {
  let client: DynamoDBClient | undefined;
  afterAll(() => client?.destroy());

  it('leaves the uncrashed log and publishes every command once, under its id', async () => {
    client = localClient();
    const store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
    let runs = 0;
    const once = async (crash?: Parameters<typeof run>[2]) => {
      const uid = `job-${++runs}`;
      const outcome = await run(aJobScenario(uid, true, 'leader succeeds'), store, crash);
      // chain hashes cover the uid: left out
      const plain = (value: unknown) =>
        JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'hash' || key === 'chainHead' ? undefined : v)).replaceAll(uid, 'JOB')) as unknown;
      return { ...outcome, log: plain(outcome.log), ids: plain(ids(outcome.sent)) };
    };

    const reference = await once();
    // Dying before step n's commit leaves the log that dying after step n - 1's does: after every
    // step, and before the first.
    const tipping = crashesOf(reference.stepsPerBatch).filter((c) => c.batch === 2 && (c.point === 'afterCommit' || c.step === 1));
    expect(tipping.length).toBeGreaterThanOrEqual(6);
    for (const crash of tipping) {
      const crashed = await once(crash);
      const where = `${crash.point} step ${crash.step} of batch ${crash.batch}`;
      expect(crashed.crashes, where).toBe(1);
      expect(crashed.log, where).toEqual(reference.log);
      expect(crashed.ids, where).toEqual(reference.ids);
      expect(kinds(crashed.sent), where).toEqual(kinds(reference.sent));
    }
  }, 180_000);
});
