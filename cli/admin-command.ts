import { parseArgs } from 'node:util';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { backfillFleetIndex } from '../functions/adapters/dynamodb-fleet-backfill.ts';
import { MeteredTable } from '../functions/adapters/metered-table.ts';
import { DEFAULT_TABLE_NAME, INDEX, TABLE_DEFINITION } from '../functions/adapters/table-layout.ts';

export const ADMIN_HELP = `Usage:
  jobfold admin backfill-fleet-index [--table NAME] [--dynamodb-endpoint URL] [--region REGION]

Operations on the event table itself, with the AWS credentials of the environment (the AWS SDK's
default chain), not through the query API.

backfill-fleet-index  rewrites, on every summary item, the attributes the summary indexes read
                      (index keys, kind, namespace, the latest condition's type, status and
                      reason, the attention flags) from the summary it holds, as a commit writes
                      them today. Run it once after upgrading a stack whose summaries were
                      written before the fleet index carried the condition's status and reason
                      (docs/deploy.md, "Upgrading"). Idempotent: complete items are left alone,
                      and a summary a commit rewrites meanwhile is skipped (the commit wrote it
                      whole). It then checks the summary-fleet index's projection and says if the
                      index itself must be recreated.
  --table NAME              the event table (default $TABLE_NAME or ${DEFAULT_TABLE_NAME})
  --dynamodb-endpoint URL   DynamoDB's endpoint, e.g. DynamoDB Local's (default: the region's)
  --region REGION           default $AWS_REGION`;

export async function adminCommand(argv: readonly string[], out: (text: string) => void = console.log, err: (text: string) => void = console.error): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { table: { type: 'string' }, 'dynamodb-endpoint': { type: 'string' }, region: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    err(`jobfold admin: ${(error as Error).message}\n\n${ADMIN_HELP}`);
    return 2;
  }
  const [action] = parsed.positionals;
  if (parsed.values.help || action === undefined) {
    out(ADMIN_HELP);
    return action === undefined && !parsed.values.help ? 2 : 0;
  }
  if (action !== 'backfill-fleet-index') {
    err(`jobfold admin: unknown action ${action}\n\n${ADMIN_HELP}`);
    return 2;
  }
  const endpoint = parsed.values['dynamodb-endpoint'];
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    ...(parsed.values.region ?? process.env['AWS_REGION'] ? { region: parsed.values.region ?? process.env['AWS_REGION'] } : {}),
  });
  try {
    const tableName = parsed.values.table ?? process.env['TABLE_NAME'] ?? DEFAULT_TABLE_NAME;
    const report = await backfillFleetIndex(new MeteredTable(client, tableName, { returnConsumedCapacity: 'NONE' }));
    out(`${tableName}: ${report.summaries} summaries; ${report.updated} updated, ${report.alreadyComplete} already complete, `
      + `${report.changedMeanwhile} rewritten by a commit meanwhile (complete)`);
    const missing = await missingProjection(client, tableName);
    if (missing.length > 0) {
      out(`the ${INDEX.fleet} index does not project ${missing.join(', ')}: GET /v1/fleet stays exact but reads every `
        + 'summary until the index is recreated (docs/deploy.md, "Upgrading")');
    } else out(`the ${INDEX.fleet} index projects every attribute the fleet's counts read`);
    return 0;
  } catch (error) {
    err(`jobfold admin backfill-fleet-index: ${(error as Error).message}`);
    return 1;
  } finally {
    client.destroy();
  }
}

/** The attributes the table layout projects into the fleet index that the table's index does not. */
async function missingProjection(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const actual = described.Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === INDEX.fleet);
  const wanted = TABLE_DEFINITION.GlobalSecondaryIndexes.find((index) => index.IndexName === INDEX.fleet);
  if (actual?.Projection?.ProjectionType === 'ALL') return [];
  const projected = new Set(actual?.Projection?.NonKeyAttributes ?? []);
  return (wanted?.Projection.NonKeyAttributes ?? []).filter((name) => !projected.has(name));
}
