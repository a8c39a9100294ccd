import type { SignatureV4 } from '@smithy/signature-v4';

// The query API as the client and the console proxy reach it: the local stack unsigned, a
// deployed API (API Gateway, IAM auth) signed with SigV4 by the AWS SDK's own signer, with
// credentials from the standard chain (environment, SSO, profiles, instance roles).

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:3000';

/** A failed call: the API's answer (status and its errors), or why it could not be reached. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** A call the service failed (5xx) or did not answer is tried twice more before it fails. */
export async function withRetries<T>(call: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const transient = error instanceof ApiError && (error.status === undefined || error.status >= 500);
      if (!transient || attempt >= attempts) throw error;
    }
  }
}

/** --endpoint, else JOBFOLD_ENDPOINT, else the local stack. */
export function resolveEndpoint(flag: string | undefined, env: Record<string, string | undefined>): URL {
  const text = flag ?? env['JOBFOLD_ENDPOINT'] ?? DEFAULT_ENDPOINT;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError(`--endpoint: not a URL: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiError(`--endpoint: must be http(s), not "${url.protocol}"`);
  return url;
}

/** The local stack (and nothing else) is called unsigned. */
export function isLocal(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** The region of an execute-api host, else AWS_REGION / AWS_DEFAULT_REGION. */
export function regionOf(url: URL, env: Record<string, string | undefined>): string {
  const fromHost = /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com$/.exec(url.hostname)?.[1];
  const region = fromHost ?? env['AWS_REGION'] ?? env['AWS_DEFAULT_REGION'];
  if (region === undefined) throw new ApiError(`cannot tell the AWS region of ${url.host}: set AWS_REGION`);
  return region;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

export class ApiClient {
  readonly endpoint: URL;
  readonly #signer: Promise<SignatureV4> | undefined;

  constructor(endpoint: URL, env: Record<string, string | undefined> = process.env) {
    this.endpoint = endpoint;
    this.#signer = isLocal(endpoint) ? undefined : signerFor(regionOf(endpoint, env));
    this.#signer?.catch(() => undefined); // reported by the first request
  }

  /** Whether requests are signed (any endpoint but the local stack). */
  get signs(): boolean {
    return this.#signer !== undefined;
  }

  /** GET `path` (under the endpoint's own path) with `query`; the raw answer, whatever its status. */
  async request(path: string, query: Readonly<Record<string, string | undefined>> = {}, post?: { readonly body: string }): Promise<ApiResponse> {
    const url = new URL(this.endpoint.pathname.replace(/\/$/, '') + path, this.endpoint);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const headers = await this.#headers(url, post?.body);
    let response: Response;
    try {
      response = await fetch(url, post ? { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: post.body } : { headers });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError(`cannot reach ${this.endpoint.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}${isLocal(this.endpoint) ? ' (is `npm start` running?)' : ''}`);
    }
    return { status: response.status, headers: response.headers, body: await response.text() };
  }

  /** GET as JSON; ApiError with the API's own error messages unless 2xx. */
  async get<T>(path: string, query: Readonly<Record<string, string | undefined>> = {}): Promise<T> {
    const response = await this.request(path, query);
    if (response.status < 200 || response.status > 299) throw new ApiError(errorText(response), response.status);
    return JSON.parse(response.body) as T;
  }

  /** POST `body` as JSON; the answer as JSON, ApiError with the API's own error messages unless 2xx. */
  async post<T>(path: string, body: unknown): Promise<T> {
    const response = await this.request(path, {}, { body: JSON.stringify(body) });
    if (response.status < 200 || response.status > 299) throw new ApiError(errorText(response), response.status);
    return JSON.parse(response.body) as T;
  }

  async #headers(url: URL, body?: string): Promise<Record<string, string>> {
    if (this.#signer === undefined) return {};
    const signed = await (await this.#signer).sign({
      method: body === undefined ? 'GET' : 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: body === undefined ? { host: url.host } : { host: url.host, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    return signed.headers;
  }
}

/**
 * The SDK's SigV4 signer for API Gateway (execute-api), with the default credential chain;
 * loaded on first use, so that calls to the local stack do not pay for the SDK's start-up.
 */
async function signerFor(region: string): Promise<SignatureV4> {
  const [{ SignatureV4: Signer }, { Sha256 }, { fromNodeProviderChain }] = await Promise.all([
    import('@smithy/signature-v4'), import('@aws-crypto/sha256-js'), import('@aws-sdk/credential-providers'),
  ]);
  return new Signer({ service: 'execute-api', region, credentials: fromNodeProviderChain(), sha256: Sha256 });
}

/** `404 Not Found: job c1/default/x not found` from the API's error body. */
function errorText({ status, body }: ApiResponse): string {
  try {
    const parsed = JSON.parse(body) as { message?: string; errors?: Array<{ path?: string; message?: string }> };
    const details = (parsed.errors ?? []).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
    return `${status}: ${[parsed.message, details].filter(Boolean).join(': ')}`;
  } catch {
    return `${status}: ${body.slice(0, 200)}`;
  }
}
