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

/**
 * The EventBridge client a forwarder would use, pointed at the stack. One attempt by default, so
 * a test sees every error; a test feeding thousands of calls across pauses passes the attempts
 * the forwarder makes (forwarder/send/put-events.ts retries), since a keep-alive socket the
 * server closed while idle resets the next call on it (ECONNRESET), as any HTTP server may.
 */
export function eventBridgeFor(stack: LocalStack, maxAttempts = 1): EventBridgeClient {
  return new EventBridgeClient({
    endpoint: stack.eventsUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    maxAttempts,
  });
}

/** A file's stack: started before its tests, with a client pointed at it, and stopped after them. */
export interface TestStack {
  readonly stack: LocalStack;
  readonly client: EventBridgeClient;
}

/** Starts a test stack (startTestStack) before the file's tests and stops it after them. */
export function useTestStack(options: LocalStackOptions = {}, client: { maxAttempts?: number } = {}): TestStack {
  let started: TestStack | undefined;
  const fixture: TestStack = {
    get stack() { return required().stack; },
    get client() { return required().client; },
  };
  const required = () => {
    if (!started) throw new Error('the test stack is used before it started (beforeAll)');
    return started;
  };
  beforeAll(async () => {
    const stack = await startTestStack(options);
    started = { stack, client: eventBridgeFor(stack, client.maxAttempts) };
  }, 120_000);
  afterAll(async () => {
    started?.client.destroy();
    await started?.stack.stop();
  });
  return fixture;
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
