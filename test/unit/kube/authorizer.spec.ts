import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@aws-crypto/sha256-js';
import { GetRoleCommand, SimulatePrincipalPolicyCommand, type IAMClient } from '@aws-sdk/client-iam';
import { SignatureV4 } from '@smithy/signature-v4';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../cli/kube/token.ts';
import { authorize, type AuthorizerDeps } from '../../../functions/kube/auth/authorizer-handler.ts';
import { iamAllowList, readResourceArn } from '../../../functions/kube/auth/iam-allow-list.ts';
import { API_BINDING_HEADER, encodeToken, TOKEN_PREFIX } from '../../../functions/kube/auth/token-format.ts';
import { isAwsSts, verifyToken, type VerifyDeps } from '../../../functions/kube/auth/verify-token.ts';

// The kube API's token authorizer (functions/kube/auth): given tokens minted by `jobfold token`'s
// own code (cli/kube/token.ts) — valid, forged, expired, minted for another API, malformed —
// when the authorizer judges them, then only a valid token of an allowed principal gets in, and
// every refusal is an answer (API Gateway: 403; 401 without the header), never a throw (a 500).
//
// Nothing here talks to AWS: STS is a local server that checks SigV4 presigned requests as STS
// does (it signs the request again with the caller's secret and compares, with the headers the
// request says it signed, and refuses an expired one), and IAM's policy simulator is a table.

const ACCOUNT = '111122223333';
const API_HOST = 'abc123defg.execute-api.eu-west-1.amazonaws.com';
const OTHER_API_HOST = 'zzz999zzzz.execute-api.eu-west-1.amazonaws.com';
const ROUTE_ARN = `arn:aws:execute-api:eu-west-1:${ACCOUNT}:abc123defg/$default/GET/k8s/clusters/prod-eu-1/apis/batch/v1/jobs`;
const REGION = 'eu-west-1';

/** The principals STS knows: access key → secret and the identity GetCallerIdentity answers. */
const IDENTITIES = {
  reader: { accessKeyId: 'AKIAREADER0000000001', secretAccessKey: 'reader-secret', arn: `arn:aws:sts::${ACCOUNT}:assumed-role/platform-readers/alice` },
  stranger: { accessKeyId: 'AKIASTRANGER00000002', secretAccessKey: 'stranger-secret', arn: `arn:aws:sts::${ACCOUNT}:assumed-role/batch-dev/bob` },
  user: { accessKeyId: 'AKIAUSER000000000003', secretAccessKey: 'user-secret', arn: `arn:aws:iam::${ACCOUNT}:user/ops/carol` },
  root: { accessKeyId: 'AKIAROOT000000000004', secretAccessKey: 'root-secret', arn: `arn:aws:iam::${ACCOUNT}:root` },
  orphan: { accessKeyId: 'AKIAORPHAN0000000005', secretAccessKey: 'orphan-secret', arn: `arn:aws:sts::${ACCOUNT}:assumed-role/deleted-role/dave` },
} as const;
/** Who IAM's simulator allows `execute-api:Invoke` on the API's GET /v1/jobs. */
const ALLOWED = new Set([`arn:aws:iam::${ACCOUNT}:role/readers/platform-readers`, `arn:aws:iam::${ACCOUNT}:user/ops/carol`]);
const ROLE_PATHS: Record<string, string> = { 'platform-readers': '/readers/', 'batch-dev': '/' };

let sts: Server;
let stsUrl: URL;
const stsRequests: string[] = [];

beforeAll(async () => {
  sts = createServer((req, res) => {
    stsRequests.push(req.url ?? '');
    void fakeSts(req).then(({ status, body }) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => sts.listen(0, '127.0.0.1', resolve));
  stsUrl = new URL(`http://127.0.0.1:${(sts.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await new Promise((resolve) => sts.close(resolve));
});

/** STS's GetCallerIdentity for a presigned request: signature, expiry, then the identity. */
async function fakeSts(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const url = new URL(req.url ?? '/', stsUrl);
  const q = url.searchParams;
  const refuse = (code: string, message: string) => ({ status: 403, body: { Error: { Code: code, Message: message } } });
  const [accessKeyId, day, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  const identity = Object.values(IDENTITIES).find((i) => i.accessKeyId === accessKeyId);
  if (identity === undefined) return refuse('InvalidClientTokenId', 'The security token included in the request is invalid.');
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date') ?? '');
  if (date === null || day !== q.get('X-Amz-Date')?.slice(0, 8) || service !== 'sts') return refuse('IncompleteSignature', 'bad credential scope');
  const signedAt = new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!));
  const expires = Number(q.get('X-Amz-Expires'));
  if (Date.now() > signedAt.getTime() + expires * 1000) return refuse('ExpiredToken', 'Signature expired');
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) headers[name] = String(req.headers[name] ?? '');
  const query: Record<string, string> = {};
  for (const [name, value] of q) if (!name.startsWith('X-Amz-')) query[name] = value;
  const signer = new SignatureV4({ service: 'sts', region: region ?? '', credentials: identity, sha256: Sha256 });
  const again = await signer.presign(
    { method: req.method ?? 'GET', protocol: 'http:', hostname: stsUrl.hostname, port: Number(stsUrl.port), path: url.pathname, query, headers },
    { expiresIn: expires, signingDate: signedAt, unhoistableHeaders: new Set(signedHeaders) },
  );
  if (again.query?.['X-Amz-Signature'] !== q.get('X-Amz-Signature')) {
    return refuse('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
  const userId = identity.accessKeyId.replace(/^AKIA/, 'AROA');
  return { status: 200, body: { GetCallerIdentityResponse: { GetCallerIdentityResult: { Arn: identity.arn, Account: ACCOUNT, UserId: userId } } } };
}

/** IAM as the authorizer uses it: GetRole (for a role's path) and the policy simulator. */
function fakeIam(calls: string[] = []): IAMClient {
  return {
    send: async (command: unknown) => {
      if (command instanceof GetRoleCommand) {
        const name = command.input.RoleName ?? '';
        calls.push(`GetRole ${name}`);
        const path = ROLE_PATHS[name];
        if (path === undefined) throw Object.assign(new Error(`The role with name ${name} cannot be found.`), { name: 'NoSuchEntityException' });
        return { Role: { Arn: `arn:aws:iam::${ACCOUNT}:role${path}${name}` } };
      }
      if (command instanceof SimulatePrincipalPolicyCommand) {
        const { PolicySourceArn = '', ResourceArns = [] } = command.input;
        calls.push(`Simulate ${PolicySourceArn} ${ResourceArns.join(',')}`);
        return { EvaluationResults: [{ EvalActionName: 'execute-api:Invoke', EvalDecision: ALLOWED.has(PolicySourceArn) ? 'allowed' : 'implicitDeny' }] };
      }
      throw new Error(`unexpected IAM call ${String(command)}`);
    },
  } as unknown as IAMClient;
}

const verifyDeps = (overrides: Partial<VerifyDeps> = {}): VerifyDeps => ({
  now: Date.now, isSts: (url) => url.origin === stsUrl.origin, fetch, timeoutMs: 3000, ...overrides,
});
const deps = (overrides: Partial<VerifyDeps> = {}, iam: IAMClient = fakeIam()): AuthorizerDeps => ({ verify: verifyDeps(overrides), allowList: iamAllowList(iam) });

async function tokenOf(who: keyof typeof IDENTITIES, options: { apiHost?: string; now?: Date; secret?: string } = {}): Promise<string> {
  const { accessKeyId, secretAccessKey } = IDENTITIES[who];
  const credential = await mintToken({
    apiHost: options.apiHost ?? API_HOST, stsUrl, region: REGION,
    credentials: { accessKeyId, secretAccessKey: options.secret ?? secretAccessKey }, now: options.now ?? new Date(),
  });
  return credential.status.token;
}

function requestWith(authorization: string | undefined, domainName = API_HOST): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0', type: 'REQUEST', routeArn: ROUTE_ARN, identitySource: authorization === undefined ? [] : [authorization],
    routeKey: 'ANY /k8s/{proxy+}', rawPath: '/k8s/clusters/prod-eu-1/apis/batch/v1/jobs', rawQueryString: '', cookies: [],
    headers: authorization === undefined ? {} : { authorization }, queryStringParameters: {},
    requestContext: { domainName, http: { method: 'GET', path: '/k8s/clusters/prod-eu-1/apis/batch/v1/jobs' } },
  } as unknown as APIGatewayRequestAuthorizerEventV2;
}

/** A presigned URL's query parameter replaced, the token encoded again. */
function tampered(token: string, edit: (url: URL) => void): string {
  const url = new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8'));
  edit(url);
  return encodeToken(url.toString());
}

describe('a valid token', () => {
  it('lets in a role session whose role may invoke the API, naming the caller', async () => {
    const calls: string[] = [];
    const answer = await authorize(requestWith(`Bearer ${await tokenOf('reader')}`), deps({}, fakeIam(calls)));

    expect(answer).toEqual({ isAuthorized: true, context: { principal: IDENTITIES.reader.arn } });
    // The role's own ARN (with its path) is what IAM simulates, on the API's GET /v1/jobs.
    expect(calls).toEqual([
      'GetRole platform-readers',
      `Simulate arn:aws:iam::${ACCOUNT}:role/readers/platform-readers arn:aws:execute-api:eu-west-1:${ACCOUNT}:abc123defg/$default/GET/v1/jobs`,
    ]);
  });

  it('lets in an IAM user allowed by IAM', async () => {
    const answer = await authorize(requestWith(`Bearer ${await tokenOf('user')}`), deps());

    expect(answer).toEqual({ isAuthorized: true, context: { principal: IDENTITIES.user.arn } });
  });

  it('refuses a caller IAM does not allow, and root', async () => {
    for (const who of ['stranger', 'root'] as const) {
      expect(await authorize(requestWith(`Bearer ${await tokenOf(who)}`), deps()), who).toEqual({ isAuthorized: false });
    }
  });

  it('asks IAM once per principal while its answer is fresh', async () => {
    const calls: string[] = [];
    const shared = deps({}, fakeIam(calls));
    for (let i = 0; i < 3; i++) await authorize(requestWith(`Bearer ${await tokenOf('reader')}`), shared);

    expect(calls.filter((c) => c.startsWith('Simulate'))).toHaveLength(1);
  });
});

describe('tokens that must not get in', () => {
  it('refuses a forged token: signed with a wrong secret, or its signature or identity changed', async () => {
    const good = await tokenOf('reader');
    const forged = {
      'wrong secret': await tokenOf('reader', { secret: 'guessed' }),
      'signature changed': tampered(good, (u) => u.searchParams.set('X-Amz-Signature', '0'.repeat(64))),
      'another access key': tampered(good, (u) => u.searchParams.set('X-Amz-Credential', (u.searchParams.get('X-Amz-Credential') ?? '').replace(IDENTITIES.reader.accessKeyId, IDENTITIES.user.accessKeyId))),
      'unknown access key': tampered(good, (u) => u.searchParams.set('X-Amz-Credential', (u.searchParams.get('X-Amz-Credential') ?? '').replace(IDENTITIES.reader.accessKeyId, 'AKIANOBODY0000000000'))),
    };
    for (const [what, token] of Object.entries(forged)) {
      const verdict = await verifyToken(`Bearer ${token}`, API_HOST, verifyDeps());
      expect(verdict.ok, what).toBe(false);
      expect(!verdict.ok && verdict.reason, what).toMatch(/^STS refused the token \(403: (SignatureDoesNotMatch|InvalidClientTokenId)\)$/);
      expect(await authorize(requestWith(`Bearer ${token}`), deps()), what).toEqual({ isAuthorized: false });
    }
  });

  it('refuses a token minted for another API: STS finds the binding header does not match', async () => {
    const elsewhere = await tokenOf('reader', { apiHost: OTHER_API_HOST });

    const verdict = await verifyToken(`Bearer ${elsewhere}`, API_HOST, verifyDeps());
    expect(verdict).toEqual({ ok: false, reason: 'STS refused the token (403: SignatureDoesNotMatch)' });
    expect(await authorize(requestWith(`Bearer ${elsewhere}`, API_HOST), deps())).toEqual({ isAuthorized: false });
    // The same token is good at the API it was minted for.
    expect(await authorize(requestWith(`Bearer ${elsewhere}`, OTHER_API_HOST), deps())).toMatchObject({ isAuthorized: true });
  });

  it('refuses an expired token before asking STS, and one whose validity was stretched', async () => {
    const sixteenMinutesAgo = new Date(Date.now() - 16 * 60_000);
    const old = await tokenOf('reader', { now: sixteenMinutesAgo });
    const before = stsRequests.length;

    expect(await verifyToken(`Bearer ${old}`, API_HOST, verifyDeps())).toEqual({ ok: false, reason: 'the token has expired' });
    expect(stsRequests.length).toBe(before);
    const stretched = tampered(old, (u) => u.searchParams.set('X-Amz-Expires', '3600'));
    expect(await verifyToken(`Bearer ${stretched}`, API_HOST, verifyDeps())).toEqual({ ok: false, reason: 'the token\'s X-Amz-Expires is not 1–900' });
    // Within 900 s but not what was signed: STS's signature check catches it.
    const edited = tampered(await tokenOf('reader', { now: new Date(Date.now() - 5 * 60_000) }), (u) => u.searchParams.set('X-Amz-Expires', '899'));
    expect(await verifyToken(`Bearer ${edited}`, API_HOST, verifyDeps())).toEqual({ ok: false, reason: 'STS refused the token (403: SignatureDoesNotMatch)' });
    expect(await authorize(requestWith(`Bearer ${old}`), deps())).toEqual({ isAuthorized: false });
  });

  it('refuses malformed headers and tokens, each with its reason, without asking STS', async () => {
    const good = await tokenOf('reader');
    const url = (text: string) => encodeToken(text);
    const cases: [string | undefined, RegExp][] = [
      [undefined, /^no Authorization header$/],
      ['', /^no Authorization header$/],
      [`Basic ${Buffer.from('a:b').toString('base64')}`, /not "Bearer <token>"/],
      ['Bearer', /not "Bearer <token>"/],
      [`Bearer ${good} extra`, /not "Bearer <token>"/],
      [`Bearer ${good.slice(TOKEN_PREFIX.length)}`, /does not start with k8s-aws-v1\./],
      [`Bearer k8s-aws-v1.${'A'.repeat(100_000)}`, /longer than 8192/],
      ['Bearer k8s-aws-v1.not+base64/url==', /not base64url/],
      [`Bearer ${url('just some words')}`, /does not hold a URL/],
      [`Bearer ${url('\uD800\uDFFF\uDBFF')}`, /does not hold a URL/],
      [`Bearer ${url('https://evil.example/?Action=GetCallerIdentity')}`, /not addressed to STS \(evil\.example\)/],
      [`Bearer ${tampered(good, (u) => u.searchParams.set('Action', 'AssumeRole'))}`, /not GetCallerIdentity/],
      [`Bearer ${tampered(good, (u) => u.searchParams.append('RoleArn', 'x'))}`, /unexpected parameter RoleArn/],
      [`Bearer ${tampered(good, (u) => u.searchParams.append('Action', 'GetCallerIdentity'))}`, /unexpected parameter Action/],
      [`Bearer ${tampered(good, (u) => u.searchParams.delete('X-Amz-Signature'))}`, /lacks X-Amz-Signature/],
      [`Bearer ${tampered(good, (u) => u.searchParams.set('X-Amz-SignedHeaders', 'host'))}`, /does not sign x-jobfold-api/],
      [`Bearer ${tampered(good, (u) => u.searchParams.set('X-Amz-Algorithm', 'AWS4-HMAC-SHA1'))}`, /not signed with AWS4-HMAC-SHA256/],
      [`Bearer ${tampered(good, (u) => u.searchParams.set('X-Amz-Date', 'yesterday'))}`, /X-Amz-Date is not a time/],
      [`Bearer ${tampered(good, (u) => u.searchParams.set('X-Amz-Date', '29991231T000000Z'))}`, /signed in the future/],
      [`Bearer ${tampered(good, (u) => u.searchParams.set('X-Amz-Expires', '-1'))}`, /X-Amz-Expires is not 1–900/],
      [`Bearer ${tampered(good, (u) => { u.pathname = '/other'; })}`, /not a plain STS request/],
    ];
    const before = stsRequests.length;
    for (const [header, reason] of cases) {
      const verdict = await verifyToken(header, API_HOST, verifyDeps());
      expect(verdict.ok, String(header).slice(0, 80)).toBe(false);
      expect(!verdict.ok && verdict.reason, String(header).slice(0, 80)).toMatch(reason);
      expect(await authorize(requestWith(header), deps())).toEqual({ isAuthorized: false });
    }
    expect(stsRequests.length).toBe(before);
  });
});

describe('when STS or IAM fail', () => {
  it('refuses, and does not throw, when STS cannot be reached or answers nonsense', async () => {
    const token = await tokenOf('reader');
    const down = verifyDeps({ fetch: (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch });
    const nonsense = verifyDeps({ fetch: (async () => new Response('<html>oops</html>', { status: 200 })) as typeof fetch });
    const broken = verifyDeps({ fetch: (async () => new Response('{"Error":{"Code":"Throttling"}}', { status: 400 })) as typeof fetch });

    expect(await verifyToken(`Bearer ${token}`, API_HOST, down)).toEqual({ ok: false, reason: 'STS could not be asked: fetch failed' });
    expect(await verifyToken(`Bearer ${token}`, API_HOST, nonsense)).toEqual({ ok: false, reason: 'STS answered something that is not JSON' });
    expect(await verifyToken(`Bearer ${token}`, API_HOST, broken)).toEqual({ ok: false, reason: 'STS refused the token (400: Throttling)' });
    for (const verify of [down, nonsense, broken]) {
      expect(await authorize(requestWith(`Bearer ${token}`), { verify, allowList: iamAllowList(fakeIam()) })).toEqual({ isAuthorized: false });
    }
  });

  it('refuses, and does not throw, when IAM fails or the role is gone', async () => {
    const failing = { send: () => Promise.reject(new Error('Rate exceeded')) } as unknown as IAMClient;
    const token = await tokenOf('reader');

    expect(await authorize(requestWith(`Bearer ${token}`), deps({}, failing))).toEqual({ isAuthorized: false });
    // The session outlived its role: GetRole answers NoSuchEntity.
    expect(await authorize(requestWith(`Bearer ${await tokenOf('orphan')}`), deps())).toEqual({ isAuthorized: false });
  });

  it('refuses a request whose route ARN it cannot read', async () => {
    const event = { ...requestWith(`Bearer ${await tokenOf('reader')}`), routeArn: 'not-an-arn' };
    expect(await authorize(event, deps())).toEqual({ isAuthorized: false });
  });
});

describe('STS and route addresses', () => {
  it('takes only STS\'s own https hosts as the place a token goes', () => {
    for (const good of ['https://sts.amazonaws.com/', 'https://sts.eu-west-1.amazonaws.com/', 'https://sts-fips.us-east-1.amazonaws.com/', 'https://sts.us-gov-west-1.amazonaws.com/', 'https://sts.cn-north-1.amazonaws.com.cn/']) {
      expect(isAwsSts(new URL(good)), good).toBe(true);
    }
    for (const bad of ['http://sts.amazonaws.com/', 'https://sts.amazonaws.com:8443/', 'https://sts.amazonaws.com.evil.example/', 'https://evil.example/sts.amazonaws.com', 'https://xsts.amazonaws.com/', 'https://sts.eu-west-1.amazonaws.com@evil.example/']) {
      expect(isAwsSts(new URL(bad)), bad).toBe(false);
    }
  });

  it('checks callers against the API\'s GET /v1/jobs, from the route the request came by', () => {
    expect(readResourceArn(ROUTE_ARN)).toBe(`arn:aws:execute-api:eu-west-1:${ACCOUNT}:abc123defg/$default/GET/v1/jobs`);
    expect(readResourceArn('arn:aws:lambda:eu-west-1:1:function:x')).toBeUndefined();
  });

  it('binds the token to the API by a header the request signs', async () => {
    const token = await tokenOf('reader');
    const url = new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8'));

    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain(API_BINDING_HEADER);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.has(API_BINDING_HEADER)).toBe(false);
  });
});
