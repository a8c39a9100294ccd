import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { EventStore } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import type { CursorKey } from './signed-cursor.ts';

// The query API's own view of HTTP: a request with decoded parameters and a JSON response.
// Routes see only these, so the same code serves API Gateway and the local runtime.

/**
 * What every route needs: the store to read, the fold configuration to replay logs with, and
 * the secret that signs list cursors (list-cursor.ts), from the function's configuration.
 */
export interface QueryDeps {
  readonly store: EventStore & PodArchive;
  readonly config: FoldConfig;
  readonly cursorKey: CursorKey;
}

/** An HTTP request as routes see it: path parameters URL-decoded, query parameters as given. */
export interface QueryRequest {
  readonly method: string;
  readonly path: string;
  readonly pathParameters: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  /** The request body as text (POST routes), decoded from base64 when API Gateway encoded it. */
  readonly body?: string;
}

export type QueryResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; body: string };

/** One route: its method, API Gateway path template and what it answers. */
export interface QueryRoute {
  readonly method: 'GET' | 'POST';
  /** `/v1/clusters/{cluster}/…`: the template API Gateway and @middy/http-router match. */
  readonly path: string;
  handle(request: QueryRequest, deps: QueryDeps): Promise<QueryResponse>;
}

/** A JSON response; `body` is serialised here, so routes return plain data. */
export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): QueryResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** The request of a payload format 2.0 event (API Gateway HTTP API, or the local runtime). */
export function toQueryRequest(event: APIGatewayProxyEventV2): QueryRequest {
  const pathParameters: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(event.pathParameters ?? {})) {
    pathParameters[key] = value === undefined ? undefined : decode(value);
  }
  return {
    method: event.requestContext?.http?.method ?? '',
    path: event.requestContext?.http?.path ?? event.rawPath ?? '',
    pathParameters,
    query: { ...event.queryStringParameters },
    ...(event.body === undefined ? {} : { body: event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body }),
  };
}

// A malformed escape stays as it is; the parameter's schema then rejects it with its path.
function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The parameters of a raw query string (`a=1&b=%E0%A4%A`) whose name or value is not valid
 * percent-encoded UTF-8. API Gateway and URLSearchParams pass such escapes on as they are or as
 * U+FFFD, so a route would read a different value than the client sent; they are refused instead.
 */
export function malformedQueryEscapes(rawQueryString: string | undefined): string[] {
  const names: string[] = [];
  for (const pair of (rawQueryString ?? '').split('&')) {
    if (pair === '') continue;
    const [name = '', ...rest] = pair.split('=');
    const decodedName = decodeQueryPart(name);
    if (decodedName === undefined || decodeQueryPart(rest.join('=')) === undefined) names.push(decodedName ?? name);
  }
  return names;
}

function decodeQueryPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
