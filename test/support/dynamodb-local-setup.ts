import type { TestProject } from 'vitest/node';
import { hasJava, JAVA_REQUIRED_MESSAGE, startDynamoDbLocal } from '../../local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Endpoints of the DynamoDB Locals started for this run, one per worker slot: the file
     * running in slot VITEST_POOL_ID uses entry VITEST_POOL_ID - 1 (test/support/ddb-endpoint.ts).
     */
    ddbEndpoints: string[];
  }
}

/**
 * Vitest globalSetup: starts one in-memory DynamoDB Local per worker slot (maxWorkers of them)
 * and provides their endpoints to tests; the returned teardown stops them. One per slot, because
 * DynamoDB Local runs every request through a single SQLite thread, so two files on one instance
 * wait for each other, and because a file can then start on an instance nobody else uses
 * (test/support/empty-dynamodb-local.ts drops what the slot's previous file left behind).
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!hasJava()) {
    // One line saying what to install, instead of a stack trace from the first test.
    const error = new Error(JAVA_REQUIRED_MESSAGE);
    error.stack = JAVA_REQUIRED_MESSAGE;
    throw error;
  }
  const slots = Math.max(1, project.config.maxWorkers);
  const started = await Promise.allSettled(Array.from({ length: slots }, () => startDynamoDbLocal()));
  const locals = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async (): Promise<void> => { await Promise.all(locals.map((local) => local.stop())); };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await stopAll();
    throw failed.reason;
  }
  project.provide('ddbEndpoints', locals.map((local) => local.endpoint));
  return stopAll;
}
