import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createLocalClient, createTables } from '../../../local/dynamodb-local.ts';

/** A client for the DynamoDB Local that test/support/dynamodb-local-setup.ts started. */
export function localClient(): DynamoDBClient {
  const endpoint = inject('ddbEndpoint');
  if (!endpoint) {
    throw new Error('no DynamoDB Local endpoint: add test/support/dynamodb-local-setup.ts to globalSetup in test/vitest.config.ts');
  }
  return createLocalClient(endpoint);
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
