import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiClient, resolveEndpoint } from './api-client.ts';

// The options every API command takes, parsed strictly: an unknown flag is a usage error.

export class UsageError extends Error {
  override name = 'UsageError';
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON_OPTIONS = {
  endpoint: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies Options;

export const OBJECT_OPTIONS = {
  ...COMMON_OPTIONS,
  cluster: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  uid: { type: 'string' },
} as const satisfies Options;

/** The help lines of OBJECT_OPTIONS' own flags, naming what the command reads (`object` or `Job`). */
export const objectOptionsHelp = (what: string): string => `  --cluster C           the cluster it ran in (required)
  -n, --namespace NS    its namespace (default "default")
  --uid UID             that ${what}, when the name was reused (default: the newest)`;

export const ENDPOINT_HELP = `  --endpoint URL        the API (default http://127.0.0.1:3000, or JOBFOLD_ENDPOINT); any other
                        host than 127.0.0.1/localhost is called signed with SigV4 (execute-api),
                        with credentials from the AWS chain (AWS_PROFILE, SSO, environment, role)`;

export function parse<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function clientFor(endpoint: string | undefined): ApiClient {
  return new ApiClient(resolveEndpoint(endpoint, process.env));
}

/** `/v1/clusters/C/namespaces/NS/jobs/NAME`, with --cluster and -n required. */
export function objectPath(kind: 'job' | 'jobset', name: string | undefined, cluster: string | undefined, namespace: string | undefined): string {
  if (name === undefined) throw new UsageError(`name the ${kind}: ${kind} NAME --cluster C -n NS`);
  if (cluster === undefined) throw new UsageError(`--cluster is required (the cluster the ${kind} ran in)`);
  const ns = namespace ?? 'default';
  const collection = kind === 'job' ? 'jobs' : 'jobsets';
  return `/v1/clusters/${encodeURIComponent(cluster)}/namespaces/${encodeURIComponent(ns)}/${collection}/${encodeURIComponent(name)}`;
}

/** `job`/`jobs`/`jobset`/`jobsets` → the kind; a usage error otherwise. */
export function kindOf(word: string | undefined, allowed: ReadonlyArray<'job' | 'jobset'>): 'job' | 'jobset' {
  const kind = word === 'jobs' || word === 'job' ? 'job' : word === 'jobsets' || word === 'jobset' ? 'jobset' : undefined;
  if (kind === undefined || !allowed.includes(kind)) throw new UsageError(`expected ${allowed.join(' or ')}, not "${word ?? ''}"`);
  return kind;
}
