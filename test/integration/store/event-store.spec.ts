import { afterAll, beforeAll, describe } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { describeEventStoreContract } from './event-store.contract.ts';
import { freshTable, localClient } from './local-table.ts';

describeEventStoreContract('in-memory', async () => new InMemoryEventStore());

describe('on DynamoDB Local', () => {
  let client: DynamoDBClient;
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());

  // A table per test keeps the fleet view and the outbox of one test out of the next.
  describeEventStoreContract('DynamoDB', async () => new DynamoDbEventStore({ client, tableName: await freshTable(client) }));
});
