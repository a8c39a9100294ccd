import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { logger, requestHandler } from '../commons/powertools.ts';
import type { KubeDeps } from './fleet-reads.ts';
import { WATCH_WINDOW_MS } from './resource-version.ts';
import { serveKube, statusResponse, type ServeLimits } from './kube-api.ts';
import type { KubeRequest } from './request.ts';
import { statusOf } from './status.ts';
import type { WatchEvent } from '../../shared/k8s/watch-event.ts';
import type { WatchSink } from '../../shared/ports.ts';

// The kube API behind API Gateway (HTTP API, payload 2.0, route ANY /k8s/{proxy+} with the
// token authorizer, cdk/constructs/kube-api.ts). API Gateway buffers a Lambda's answer and
// gives up after ~29 s, so a watch here is buffered: it collects events until its deadline
// (at most AWS_LIMITS.maxWatchMs), or until the body nears Lambda's 6 MB response limit, then
// answers them all; clients watch again from the last resourceVersion. So that a change does
// not wait the whole 25 s to be seen, a watch that has something to say answers about
// LINGER_MS after its first event. Locally the same watch streams.

/** A watch's longest life in AWS: API Gateway's 29 s less the time to answer. */
export const AWS_LIMITS: ServeLimits = {
  maxWatchMs: 25_000,
  maxResponseBytes: 5_500_000,
  maxInitialEvents: 5_000,
  watchWindowMs: WATCH_WINDOW_MS,
};

export function createKubeHandler(deps: KubeDeps, limits: ServeLimits = AWS_LIMITS) {
  return requestHandler(async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const request = kubeRequest(event);
    try {
      const response = await serveKube(request, deps, limits);
      if ('body' in response) return { statusCode: response.status, headers: response.headers, body: response.body };
      const sink = new BufferedSink(limits.maxResponseBytes, Date.now);
      await response.watch(sink);
      return { statusCode: 200, headers: response.headers, body: sink.body() };
    } catch (error) {
      logger.error('kube request failed', { path: request.path, error: error as Error });
      const status = statusOf(500, 'InternalError', `an error on the server has prevented the request from succeeding (request ${context.awsRequestId})`);
      const answer = statusResponse(status);
      return { statusCode: 500, headers: answer.headers, body: 'body' in answer ? answer.body : '' };
    }
  });
}

/** The request of a payload format 2.0 event, headers lower-cased. */
export function kubeRequest(event: APIGatewayProxyEventV2): KubeRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  return {
    method: event.requestContext?.http?.method ?? 'GET',
    path: event.rawPath ?? event.requestContext?.http?.path ?? '/',
    rawQuery: event.rawQueryString ?? '',
    headers,
    // API Gateway hands a body it does not take for text (kubectl's protobuf) base64-encoded.
    ...(event.body === undefined ? {} : { body: Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') }),
  };
}

/** How long a buffered watch keeps gathering after its first change before it answers. */
export const LINGER_MS = 2_000;

/**
 * Collects watch events as newline-delimited JSON, up to `maxBytes`; `closed` (answer now)
 * once LINGER_MS have passed since the first event that is not a bookmark.
 */
export class BufferedSink implements WatchSink {
  readonly #lines: string[] = [];
  readonly #maxBytes: number;
  readonly #now: () => number;
  #bytes = 0;
  #firstChangeAt: number | undefined;

  constructor(maxBytes: number, now: () => number) {
    this.#maxBytes = maxBytes;
    this.#now = now;
  }

  get closed(): boolean {
    return this.#firstChangeAt !== undefined && this.#now() - this.#firstChangeAt >= LINGER_MS;
  }

  write(event: WatchEvent, initial = false): boolean {
    const line = `${JSON.stringify(event)}\n`;
    // Bytes, not characters: Lambda's 6 MB limit counts the UTF-8 body.
    const bytes = Buffer.byteLength(line, 'utf8');
    if (this.#bytes + bytes > this.#maxBytes) return false;
    this.#lines.push(line);
    this.#bytes += bytes;
    if (event.type !== 'BOOKMARK' && !initial) this.#firstChangeAt ??= this.#now();
    return true;
  }

  body(): string {
    return this.#lines.join('');
  }
}
