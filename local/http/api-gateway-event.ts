import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';

// The HTTP API (payload format 2.0) in front of the query function, as cdk/constructs/query-api.ts
// defines it: one route `GET /v1/{proxy+}` on the `$default` stage.

export const QUERY_ROUTE_KEY = 'GET /v1/{proxy+}';

/** The event API Gateway would hand the query function for this request. */
export function apiGatewayEvent(req: IncomingMessage, url: URL, body: string): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(';').map((c) => c.trim()).filter(Boolean));
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // Repeated query parameters are joined with commas, as HTTP APIs do.
  const query: Record<string, string> = {};
  // Own properties only: `__proto__` or `constructor` is a parameter like any other (the query
  // API refuses it as unknown), never the prototype, as API Gateway's JSON event has it.
  for (const [name, value] of url.searchParams) {
    const joined = Object.hasOwn(query, name) ? `${query[name]},${value}` : value;
    Object.defineProperty(query, name, { value: joined, enumerable: true, writable: true, configurable: true });
  }
  const now = new Date();
  const rawQueryString = url.search.startsWith('?') ? url.search.slice(1) : url.search;
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: QUERY_ROUTE_KEY,
    rawPath: url.pathname,
    rawQueryString,
    headers,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers['host'] ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: QUERY_ROUTE_KEY,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    // As API Gateway passes it: raw; the function decodes path parameters itself.
    pathParameters: { proxy: url.pathname.slice('/v1/'.length) },
    isBase64Encoded: false,
  };
  if (cookies.length > 0) event.cookies = cookies;
  if (Object.keys(query).length > 0) event.queryStringParameters = query;
  if (body !== '') event.body = body;
  return event;
}

/**
 * Writes the function's result as API Gateway would: a structured result as given; anything
 * else (a string, an object without statusCode) as a 200 JSON body.
 */
export function sendApiResult(res: ServerResponse, result: APIGatewayProxyResultV2<unknown>): void {
  const structured = typeof result === 'object' && result !== null && 'statusCode' in result;
  if (!structured) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(typeof result === 'string' ? result : JSON.stringify(result));
    return;
  }
  const { statusCode = 200, headers = {}, body = '', isBase64Encoded = false, cookies = [] } = result as Exclude<
    APIGatewayProxyResultV2, string
  >;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(statusCode, out);
  res.end(isBase64Encoded ? Buffer.from(body, 'base64') : body);
}
