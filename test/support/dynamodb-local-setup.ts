import type { TestProject } from 'vitest/node';
import { hasJava, JAVA_REQUIRED_MESSAGE, startDynamoDbLocal } from '../../local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoint of the DynamoDB Local started for this run, e.g. http://127.0.0.1:41234. */
    ddbEndpoint: string;
  }
}

/**
 * Vitest globalSetup: starts one in-memory DynamoDB Local for the whole run and provides its
 * endpoint to tests (`inject('ddbEndpoint')`); the returned teardown stops it. Tests create
 * their own tables (local/dynamodb-local.ts createTables), so runs never share state.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!hasJava()) {
    // One line saying what to install, instead of a stack trace from the first test.
    const error = new Error(JAVA_REQUIRED_MESSAGE);
    error.stack = JAVA_REQUIRED_MESSAGE;
    throw error;
  }
  const local = await startDynamoDbLocal();
  project.provide('ddbEndpoint', local.endpoint);
  return local.stop;
}
