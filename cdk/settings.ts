/**
 * The deployment settings, read from CDK context (`cdk.json`, or `-c key=value`) once, in
 * cdk/app.ts. Everything here is plain data, so the stacks never read context themselves.
 *
 * - `clusters`: the clusters that may connect. In cdk.json a list of
 *   `{ "id", "eksClusterName" | "eksClusterArn", "oidcProviderArn"? }`; on the command line
 *   `-c clusters=<id>:<eksClusterName>,…`. Each cluster's role trusts only its own EKS cluster,
 *   so the cluster name (or ARN) is required. Adding a cluster is one more entry.
 * - `forwarderServiceAccount`: `<namespace>:<name>` of the forwarder's Kubernetes service
 *   account; the cluster roles trust only it. Default `jobfold:jobfold-forwarder`.
 * - `alarmTopicArn`: an existing SNS topic the alarms notify; without it the stack creates one.
 */
export interface ClusterSettings {
  readonly id: string;
  /** EKS cluster name: the Pod Identity trust checks the `eks-cluster-name` tag and aws:SourceArn. */
  readonly eksClusterName?: string;
  /** EKS cluster ARN (instead of, or besides, the name): the trust's aws:SourceArn. */
  readonly eksClusterArn?: string;
  /** IAM OIDC provider of the cluster: with it, the role also trusts IRSA. */
  readonly oidcProviderArn?: string;
}

export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
}

export interface Settings {
  readonly clusters: readonly ClusterSettings[];
  readonly forwarderServiceAccount: ServiceAccountRef;
  readonly alarmTopicArn?: string;
}

// Same rule as ClusterIdSchema in shared/job/events.ts (cdk/ does not import shared/): the id
// ends up in an event source, a queue name and a role name, so it must be a DNS label.
const CLUSTER_ID = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const EKS_CLUSTER_ARN = /^arn:aws[a-z-]*:eks:[a-z0-9-]+:\d{12}:cluster\/[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const EKS_CLUSTER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const OIDC_PROVIDER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/.+$/;
const DEFAULT_SERVICE_ACCOUNT = 'jobfold:jobfold-forwarder';

/** Reads the settings from a context getter (`node.tryGetContext`); throws naming the bad value. */
export function readSettings(context: (key: string) => unknown): Settings {
  const clusters = parseClusters(context('clusters'));
  const serviceAccount = parseServiceAccount(context('forwarderServiceAccount') ?? DEFAULT_SERVICE_ACCOUNT);
  const alarmTopicArn = context('alarmTopicArn');
  if (alarmTopicArn !== undefined && (typeof alarmTopicArn !== 'string' || !alarmTopicArn.startsWith('arn:'))) {
    throw new Error(`context alarmTopicArn: expected an SNS topic ARN, got ${JSON.stringify(alarmTopicArn)}`);
  }
  return { clusters, forwarderServiceAccount: serviceAccount, ...(alarmTopicArn ? { alarmTopicArn } : {}) };
}

function parseClusters(raw: unknown): ClusterSettings[] {
  if (raw === undefined || raw === null || raw === '') return [];
  // `-c clusters=a,b` arrives as a string; a JSON list on the command line works too.
  const list = typeof raw === 'string'
    ? (raw.trim().startsWith('[') ? JSON.parse(raw) as unknown : raw.split(',').map((s) => s.trim()).filter(Boolean).map(idAndName))
    : raw;
  if (!Array.isArray(list)) throw new Error(`context clusters: expected a list or "a,b", got ${JSON.stringify(raw)}`);
  const clusters = list.map(parseCluster);
  const seen = new Set<string>();
  for (const { id } of clusters) {
    if (seen.has(id)) throw new Error(`context clusters: "${id}" is listed twice`);
    seen.add(id);
  }
  return clusters;
}

/** `-c clusters=prod-eu-1:eks-prod-eu-1`: `<id>:<eksClusterName>`. */
function idAndName(entry: string): unknown {
  const [id, eksClusterName, ...extra] = entry.split(':');
  if (extra.length > 0) return entry;
  return eksClusterName === undefined ? { id } : { id, eksClusterName };
}

function parseCluster(entry: unknown): ClusterSettings {
  const object = typeof entry === 'string' ? { id: entry } : entry;
  if (typeof object !== 'object' || object === null) {
    throw new Error(`context clusters: expected an id or an object, got ${JSON.stringify(entry)}`);
  }
  const { id, eksClusterName, eksClusterArn, oidcProviderArn, ...rest } = object as Record<string, unknown>;
  if (typeof id !== 'string' || !CLUSTER_ID.test(id)) {
    throw new Error(`context clusters: id ${JSON.stringify(id)} must be a DNS label (lowercase letters, digits, "-")`);
  }
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new Error(`context clusters: "${id}" has unknown keys ${unknown.join(', ')}`);
  if (eksClusterName !== undefined && (typeof eksClusterName !== 'string' || !EKS_CLUSTER_NAME.test(eksClusterName))) {
    throw new Error(`context clusters: "${id}" eksClusterName must be an EKS cluster name (letters, digits, "-", "_"; at most 100)`);
  }
  if (eksClusterArn !== undefined && (typeof eksClusterArn !== 'string' || !EKS_CLUSTER_ARN.test(eksClusterArn))) {
    throw new Error(`context clusters: "${id}" eksClusterArn must be an EKS cluster ARN (arn:aws:eks:<region>:<account>:cluster/<name>)`);
  }
  if (eksClusterName === undefined && eksClusterArn === undefined) {
    throw new Error(`context clusters: "${id}" needs eksClusterName or eksClusterArn, so that its role trusts only that EKS cluster `
      + `(on the command line: -c clusters=${id}:<eksClusterName>)`);
  }
  if (oidcProviderArn !== undefined && (typeof oidcProviderArn !== 'string' || !OIDC_PROVIDER_ARN.test(oidcProviderArn))) {
    throw new Error(`context clusters: "${id}" oidcProviderArn must be an IAM OIDC provider ARN`);
  }
  return {
    id,
    ...(eksClusterName ? { eksClusterName } : {}),
    ...(eksClusterArn ? { eksClusterArn } : {}),
    ...(oidcProviderArn ? { oidcProviderArn } : {}),
  };
}

function parseServiceAccount(raw: unknown): ServiceAccountRef {
  const [namespace, name, ...extra] = typeof raw === 'string' ? raw.split(':') : [];
  if (!namespace || !name || extra.length > 0) {
    throw new Error(`context forwarderServiceAccount: expected "<namespace>:<name>", got ${JSON.stringify(raw)}`);
  }
  return { namespace, name };
}
