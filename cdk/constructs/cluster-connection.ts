import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { Rule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { CompositePrincipal, OpenIdConnectPrincipal, OpenIdConnectProvider, PolicyStatement, Role, ServicePrincipal,
  type IPrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { ClusterSettings, ServiceAccountRef } from '../settings.ts';
import { CLUSTER_SOURCE_PREFIX, COMMAND_DETAIL_TYPES, CONTROL_SOURCE } from '../bus-contract.ts';
import { QueueWithDlq, TARGET_RETRY } from './secure-queue.ts';

/** The forwarder holds a message while it applies it; a slow API server call must not hand it to another poll. */
const COMMAND_VISIBILITY = Duration.minutes(5);

export interface ClusterConnectionProps {
  readonly cluster: ClusterSettings;
  readonly bus: IEventBus;
  readonly serviceAccount: ServiceAccountRef;
}

/**
 * What one cluster gets: a command queue (with its DLQ) that a rule on `detail.clusterId` fills
 * with that cluster's commands only, and a role for the cluster's forwarder. The role may put
 * events on the bus only as `jobfold.cluster.<id>`, so a compromised cluster cannot speak for
 * another, and may read only its own queue (and send poison messages to its own DLQ).
 */
export class ClusterConnection extends Construct {
  readonly queues: QueueWithDlq;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ClusterConnectionProps) {
    super(scope, id);
    const { cluster, bus, serviceAccount } = props;
    this.queues = new QueueWithDlq(this, 'Commands', { visibilityTimeout: COMMAND_VISIBILITY });
    new Rule(this, 'CommandRule', {
      eventBus: bus,
      description: `jobfold commands for cluster ${cluster.id}`,
      eventPattern: { source: [CONTROL_SOURCE], detailType: COMMAND_DETAIL_TYPES, detail: { clusterId: [cluster.id] } },
      // What EventBridge cannot deliver lands in this cluster's DLQ, next to its poison messages.
      targets: [new SqsQueue(this.queues.queue, { deadLetterQueue: this.queues.deadLetterQueue, ...TARGET_RETRY })],
    });

    this.role = new Role(this, 'ForwarderRole', {
      assumedBy: forwarderPrincipal(this, cluster, serviceAccount),
      description: `jobfold forwarder of cluster ${cluster.id}`,
      maxSessionDuration: Duration.hours(1),
    });
    this.role.addToPolicy(new PolicyStatement({
      actions: ['events:PutEvents'],
      resources: [bus.eventBusArn],
      conditions: { StringEquals: { 'events:source': `${CLUSTER_SOURCE_PREFIX}${cluster.id}` } },
    }));
    this.role.addToPolicy(new PolicyStatement({
      actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'],
      resources: [this.queues.queue.queueArn],
    }));
    this.role.addToPolicy(new PolicyStatement({
      actions: ['sqs:SendMessage'],
      resources: [this.queues.deadLetterQueue.queueArn],
    }));

    // Readable output names (`ClusterProdEu1RoleArn`), so docs and scripts can look them up.
    const output = (name: string, value: string, description: string) =>
      new CfnOutput(this, name, { value, description }).overrideLogicalId(`${outputPrefix(cluster.id)}${name}`);
    output('RoleArn', this.role.roleArn, `Forwarder role of cluster ${cluster.id}`);
    output('QueueUrl', this.queues.queue.queueUrl, `JOBFOLD_QUEUE_URL of cluster ${cluster.id}`);
    output('DlqUrl', this.queues.deadLetterQueue.queueUrl, `JOBFOLD_DLQ_URL of cluster ${cluster.id}`);
  }
}

/** `prod-eu-1` → `ClusterProdEu1`: the prefix of a cluster's outputs. */
export function outputPrefix(clusterId: string): string {
  return `Cluster${clusterId.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}`;
}

/**
 * Who may assume the forwarder role: EKS Pod Identity for the forwarder's service account
 * (the session tags EKS sets name the namespace, the service account and the cluster), and, when
 * the cluster has an IAM OIDC provider configured, the same service account through IRSA.
 */
function forwarderPrincipal(scope: Construct, cluster: ClusterSettings, sa: ServiceAccountRef): IPrincipal {
  // Bound to this cluster: the EKS cluster that asks (aws:SourceArn) and the tag it sets.
  const clusterArn = cluster.eksClusterArn
    ?? Stack.of(scope).formatArn({ service: 'eks', resource: 'cluster', resourceName: cluster.eksClusterName ?? '' });
  const podIdentity = new ServicePrincipal('pods.eks.amazonaws.com', {
    conditions: {
      StringEquals: {
        'aws:RequestTag/kubernetes-namespace': sa.namespace,
        'aws:RequestTag/kubernetes-service-account': sa.name,
        ...(cluster.eksClusterName ? { 'aws:RequestTag/eks-cluster-name': cluster.eksClusterName } : {}),
        'aws:SourceAccount': Stack.of(scope).account,
      },
      ArnEquals: { 'aws:SourceArn': clusterArn },
    },
  }).withSessionTags();
  if (!cluster.oidcProviderArn) return podIdentity;
  const issuer = cluster.oidcProviderArn.slice(cluster.oidcProviderArn.indexOf(':oidc-provider/') + ':oidc-provider/'.length);
  const provider = OpenIdConnectProvider.fromOpenIdConnectProviderArn(scope, 'OidcProvider', cluster.oidcProviderArn);
  const irsa = new OpenIdConnectPrincipal(provider, {
    StringEquals: {
      [`${issuer}:sub`]: `system:serviceaccount:${sa.namespace}:${sa.name}`,
      [`${issuer}:aud`]: 'sts.amazonaws.com',
    },
  });
  return new CompositePrincipal(podIdentity, irsa);
}
