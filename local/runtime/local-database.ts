import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createLocalClient, createTables, startDynamoDbLocal } from '../dynamodb-local.ts';
import { WatchedDatabase, type DatabaseEvents, type DatabaseStatus } from './database-health.ts';

/** The event-store table on DynamoDB Local: started here, or on a running one (tests). */
export interface LocalDatabase {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  /** DynamoDB Local's health, when it was started here (watched and started again when it dies). */
  status(): DatabaseStatus | undefined;
  /** Resolves once the database answers again (at once for one not started here). */
  whenHealthy(): Promise<void>;
  /** Closes the client, and stops DynamoDB Local when it was started here. */
  close(): Promise<void>;
}

/** What a database on an endpoint given from outside reports: nothing to watch. */
const NOT_WATCHED: DatabaseEvents = { say: () => undefined, fatal: () => undefined };

/**
 * Starts DynamoDB Local (in memory, or with its files in `dbPath`) unless `endpoint` is given,
 * and creates the table from TABLE_DEFINITION (the CDK stack's definition) unless it exists.
 * One started here is watched (database-health.ts): `events` hears when it dies and comes back.
 * Throws Error(JAVA_REQUIRED_MESSAGE) without Java.
 */
export async function openLocalDatabase(endpoint: string | undefined, tableName: string, dbPath?: string, events: DatabaseEvents = NOT_WATCHED): Promise<LocalDatabase> {
  const local = endpoint === undefined ? await startDynamoDbLocal({ dbPath }) : undefined;
  const url = endpoint ?? (local?.endpoint as string);
  const client = createLocalClient(url);
  const watched = local && new WatchedDatabase(local, client, tableName, dbPath, events);
  const close = async () => {
    client.destroy();
    await watched?.stop();
  };
  try {
    await createTables(client, tableName);
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint: url, client, status: () => watched?.status(), whenHealthy: () => watched?.whenHealthy() ?? Promise.resolve(), close };
}
