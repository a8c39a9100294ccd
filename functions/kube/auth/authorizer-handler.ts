import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { logger, requestHandler } from '../../commons/powertools.ts';
import { readResourceArn, type AllowList } from './iam-allow-list.ts';
import { verifyToken, type VerifyDeps } from './verify-token.ts';

// The Lambda authorizer of the kube API's routes (HTTP API, payload 2.0, simple responses;
// cdk/constructs/kube-api.ts). A request is let through when its bearer token is a valid
// presigned STS GetCallerIdentity bound to this API (verify-token.ts) and the caller may read
// the API by IAM (iam-allow-list.ts). Anything else is refused: API Gateway answers 403, or 401
// when the Authorization header is missing (it never calls the authorizer then). The
// authorizer never throws — a throw would be a 500 — and logs why it refused.

export interface AuthorizerDeps {
  readonly verify: VerifyDeps;
  readonly allowList: AllowList;
}

type Result = APIGatewaySimpleAuthorizerWithContextResult<{ principal: string }>;

export function createAuthorizer(deps: AuthorizerDeps) {
  return requestHandler((event: APIGatewayRequestAuthorizerEventV2) => authorize(event, deps));
}

export async function authorize(event: APIGatewayRequestAuthorizerEventV2, deps: AuthorizerDeps): Promise<Result | { isAuthorized: false }> {
  try {
    const headers = event.headers ?? {};
    const authorization = headers['authorization'] ?? headers['Authorization'];
    const apiHost = event.requestContext?.domainName ?? '';
    const verdict = await verifyToken(authorization, apiHost, deps.verify);
    if (!verdict.ok) {
      logger.info('kube API token refused', { reason: verdict.reason, path: event.rawPath });
      return { isAuthorized: false };
    }
    const resourceArn = readResourceArn(event.routeArn ?? '');
    if (resourceArn === undefined) {
      logger.error('kube API authorizer: no route ARN to check the caller against', { routeArn: event.routeArn });
      return { isAuthorized: false };
    }
    const { allowed, reason } = await deps.allowList.allows(verdict.caller.arn, resourceArn);
    logger.info(allowed ? 'kube API caller allowed' : 'kube API caller refused', { caller: verdict.caller.arn, reason });
    return allowed ? { isAuthorized: true, context: { principal: verdict.caller.arn } } : { isAuthorized: false };
  } catch (error) {
    logger.error('kube API authorizer failed; refusing', { error: error as Error });
    return { isAuthorized: false };
  }
}
