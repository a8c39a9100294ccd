import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { ForwarderConfig } from './config.ts';

/** Region when only endpoint overrides point somewhere (the local stack ignores it). */
const LOCAL_REGION = 'us-east-1';
/** Credentials for loopback endpoints: the SDK signs every request, local fakes ignore it. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

type AwsConfig = Pick<ForwarderConfig, 'region' | 'eventsEndpoint' | 'sqsEndpoint'>;

/**
 * The EventBridge client. Its own retries are off: the sender retries with backoff and then
 * spools, and SDK retries underneath would multiply the delays.
 */
export function eventBridgeClientFor(config: AwsConfig, env: Readonly<Record<string, string | undefined>>): EventBridgeClient {
  return new EventBridgeClient({ ...awsOptions(config, config.eventsEndpoint, env), maxAttempts: 1 });
}

export function sqsClientFor(config: AwsConfig, env: Readonly<Record<string, string | undefined>>): SQSClient {
  return new SQSClient(awsOptions(config, config.sqsEndpoint, env));
}

function awsOptions(config: AwsConfig, endpoint: string | undefined, env: Readonly<Record<string, string | undefined>>) {
  const anyEndpoint = config.eventsEndpoint ?? config.sqsEndpoint;
  const region = config.region ?? (anyEndpoint ? LOCAL_REGION : undefined);
  const local = endpoint !== undefined && isLoopback(endpoint) && !env.AWS_ACCESS_KEY_ID;
  return {
    ...(region ? { region } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(local ? { credentials: LOCAL_CREDENTIALS } : {}),
  };
}

function isLoopback(endpoint: string): boolean {
  const host = new URL(endpoint).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}
