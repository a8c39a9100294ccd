import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createLocalClient, createTables, startDynamoDbLocal, type DynamoDbLocal } from '../dynamodb-local.ts';

/** The event-store table on DynamoDB Local: started here, or on a running one (tests). */
export interface LocalDatabase {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  /** Closes the client, and stops DynamoDB Local when it was started here. */
  close(): Promise<void>;
}

/**
 * Starts DynamoDB Local (in memory, or with its files in `dbPath`) unless `endpoint` is given,
 * and creates the table from TABLE_DEFINITION (the CDK stack's definition) unless it exists.
 * Throws Error(JAVA_REQUIRED_MESSAGE) without Java.
 */
export async function openLocalDatabase(endpoint: string | undefined, tableName: string, dbPath?: string): Promise<LocalDatabase> {
  const local: DynamoDbLocal | undefined = endpoint === undefined ? await startDynamoDbLocal({ dbPath }) : undefined;
  const url = endpoint ?? (local as DynamoDbLocal).endpoint;
  const client = createLocalClient(url);
  const close = async () => {
    client.destroy();
    await local?.stop();
  };
  try {
    await createTables(client, tableName);
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint: url, client, close };
}
