import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { describeEventStoreContract } from './event-store.contract.ts';
import { dropTable, freshTable, localClient } from './local-table.ts';

describeEventStoreContract('in-memory', async () => new InMemoryEventStore());

describe('on DynamoDB Local', () => {
  let client: DynamoDBClient;
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());

  // A table per test keeps the fleet view and the outbox of one test out of the next; it is
  // dropped after the test, so DynamoDB Local never holds more than one of them.
  const tables: string[] = [];
  afterEach(async () => {
    for (const tableName of tables.splice(0)) await dropTable(client, tableName);
  });
  describeEventStoreContract('DynamoDB', async () => {
    const tableName = await freshTable(client);
    tables.push(tableName);
    return new DynamoDbEventStore({ client, tableName });
  });
});
