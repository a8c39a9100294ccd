// The kube API's bearer token, the EKS pattern (aws-iam-authenticator): a presigned STS
// GetCallerIdentity request, base64url-encoded behind a prefix. kubectl cannot sign requests
// with SigV4, but it can send a token an exec plugin (`jobfold token`) prints; the authorizer
// sends the presigned request to STS, which answers with the caller's identity only if the
// signature holds. The request signs one more header, `x-jobfold-api: <the API's host>`, and
// the authorizer sends its own host in it: a token minted for another API (or another service
// that takes such tokens, like EKS's x-k8s-aws-id) fails STS's signature check here.

export const TOKEN_PREFIX = 'k8s-aws-v1.';
/** The header that binds a token to one API; signed, and sent by the authorizer with its own host. */
export const API_BINDING_HEADER = 'x-jobfold-api';
/** How long a token is good for (as EKS tokens): the presigned request's X-Amz-Expires. */
export const TOKEN_VALIDITY_SECONDS = 900;
/** Longest token accepted (a real one is about 1.5 KB, 2.5 KB with session credentials). */
export const MAX_TOKEN_LENGTH = 8192;

export function encodeToken(presignedUrl: string): string {
  return `${TOKEN_PREFIX}${Buffer.from(presignedUrl, 'utf8').toString('base64url')}`;
}
