import { randomUUID } from 'node:crypto';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { afterAll, beforeAll } from 'vitest';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../local/local-stack.ts';
import { ddbEndpoint } from '../../support/ddb-endpoint.ts';

/**
 * A local stack on this worker slot's DynamoDB Local (test/support/dynamodb-local-setup.ts), in
 * a table of its own, on a free port. Fast timings: the publish sweep every 200 ms.
 */
export function startTestStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  return startLocalStack({
    port: 0,
    dynamoDbEndpoint: ddbEndpoint(),
    tableName: `local-${randomUUID()}`,
    tuning: { publish: { sweepEveryMs: 200 } },
    ...options,
  });
}

/** A test stack and a forwarder's EventBridge client, started before the enclosing block's tests and stopped after them. */
export interface RunningStack {
  readonly stack: LocalStack;
  readonly client: EventBridgeClient;
}

/** Starts a test stack (startTestStack) for the enclosing describe block, or the file, and stops it after. */
export function useTestStack(options: LocalStackOptions = {}): RunningStack {
  const running = {} as { stack: LocalStack; client: EventBridgeClient };
  beforeAll(async () => {
    running.stack = await startTestStack(options);
    running.client = eventBridgeFor(running.stack);
  }, 120_000);
  afterAll(async () => {
    running.client?.destroy();
    await running.stack?.stop();
  });
  return running;
}

/** The EventBridge client a forwarder would use, pointed at the stack. */
export function eventBridgeFor(stack: LocalStack): EventBridgeClient {
  return new EventBridgeClient({
    endpoint: stack.eventsUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    maxAttempts: 1,
  });
}

/** Polls `probe` every 50 ms until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}
