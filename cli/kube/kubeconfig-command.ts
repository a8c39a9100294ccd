import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, stringify } from 'yaml';
import { ApiError, isLocal } from '../client/api-client.ts';
import { ENDPOINT_HELP, UsageError, clientFor, parse } from '../client/client-options.ts';

export const KUBECONFIG_HELP = `Usage: jobfold kubeconfig [--cluster C]... [--output FILE] [--merge] [--endpoint URL]

Writes a kubeconfig with one context per cluster jobfold knows, named jobfold-<cluster>, whose
server is <endpoint>/k8s/clusters/<cluster>: jobfold's read-only Kubernetes API of that
cluster, history included (docs/kubectl.md). For a deployed API the user runs
\`jobfold token\` as kubectl's exec plugin (an STS token, your AWS credentials); the local
stack (npm start) needs none.

By default the contexts are merged into your kubeconfig ($KUBECONFIG's first file, else
~/.kube/config), replacing jobfold's own entries of the same names and keeping everything else;
the current context is set only when there is none. Then:

  kubectl --context jobfold-prod-eu-1 get jobs -A

Options:
  --cluster C           only cluster C (repeatable); default: every cluster the API has Jobs of
  -o, --output FILE     write FILE instead (- for standard output), a kubeconfig of jobfold's
                        contexts alone
  --merge               with --output: merge into FILE instead of replacing it
${ENDPOINT_HELP}
  -h, --help            this help`;

const OPTIONS = {
  endpoint: { type: 'string' },
  cluster: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  merge: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The entry point of jobfold's own CLI, for the exec plugin of a deployed API. */
const JOBFOLD_CLI = fileURLToPath(new URL('../jobfold.ts', import.meta.url));

interface Named<T> {
  name: string;
  [key: string]: unknown;
  cluster?: T;
  context?: T;
  user?: T;
}

interface Kubeconfig {
  apiVersion?: string;
  kind?: string;
  clusters?: Named<unknown>[];
  contexts?: Named<unknown>[];
  users?: Named<unknown>[];
  'current-context'?: string;
  preferences?: unknown;
  [key: string]: unknown;
}

export async function kubeconfigCommand(argv: readonly string[], write: (text: string) => void): Promise<void> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    write(`${KUBECONFIG_HELP}\n`);
    return;
  }
  if (values.merge && values.output === undefined) throw new UsageError('--merge goes with --output FILE (without --output, jobfold merges into your kubeconfig)');
  const client = clientFor(values.endpoint);
  const clusters = values.cluster ?? (await client.get<{ clusters: string[] }>('/v1/fleet', { limit: '1' })).clusters;
  if (clusters.length === 0) throw new ApiError(`the API at ${client.endpoint.origin} knows no cluster yet: name one with --cluster`);
  const ours = contextsFor(client.endpoint, clusters);
  if (values.output === '-') {
    write(stringify(ours, { lineWidth: 0 }));
    return;
  }
  const file = values.output ?? defaultKubeconfig(process.env);
  const merged = values.output !== undefined && !values.merge ? ours : merge(existsSync(file) ? read(file) : {}, ours);
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.jobfold-${process.pid}`;
  writeFileSync(partial, stringify(merged, { lineWidth: 0 }), { mode: 0o600 });
  renameSync(partial, file);
  write(`${clusters.map((c) => `jobfold-${c}`).join(', ')} written to ${file}\n`);
}

/** The kubeconfig of jobfold's contexts for `endpoint`: one cluster and context per cluster, one user. */
export function contextsFor(endpoint: URL, clusters: readonly string[]): Kubeconfig {
  const base = endpoint.toString().replace(/\/$/, '');
  const userName = isLocal(endpoint) ? 'jobfold-local' : `jobfold-${endpoint.host}`;
  const user = isLocal(endpoint)
    ? {}
    : {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: process.execPath,
        args: [JOBFOLD_CLI, 'token', '--endpoint', base],
        interactiveMode: 'Never',
        provideClusterInfo: false,
      },
    };
  // The local stack speaks plain http on loopback. kubectl takes that as it is; client-go-style
  // libraries such as @kubernetes/client-node refuse an http server unless the cluster says
  // insecure-skip-tls-verify (there is no TLS to verify).
  const plainHttp = endpoint.protocol === 'http:' ? { 'insecure-skip-tls-verify': true } : {};
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: clusters.map((c) => ({ name: `jobfold-${c}`, cluster: { server: `${base}/k8s/clusters/${encodeURIComponent(c)}`, ...plainHttp } })),
    contexts: clusters.map((c) => ({ name: `jobfold-${c}`, context: { cluster: `jobfold-${c}`, user: userName } })),
    users: [{ name: userName, user }],
    'current-context': `jobfold-${clusters[0]}`,
  };
}

/** `existing` with `ours` in it: entries of the same names replaced, the rest kept. */
export function merge(existing: Kubeconfig, ours: Kubeconfig): Kubeconfig {
  const replace = (kept: Named<unknown>[] | undefined, added: Named<unknown>[] | undefined): Named<unknown>[] => {
    const names = new Set((added ?? []).map((e) => e.name));
    return [...(kept ?? []).filter((e) => !names.has(e.name)), ...(added ?? [])];
  };
  return {
    ...existing,
    apiVersion: existing.apiVersion ?? 'v1',
    kind: existing.kind ?? 'Config',
    clusters: replace(existing.clusters, ours.clusters),
    contexts: replace(existing.contexts, ours.contexts),
    users: replace(existing.users, ours.users),
    'current-context': existing['current-context'] || ours['current-context'],
  };
}

function read(file: string): Kubeconfig {
  const parsed: unknown = parseYaml(readFileSync(file, 'utf8'));
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ApiError(`${file} is not a kubeconfig (not a YAML mapping); not changed`);
  return parsed as Kubeconfig;
}

/** kubectl's own choice: the first file of $KUBECONFIG, else ~/.kube/config. */
export function defaultKubeconfig(env: Record<string, string | undefined>): string {
  const first = (env['KUBECONFIG'] ?? '').split(delimiter).find((p) => p !== '');
  return first ?? join(homedir(), '.kube', 'config');
}
