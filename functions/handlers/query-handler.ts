import { logger, requestHandler } from '../commons/powertools.ts';
import { errorResponse, isClientError } from '../query/http-errors.ts';
import type { QueryDeps } from '../query/http.ts';
import { QUERY_ROUTES } from '../query/route-table.ts';
import { createRouter } from '../query/router.ts';

export type { QueryDeps } from '../query/http.ts';

/**
 * query: the read API (API Gateway HTTP API, payload format 2.0; routes in
 * functions/query/route-table.ts, documented in docs/openapi.yaml). The local runtime serves the
 * same handler: pass it events with `requestContext.http.{method,path}`, `pathParameters`
 * (optional: the router fills them from the path) and `queryStringParameters`.
 * Client errors become 400/404/405 with `{message, errors?}`; anything else is logged and
 * answered 500 with the request id only.
 */
export function createQueryHandler(deps: QueryDeps) {
  return requestHandler(createRouter(QUERY_ROUTES, deps)).use({
    onError: async (request) => {
      const { error, event } = request;
      if (isClientError(error)) {
        logger.info('query refused', { path: event.requestContext?.http?.path, reason: error?.message });
      } else {
        logger.error('query failed', { path: event.requestContext?.http?.path, error: error ?? undefined });
      }
      request.response = errorResponse(error, request.context?.awsRequestId);
    },
  });
}
