import { afterAll, beforeAll, describe } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { describeFirstSightingsContract } from './contract/first-sightings.contract.ts';
import { freshTable, localClient } from './local-table.ts';

// The first-sighting marks of the store contract, on both stores (a file of its own: the
// main contract suite is long enough).
describe('in-memory event store', () => describeFirstSightingsContract(async () => new InMemoryEventStore()));

describe('DynamoDB event store on DynamoDB Local', () => {
  let client: DynamoDBClient;
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());

  describeFirstSightingsContract(async () => new DynamoDbEventStore({ client, tableName: await freshTable(client) }));
});
