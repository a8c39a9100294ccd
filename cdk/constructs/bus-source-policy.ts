import type { EventBus } from 'aws-cdk-lib/aws-events';
import { AnyPrincipal, Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { CLUSTER_SOURCE_PREFIX, CONTROL_SOURCE, REJECTION_SOURCE } from '../bus-contract.ts';

export interface BusSourceOwners {
  /** Who may put `jobfold.control` (commands): the publish function. */
  readonly control: IRole;
  /** Who may put `jobfold.ingest` (rejections): the writer and the dead-letter triage, which runs the writer's code. */
  readonly ingest: readonly IRole[];
  /** Each cluster's forwarder role, by cluster id: only it may put `jobfold.cluster.<id>`. */
  readonly clusters: ReadonlyMap<string, IRole>;
}

/**
 * The bus's resource policy: explicit denies, which bind every principal of the account whatever
 * its IAM policies allow (an unconditioned `events:PutEvents` included). jobfold's sources are
 * jobfold's own: `jobfold.control` only from the publish function, `jobfold.ingest` only from
 * the writer and triage functions, `jobfold.cluster.<id>` only from that cluster's role, and a
 * `jobfold.cluster.*` source of no configured cluster from no one.
 */
export function restrictBusSources(bus: EventBus, owners: BusSourceOwners): void {
  const deny = (sid: string, source: Record<string, Record<string, string>>, allowed: readonly IRole[]) =>
    bus.addToResourcePolicy(new PolicyStatement({
      sid,
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ['events:PutEvents'],
      resources: [bus.eventBusArn],
      conditions: {
        ...source,
        ...(allowed.length > 0 ? { ArnNotEquals: { 'aws:PrincipalArn': allowed.map((r) => r.roleArn) } } : {}),
      },
    }));
  deny('OnlyJobfoldPublishesCommands', { StringEquals: { 'events:source': CONTROL_SOURCE } }, [owners.control]);
  deny('OnlyJobfoldIngestRejects', { StringEquals: { 'events:source': REJECTION_SOURCE } }, owners.ingest);
  for (const [id, role] of owners.clusters) {
    deny(`OnlyClusterRoleSpeaksFor${sidPart(id)}`, { StringEquals: { 'events:source': `${CLUSTER_SOURCE_PREFIX}${id}` } }, [role]);
  }
  deny('NoUnknownClusterSources', { StringLike: { 'events:source': `${CLUSTER_SOURCE_PREFIX}*` } }, [...owners.clusters.values()]);
}

/** Statement ids are alphanumeric: `prod-eu-1` → `ProdEu1`. */
function sidPart(clusterId: string): string {
  return clusterId.split('-').map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
}
