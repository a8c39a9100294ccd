import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { createLocalClient, createTables } from '../../../local/dynamodb-local.ts';
import { ddbEndpoint } from '../../support/ddb-endpoint.ts';

/** A client for this worker slot's DynamoDB Local (test/support/dynamodb-local-setup.ts). */
export function localClient(): DynamoDBClient {
  return createLocalClient(ddbEndpoint());
}

/** Creates a fresh event-store table, so tests never see each other's items; returns its name. */
export async function freshTable(client: DynamoDBClient): Promise<string> {
  const tableName = `events-${randomUUID()}`;
  await createTables(client, tableName);
  return tableName;
}

/**
 * Deletes a table made by freshTable. DynamoDB Local gets slower with every table it holds (each
 * request costs more CPU: more than twice as much with 600 tables as with one), so suites that
 * make a table per test drop it after the test.
 */
export async function dropTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName: tableName }));
}

/**
 * For the describe it is called in: a factory of DynamoDB stores on this worker's DynamoDB Local,
 * each on a fresh table that is dropped after the test (see dropTable).
 */
export function storePerTest(): () => Promise<DynamoDbEventStore> {
  let client: DynamoDBClient;
  const tables: string[] = [];
  beforeAll(() => { client = localClient(); });
  afterAll(() => client.destroy());
  afterEach(async () => {
    for (const tableName of tables.splice(0)) await dropTable(client, tableName);
  });
  return async () => {
    const tableName = await freshTable(client);
    tables.push(tableName);
    return new DynamoDbEventStore({ client, tableName });
  };
}
