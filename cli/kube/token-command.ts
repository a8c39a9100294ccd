import { ApiError, isLocal, regionOf, resolveEndpoint } from '../client/api-client.ts';
import { ENDPOINT_HELP, UsageError, parse } from '../client/client-options.ts';
import { mintToken } from './token.ts';

export const TOKEN_HELP = `Usage: jobfold token [--endpoint URL] [--region R]

Prints an ExecCredential (client.authentication.k8s.io/v1) for kubectl: a token for jobfold's
Kubernetes API at URL, valid 15 minutes. The token is an STS GetCallerIdentity request
presigned with your AWS credentials (the SDK's chain: AWS_PROFILE, SSO, environment, role) and
bound to that API; the API's authorizer has STS check it and lets you in when your role may
call the API (execute-api:Invoke, as for the signed /v1 routes). \`jobfold kubeconfig\` writes
the exec plugin that runs this; run it by hand to see what kubectl gets.

Options:
${ENDPOINT_HELP}
  --region R            STS's region (default: the API's, from its host, else AWS_REGION)
  -h, --help            this help`;

const OPTIONS = {
  endpoint: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export async function tokenCommand(argv: readonly string[], write: (text: string) => void): Promise<void> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    write(`${TOKEN_HELP}\n`);
    return;
  }
  const endpoint = resolveEndpoint(values.endpoint, process.env);
  if (isLocal(endpoint)) throw new UsageError(`${endpoint.origin} is the local stack: it needs no token (its kubeconfig has no user credentials)`);
  const region = values.region ?? regionOf(endpoint, process.env);
  const { fromNodeProviderChain } = await import('@aws-sdk/credential-providers');
  const credentials = await fromNodeProviderChain()().catch((error: unknown) => {
    throw new ApiError(`no AWS credentials to sign the token with: ${(error as Error).message}`);
  });
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  const credential = await mintToken({ apiHost: endpoint.host, stsUrl: new URL(`https://sts.${region}.${suffix}`), region, credentials, now: new Date() });
  write(`${JSON.stringify(credential)}\n`);
}
