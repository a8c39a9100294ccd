// Every error of the Kubernetes API is a metav1.Status (apimachinery/pkg/api/errors): its HTTP
// code, a machine reason (NotFound, BadRequest, Expired, MethodNotAllowed, …) and, for an
// object, details naming it. kubectl prints `Error from server (<reason>): <message>`, and
// client-go's reflector acts on the reason (Expired → list again). Routes throw KubeError; the
// handler answers it, and anything else is a 500 that names only the request id.

export type StatusReason =
  | 'BadRequest'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'Expired'
  | 'Gone'
  | 'Invalid'
  | 'Timeout'
  | 'InternalError'
  | 'Unauthorized'
  | 'Forbidden'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType';

export interface StatusCause {
  readonly reason?: string;
  readonly message: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly causes?: readonly StatusCause[];
}

/** metav1.Status as JSON. */
export interface Status {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Failure';
  readonly message: string;
  readonly reason: StatusReason;
  readonly details?: StatusDetails;
  readonly code: number;
}

/** An error answered as a Status with its code. */
export class KubeError extends Error {
  override name = 'KubeError';
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;
  /** Extra response headers (Allow for a 405). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  get status(): Status {
    return statusOf(this.code, this.reason, this.message, this.details);
  }
}

export function statusOf(code: number, reason: StatusReason, message: string, details?: StatusDetails): Status {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason,
    ...(details === undefined ? {} : { details }), code,
  };
}

/** A parameter the request cannot be served with (400), naming it. */
export function badRequest(message: string, field?: string): KubeError {
  return new KubeError(400, 'BadRequest', message, field === undefined ? undefined : { causes: [{ reason: 'FieldValueInvalid', message, field }] });
}

/** `jobs.batch "x" not found`, as the API server words it. */
export function notFound(resource: string, group: string, name: string): KubeError {
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return new KubeError(404, 'NotFound', `${qualified} "${name}" not found`, { name, group, kind: resource });
}

/** The request's path names nothing this API serves. */
export function pathNotFound(path: string): KubeError {
  return new KubeError(404, 'NotFound', `the server could not find the requested resource (${path})`, {});
}

/** A resourceVersion or continue token this API can no longer serve from (410): the client lists again. */
export function expired(message: string): KubeError {
  return new KubeError(410, 'Expired', message);
}

/**
 * What a pod has only in its cluster (`kubectl logs`, `exec`, `attach`, `port-forward`): jobfold
 * records the pod's events, never its containers' output nor a way into them, so the answer
 * says so and where to go instead, rather than that the path names nothing.
 */
export function onlyInCluster(subresource: 'log' | 'exec' | 'attach' | 'portforward', what: string, cluster: string): KubeError {
  const why = subresource === 'log' ? 'jobfold keeps no container logs' : 'jobfold reaches into no container';
  return new KubeError(
    404,
    'NotFound',
    `${why}: ${what} is not served here. This API shows what jobfold recorded of cluster ${cluster}; `
      + `for the pod itself, use the cluster's own API server (your kubectl context for ${cluster}, not jobfold-${cluster})`,
    {},
  );
}

/** Every write: jobfold serves what it recorded and changes nothing in a cluster. */
export function readOnly(method: string, what: string, cluster: string): KubeError {
  return new KubeError(
    405,
    'MethodNotAllowed',
    `jobfold is read-only: ${method} ${what} is not served here. This API shows what jobfold recorded of cluster ${cluster}; `
      + `to change it, use the cluster's own API server (your kubectl context for ${cluster}, not jobfold-${cluster})`,
    {},
    { allow: 'GET' },
  );
}
