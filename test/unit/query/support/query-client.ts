import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { createQueryHandler, type QueryDeps } from '../../../../functions/handlers/query-handler.ts';
import { logger } from '../../../../functions/commons/powertools.ts';

/** The cursor key of the query function under test, unless a spec passes its own. */
export const TEST_CURSOR_KEY = Buffer.from('test-cursor-key-of-32-bytes-or-more!', 'utf8');

/** A response as a client sees it: status, lower-case headers, and the parsed JSON body. */
export interface ClientResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: any;
}

export type Get = (
  path: string, query?: Record<string, string>, method?: string, body?: string, rawQueryString?: string,
) => Promise<ClientResponse>;

const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'query',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:query',
  memoryLimitInMB: '256',
  awsRequestId: 'request-1',
  logGroupName: '/aws/lambda/query',
  logStreamName: 'stream',
  getRemainingTimeInMillis: () => 10_000,
  done: () => {},
  fail: () => {},
  succeed: () => {},
} satisfies Context;

/**
 * Calls the real query handler the way API Gateway (HTTP API, payload 2.0, `$default` route)
 * does: method and path in requestContext.http, no pathParameters, the query string parsed.
 * The logger's info and error are silenced (spied on).
 */
export function queryClient(given: Omit<QueryDeps, 'cursorKey'> & Partial<Pick<QueryDeps, 'cursorKey'>>): Get {
  const deps: QueryDeps = { cursorKey: TEST_CURSOR_KEY, ...given };
  // Keep test output clean; specs that care read the spies (logger.error's calls).
  if (!vi.isMockFunction(logger.info)) vi.spyOn(logger, 'info').mockImplementation(() => {});
  if (!vi.isMockFunction(logger.error)) vi.spyOn(logger, 'error').mockImplementation(() => {});
  const handler = createQueryHandler(deps);
  // `raw`: the query string exactly as the client sent it (malformed escapes and all), with
  // `query` as API Gateway parsed it.
  return async (path, query = {}, method = 'GET', body?: string, raw?: string) => {
    const rawQueryString = raw ?? new URLSearchParams(query).toString();
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: path,
      rawQueryString,
      headers: {},
      ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
      requestContext: {
        accountId: '123456789012',
        apiId: 'api',
        domainName: 'api.example.com',
        domainPrefix: 'api',
        http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
        requestId: 'request-1',
        routeKey: '$default',
        stage: '$default',
        time: '01/Jan/2026:00:00:00 +0000',
        timeEpoch: 0,
      },
      isBase64Encoded: false,
      ...(body === undefined ? {} : { body }),
    } satisfies APIGatewayProxyEventV2;
    const result = await handler(event, context);
    if (typeof result === 'string') throw new Error('the handler answered a bare string');
    const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    return { status: result.statusCode ?? 0, headers, body: result.body ? JSON.parse(result.body) : undefined };
  };
}

/** `/v1/clusters/<cluster>/namespaces/<namespace>/jobs/<name>` plus a suffix. */
export const jobPath = (cluster: string, namespace: string, name: string, suffix = ''): string =>
  `/v1/clusters/${cluster}/namespaces/${namespace}/jobs/${name}${suffix}`;

export const jobSetPath = (cluster: string, namespace: string, name: string, suffix = ''): string =>
  `/v1/clusters/${cluster}/namespaces/${namespace}/jobsets/${name}${suffix}`;
