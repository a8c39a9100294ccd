import { afterAll, beforeAll, describe } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { describeQueryReadsContract } from './contract/query-reads.contract.ts';
import { freshTable, localClient } from './local-table.ts';

// What the query routes read beside the entries (first-sighting marks, point reads), on both
// stores (a file of its own: the main contract suite is long enough).
describe('in-memory event store', () => describeQueryReadsContract(async () => new InMemoryEventStore()));

describe('DynamoDB event store on DynamoDB Local', () => {
  let client: DynamoDBClient;
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());

  describeQueryReadsContract(async () => new DynamoDbEventStore({ client, tableName: await freshTable(client) }));
});
