import { IAMClient } from '@aws-sdk/client-iam';
import { createAuthorizer } from './kube/auth/authorizer-handler.ts';
import { iamAllowList } from './kube/auth/iam-allow-list.ts';
import { isAwsSts } from './kube/auth/verify-token.ts';

/** Lambda entry: the kube API's token authorizer (API Gateway HTTP API, simple responses). */
export const handler = createAuthorizer({
  verify: { now: Date.now, isSts: isAwsSts, fetch, timeoutMs: 3000 },
  // IAM is global: the SDK resolves the partition's one endpoint from the function's region.
  allowList: iamAllowList(new IAMClient({ maxAttempts: 3 })),
});
