import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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
