import { API_BINDING_HEADER, MAX_TOKEN_LENGTH, TOKEN_PREFIX, TOKEN_VALIDITY_SECONDS } from './token-format.ts';

// Verifying a kube API token (token-format.ts): first what can be checked without a call (its
// shape, that it is a presigned GetCallerIdentity of STS and nothing else, that it signs the
// API binding header, that it has not expired), then STS itself, which checks the signature,
// the binding (the authorizer sends its own API host in the signed header) and the expiry, and
// answers with the caller's ARN. Every refusal has a reason for the log; none is a 5xx.

export interface Caller {
  readonly arn: string;
  readonly account: string;
  readonly userId: string;
}

export type Verdict = { readonly ok: true; readonly caller: Caller } | { readonly ok: false; readonly reason: string };

export interface VerifyDeps {
  readonly now: () => number;
  /** Whether a presigned URL is addressed to STS (the AWS STS hosts; tests add their fake). */
  readonly isSts: (url: URL) => boolean;
  readonly fetch: typeof fetch;
  /** How long STS may take to answer. */
  readonly timeoutMs: number;
}

/** STS's hosts: global, regional and FIPS endpoints, in every partition. */
const STS_HOST = /^sts(-fips)?(\.[a-z]{2}(-gov)?-[a-z]+-\d)?\.amazonaws\.com(\.cn)?$/;

export function isAwsSts(url: URL): boolean {
  return url.protocol === 'https:' && url.port === '' && STS_HOST.test(url.hostname);
}

/** The query parameters a presigned GetCallerIdentity has, and no others. */
const REQUIRED = ['Action', 'Version', 'X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'];
const ALLOWED = new Set([...REQUIRED, 'X-Amz-Security-Token']);
/** A signature date this far ahead of our clock is still taken (clocks differ a little). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The token of an `Authorization: Bearer …` header, checked and sent to STS. */
export async function verifyToken(authorization: string | undefined, apiHost: string, deps: VerifyDeps): Promise<Verdict> {
  const refuse = (reason: string): Verdict => ({ ok: false, reason });
  if (authorization === undefined || authorization === '') return refuse('no Authorization header');
  const match = /^Bearer (\S+)$/i.exec(authorization.trim());
  if (match === null) return refuse('the Authorization header is not "Bearer <token>"');
  const token = match[1] as string;
  if (token.length > MAX_TOKEN_LENGTH) return refuse(`the token is longer than ${MAX_TOKEN_LENGTH} characters`);
  if (!token.startsWith(TOKEN_PREFIX)) return refuse(`the token does not start with ${TOKEN_PREFIX}`);
  const encoded = token.slice(TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return refuse('the token is not base64url');
  let url: URL;
  try {
    url = new URL(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return refuse('the token does not hold a URL');
  }
  if (!deps.isSts(url)) return refuse(`the token's request is not addressed to STS (${url.host.slice(0, 100)})`);
  if (url.pathname !== '/' || url.username !== '' || url.password !== '' || url.hash !== '') return refuse('the token\'s request is not a plain STS request');
  const params = new Map<string, string>();
  for (const [name, value] of url.searchParams) {
    if (!ALLOWED.has(name) || params.has(name)) return refuse(`the token's request has an unexpected parameter ${name.slice(0, 64)}`);
    params.set(name, value);
  }
  const missing = REQUIRED.filter((name) => !params.has(name));
  if (missing.length > 0) return refuse(`the token's request lacks ${missing.join(', ')}`);
  if (params.get('Action') !== 'GetCallerIdentity' || params.get('Version') !== '2011-06-15') return refuse('the token\'s request is not GetCallerIdentity');
  if (params.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return refuse('the token is not signed with AWS4-HMAC-SHA256');
  const signed = (params.get('X-Amz-SignedHeaders') ?? '').split(';');
  if (!signed.includes(API_BINDING_HEADER) || !signed.includes('host')) return refuse(`the token does not sign ${API_BINDING_HEADER}: it is not bound to an API`);
  const expires = Number(params.get('X-Amz-Expires'));
  if (!Number.isInteger(expires) || expires < 1 || expires > TOKEN_VALIDITY_SECONDS) return refuse(`the token's X-Amz-Expires is not 1–${TOKEN_VALIDITY_SECONDS}`);
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(params.get('X-Amz-Date') ?? '');
  if (date === null) return refuse('the token\'s X-Amz-Date is not a time');
  const signedAt = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(date[4]), Number(date[5]), Number(date[6]));
  const now = deps.now();
  if (signedAt > now + CLOCK_SKEW_MS) return refuse('the token was signed in the future');
  if (now > signedAt + expires * 1000) return refuse('the token has expired');
  return askSts(url, apiHost, deps);
}

async function askSts(url: URL, apiHost: string, deps: VerifyDeps): Promise<Verdict> {
  let response: Response;
  try {
    response = await deps.fetch(url, {
      method: 'GET',
      headers: { [API_BINDING_HEADER]: apiHost, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
  } catch (error) {
    return { ok: false, reason: `STS could not be asked: ${(error as Error).message}` };
  }
  const text = await response.text().catch(() => '');
  if (response.status !== 200) return { ok: false, reason: `STS refused the token (${response.status}${stsError(text)})` };
  try {
    const result = (JSON.parse(text) as { GetCallerIdentityResponse?: { GetCallerIdentityResult?: { Arn?: unknown; Account?: unknown; UserId?: unknown } } })
      .GetCallerIdentityResponse?.GetCallerIdentityResult;
    const { Arn, Account, UserId } = result ?? {};
    if (typeof Arn !== 'string' || typeof Account !== 'string' || typeof UserId !== 'string') return { ok: false, reason: 'STS answered without an identity' };
    return { ok: true, caller: { arn: Arn, account: Account, userId: UserId } };
  } catch {
    return { ok: false, reason: 'STS answered something that is not JSON' };
  }
}

function stsError(text: string): string {
  const code = /"Code"\s*:\s*"([A-Za-z]+)"|<Code>([A-Za-z]+)<\/Code>/.exec(text);
  return code === null ? '' : `: ${code[1] ?? code[2]}`;
}
