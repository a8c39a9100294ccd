import { afterAll, describe } from 'vitest';
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import type { ServiceStore, ServiceStoreFactory } from './service-store.ts';

/** A DynamoDbEventStore on a fresh table of the run's DynamoDB Local, for every call. */
export function dynamoDbServiceStore(client: () => DynamoDBClient): ServiceStoreFactory {
  return async () => {
    const tableName = await freshTable(client());
    return onTable(client(), tableName);
  };
}

/**
 * One table for every call (creating a table takes DynamoDB Local a while): for suites whose
 * tests keep to streams of their own, and never look at the whole table.
 */
export function sharedDynamoDbServiceStore(client: () => DynamoDBClient): ServiceStoreFactory {
  let table: Promise<string> | undefined;
  return async () => onTable(client(), await (table ??= freshTable(client())));
}

function onTable(client: DynamoDBClient, tableName: string): ServiceStore {
  const store = new DynamoDbEventStore({ client, tableName });
  return {
    store,
    writeUnits: () => store.capacity.writeUnits + store.capacity.rejectedWrites,
    itemCount: async () => {
      const output = await client.send(new ScanCommand({ TableName: tableName, Select: 'COUNT', ConsistentRead: true }));
      return output.Count ?? 0;
    },
  };
}

/**
 * Runs a service suite against DynamoDB Local: one client, and one table for the whole suite
 * (the suites keep to streams of their own and look at the store through them).
 */
export function describeOnDynamoDbLocal(suite: (label: string, factory: ServiceStoreFactory) => void): void {
  describe('on DynamoDB Local', () => {
    let client: DynamoDBClient | undefined;
    afterAll(() => client?.destroy());
    suite('DynamoDB Local', sharedDynamoDbServiceStore(() => (client ??= localClient())));
  });
}
