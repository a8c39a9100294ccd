import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { describeQueryReadsContract } from './contract/query-reads.contract.ts';
import { dropTable, freshTable, localClient } from './local-table.ts';

// What the query routes read beside the entries (first-sighting marks, point reads), on both
// stores (a file of its own: the main contract suite is long enough).
describe('in-memory event store', () => describeQueryReadsContract(async () => new InMemoryEventStore()));

describe('DynamoDB event store on DynamoDB Local', () => {
  let client: DynamoDBClient;
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());

  // A table per test, dropped after it (DynamoDB Local slows down with every table it holds).
  const tables: string[] = [];
  afterEach(async () => {
    for (const tableName of tables.splice(0)) await dropTable(client, tableName);
  });
  describeQueryReadsContract(async () => {
    const tableName = await freshTable(client);
    tables.push(tableName);
    return new DynamoDbEventStore({ client, tableName });
  });
});
