import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../../functions/adapters/table-layout.ts';

/**
 * The state jobfold must never lose: the event table (logs, snapshots, summaries, outbox).
 * It lives in its own stack so that the service stack can be replaced or torn down freely.
 * The table is defined here directly, not inside a construct, because moving or renaming a
 * stateful construct would replace the resource.
 */
export class StatefulStack extends Stack {
  readonly table: Table;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const definition = TABLE_DEFINITION;
    const types = new Map(definition.AttributeDefinitions.map((a) => [a.AttributeName, a.AttributeType]));
    const attribute = (name: string) => {
      if (types.get(name) !== 'S') throw new Error(`table-layout: key attribute ${name} is not a string attribute`);
      return { name, type: AttributeType.STRING };
    };
    const [hash, range] = keyPair(definition.KeySchema);
    if (!definition.StreamSpecification.StreamEnabled) throw new Error('table-layout: the publisher needs the stream');

    this.table = new Table(this, 'EventTable', {
      partitionKey: attribute(hash),
      sortKey: attribute(range),
      billingMode: BillingMode.PAY_PER_REQUEST,
      // NEW_IMAGE: the publisher reads the inserted item, never the old one.
      stream: StreamViewType[definition.StreamSpecification.StreamViewType],
      // The log is the system of record: restorable to any second of the last 35 days...
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 35 },
      // ...not deletable by a stray API call or a stack update...
      deletionProtection: true,
      // ...kept when the stack goes away...
      removalPolicy: RemovalPolicy.RETAIN,
      // ...and encrypted with the account's AWS managed key, so key use shows in CloudTrail.
      encryption: TableEncryption.AWS_MANAGED,
    });

    for (const index of definition.GlobalSecondaryIndexes) {
      const [indexHash, indexRange] = keyPair(index.KeySchema);
      const projection = index.Projection;
      this.table.addGlobalSecondaryIndex({
        indexName: index.IndexName,
        partitionKey: attribute(indexHash),
        sortKey: attribute(indexRange),
        projectionType: ProjectionType[projection.ProjectionType],
        ...(projection.NonKeyAttributes ? { nonKeyAttributes: projection.NonKeyAttributes } : {}),
      });
    }
  }
}

/** [hash, range] attribute names of a key schema; the store's keys always have both. */
function keyPair(schema: readonly { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[]): [string, string] {
  const hash = schema.find((k) => k.KeyType === 'HASH')?.AttributeName;
  const range = schema.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  if (!hash || !range) throw new Error('table-layout: every key schema needs a HASH and a RANGE key');
  return [hash, range];
}
