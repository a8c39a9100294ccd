import { inject } from 'vitest';

/**
 * The DynamoDB Local of the worker slot this file runs in (test/support/dynamodb-local-setup.ts
 * starts one per slot). No other file uses it while this one runs.
 */
export function ddbEndpoint(): string {
  const endpoints = inject('ddbEndpoints');
  const slot = Number(process.env['VITEST_POOL_ID'] ?? '1');
  const endpoint = endpoints?.[slot - 1];
  if (endpoint === undefined) {
    throw new Error(`no DynamoDB Local for worker slot ${slot}: run with the integration project (globalSetup test/support/dynamodb-local-setup.ts)`);
  }
  return endpoint;
}
