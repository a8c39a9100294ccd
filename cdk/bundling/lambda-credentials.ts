import { fromEnv } from '@aws-sdk/credential-providers';

// The SDK clients' default credential chain in the Lambda bundles (cdk/constructs/
// service-function.ts aliases `@aws-sdk/credential-provider-node` here). Lambda puts the
// execution role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), which is the default chain's first link and the one it always takes there.
// Its other links (SSO, ini files, credential processes, web identity, the instance metadata
// service) are ~115 KB of the writer's bundle and load node:child_process, so ~40 ms of its
// cold start's CPU went to code a function never runs (bench/cold-start.ts). Local runs and
// tests use the SDK's own chain: only the bundles take this one.

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): ReturnType<typeof fromEnv> => fromEnv(init);

type Credentials = { readonly expiration?: Date } | undefined;

/** The chain module's other two exports, as it defines them. */
export const credentialsWillNeedRefresh = (credentials: Credentials): boolean => credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials: Credentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
