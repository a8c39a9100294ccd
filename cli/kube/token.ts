import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { API_BINDING_HEADER, encodeToken, TOKEN_VALIDITY_SECONDS } from '../../functions/kube/auth/token-format.ts';

// Minting the kube API's bearer token (functions/kube/auth/token-format.ts): an STS
// GetCallerIdentity request, presigned with the caller's AWS credentials (SigV4, the SDK's own
// signer) and bound to the API by the signed `x-jobfold-api` header.

export interface TokenRequest {
  /** The API's host (`<api-id>.execute-api.<region>.amazonaws.com`): what the token is bound to. */
  readonly apiHost: string;
  /** STS's regional endpoint (https://sts.<region>.amazonaws.com), or another for tests. */
  readonly stsUrl: URL;
  readonly region: string;
  readonly credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  readonly now: Date;
}

export interface ExecCredential {
  readonly kind: 'ExecCredential';
  readonly apiVersion: 'client.authentication.k8s.io/v1';
  readonly spec: Record<string, never>;
  readonly status: { readonly expirationTimestamp: string; readonly token: string };
}

/** kubectl reuses a token until this long before it expires. */
const REFRESH_MARGIN_SECONDS = 60;

export async function mintToken(request: TokenRequest): Promise<ExecCredential> {
  const [{ SignatureV4 }, { Sha256 }] = await Promise.all([import('@smithy/signature-v4'), import('@aws-crypto/sha256-js')]);
  const signer = new SignatureV4({ service: 'sts', region: request.region, credentials: request.credentials, sha256: Sha256 });
  const { stsUrl } = request;
  const presigned = await signer.presign({
    method: 'GET',
    protocol: stsUrl.protocol,
    hostname: stsUrl.hostname,
    ...(stsUrl.port === '' ? {} : { port: Number(stsUrl.port) }),
    path: '/',
    query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    headers: { host: stsUrl.host, [API_BINDING_HEADER]: request.apiHost },
  }, {
    expiresIn: TOKEN_VALIDITY_SECONDS,
    signingDate: request.now,
    // Signed, but left a header: the authorizer must send the API's host in it for STS to agree.
    unhoistableHeaders: new Set([API_BINDING_HEADER]),
  });
  const url = new URL(`${stsUrl.protocol}//${stsUrl.host}/`);
  for (const [name, value] of Object.entries(presigned.query ?? {})) {
    url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const expires = new Date(request.now.getTime() + (TOKEN_VALIDITY_SECONDS - REFRESH_MARGIN_SECONDS) * 1000);
  return {
    kind: 'ExecCredential',
    apiVersion: 'client.authentication.k8s.io/v1',
    spec: {},
    status: { expirationTimestamp: expires.toISOString().replace(/\.\d{3}Z$/, 'Z'), token: encodeToken(url.toString()) },
  };
}
