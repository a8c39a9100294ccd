import { afterAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { crashesOf, run } from '../../unit/jobset-service/exactly-once-support.ts';

// test/unit/jobset-service/exactly-once.spec.ts on DynamoDB Local's log pages and outbox: the
// managed JobSet whose first sync takes several commit steps, dying before and after each step
// of each batch. Each run is its own JobSet on one table; logs and ids are compared with the
// JobSet's uid (and so the chain hashes) taken out.

describe('the writer dying at each commit step of a JobSet on DynamoDB Local', () => {
  let client: DynamoDBClient | undefined;
  afterAll(() => client?.destroy());

  it('leaves the uncrashed log and publishes every command once, under its id', async () => {
    client = localClient();
    const store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
    let runs = 0;
    const once = async (crash?: Parameters<typeof run>[2]) => {
      const uid = `js-${++runs}`;
      const outcome = await run(uid, store, crash);
      const plain = (value: unknown) =>
        JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'hash' || key === 'chainHead' ? undefined : v)).replaceAll(uid, 'JOBSET')) as unknown;
      return { ...outcome, log: plain(outcome.log), ids: plain(outcome.ids) };
    };
    const reference = await once();
    const crashes = crashesOf(reference.commitsPerBatch);
    expect(crashes.length).toBeGreaterThanOrEqual(10);
    for (const crash of crashes) {
      const crashed = await once(crash);
      const where = `${crash.point} step ${crash.step} of batch ${crash.batch}`;
      expect(crashed.crashes, where).toBe(1);
      expect(crashed.log, where).toEqual(reference.log);
      expect(crashed.ids, where).toEqual(reference.ids);
    }
  }, 300_000);
});
