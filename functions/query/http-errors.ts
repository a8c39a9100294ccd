import { json, type QueryResponse } from './http.ts';

// The errors routes throw, each with the response it stands for. Anything else is a 500 that
// names only the request id: stack traces and store messages stay in the log.

/** One bad parameter: `query.limit`, `path.name`, with what is wrong with it. */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/** Thrown for request parameters that fail their schema; 400 with one issue per field. */
export class BadRequestError extends Error {
  override name = 'BadRequestError';
  readonly errors: readonly FieldIssue[];

  constructor(errors: readonly FieldIssue[]) {
    super(`invalid request: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    this.errors = errors;
  }
}

/** Thrown when the Job (or JobSet) a path names has no history; 404. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** Thrown when no route has the request's path; 404. */
export class RouteNotFoundError extends Error {
  override name = 'RouteNotFoundError';

  constructor(method: string, path: string) {
    super(`no route for ${method} ${path}`);
  }
}

/** Thrown when a route has the path but not the method; 405 with `Allow`. */
export class MethodNotAllowedError extends Error {
  override name = 'MethodNotAllowedError';
  readonly allowed: readonly string[];

  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`method ${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`);
    this.allowed = allowed;
  }
}

/** True for the errors that carry their own response (everything but a 500). */
export function isClientError(error: unknown): boolean {
  return (
    error instanceof BadRequestError ||
    error instanceof NotFoundError ||
    error instanceof RouteNotFoundError ||
    error instanceof MethodNotAllowedError
  );
}

/** The response for an error: its status, and a body `{message, errors?}`. */
export function errorResponse(error: unknown, requestId: string | undefined): QueryResponse {
  if (error instanceof BadRequestError) {
    return json(400, { message: 'invalid request parameters', errors: error.errors });
  }
  if (error instanceof NotFoundError || error instanceof RouteNotFoundError) {
    return json(404, { message: error.message });
  }
  if (error instanceof MethodNotAllowedError) {
    return json(405, { message: error.message }, { allow: error.allowed.join(', ') });
  }
  if (isStoreUnavailable(error)) {
    return json(503, { message: 'the event store is unavailable; retry shortly', ...(requestId ? { requestId } : {}) }, { 'retry-after': '5' });
  }
  return json(500, { message: 'internal error', ...(requestId ? { requestId } : {}) });
}

/** DynamoDB throttling or unreachable (an outage, DynamoDB Local restarting): a 503, not a bug. */
const UNAVAILABLE = new Set(['ServiceUnavailable', 'ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'InternalServerError', 'TimeoutError']);
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

export function isStoreUnavailable(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (e === null || typeof e !== 'object') return false;
  return UNAVAILABLE.has(e.name ?? '') || NETWORK.has(e.code ?? '') || (e.$metadata?.httpStatusCode ?? 0) >= 500;
}
