import { parseArgs } from 'node:util';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { SQSClient } from '@aws-sdk/client-sqs';
import { kinesisRecordPutter } from '../functions/aws/kinesis-record-putter.ts';
import { sqsParkedQueue } from '../functions/aws/sqs-parked-queue.ts';
import { formatRedrive, redriveParked } from '../functions/triage/redrive-parked.ts';
import { backfillFleetIndex } from '../functions/adapters/dynamodb-fleet-backfill.ts';
import { MeteredTable } from '../functions/adapters/metered-table.ts';
import { DEFAULT_TABLE_NAME, INDEX, TABLE_DEFINITION } from '../functions/adapters/table-layout.ts';

export const ADMIN_HELP = `Usage:
  jobfold admin backfill-fleet-index [--table NAME] [--dynamodb-endpoint URL] [--region REGION]
  jobfold admin redrive --queue URL --stream ARN [--dry-run] [--region REGION]

Operations on the stack's own resources (the event table, the parked queue), with the AWS credentials of the environment (the AWS SDK's
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

redrive               sends what the dead-letter triage parked (the ParkedQueueUrl output) through
                      the writer again, once the cause named in each message is fixed: a parked
                      record (WriteFailed, RedriveFailed) is checked with the writer's own
                      validation and put back into the ingest stream (the IngestStreamArn output)
                      under its Job's key, then deleted from the queue. The writer drops what a
                      Job's log already holds, so a record redriven twice is stored once. What it
                      cannot redrive (ReadFailed, RangeExpired, RejectionUndelivered, Unrecognised,
                      a record cut to fit the message, a record the writer refuses) stays in the
                      queue; a line per message says why, and a last line counts them.
                      --dry-run: says what would happen; puts nothing, deletes nothing.
  --queue URL               the parked queue (default $PARKED_QUEUE_URL)
  --stream ARN              the ingest stream (default $STREAM_ARN; not needed with --dry-run)
  --dry-run                 change nothing
  --table NAME              the event table (default $TABLE_NAME or ${DEFAULT_TABLE_NAME})
  --dynamodb-endpoint URL   DynamoDB's endpoint, e.g. DynamoDB Local's (default: the region's)
  --region REGION           default $AWS_REGION`;

export async function adminCommand(argv: readonly string[], out: (text: string) => void = console.log, err: (text: string) => void = console.error): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        table: { type: 'string' }, 'dynamodb-endpoint': { type: 'string' }, region: { type: 'string' }, help: { type: 'boolean', short: 'h' },
        queue: { type: 'string' }, stream: { type: 'string' }, 'dry-run': { type: 'boolean', default: false },
      },
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
  const region = parsed.values.region ?? process.env['AWS_REGION'];
  if (action === 'redrive') return redrive({ ...parsed.values, region }, out, err);
  if (action !== 'backfill-fleet-index') {
    err(`jobfold admin: unknown action ${action}\n\n${ADMIN_HELP}`);
    return 2;
  }
  const endpoint = parsed.values['dynamodb-endpoint'];
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
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

/** `jobfold admin redrive`: the parked queue through the writer again (functions/triage/redrive-parked.ts). */
async function redrive(
  values: { queue?: string; stream?: string; 'dry-run'?: boolean; region?: string },
  out: (text: string) => void, err: (text: string) => void,
): Promise<number> {
  const queueUrl = values.queue ?? process.env['PARKED_QUEUE_URL'];
  const streamArn = values.stream ?? process.env['STREAM_ARN'];
  const dryRun = values['dry-run'] ?? false;
  if (!queueUrl || (!streamArn && !dryRun)) {
    err(`jobfold admin redrive: --queue${dryRun ? '' : ' and --stream'} are needed (the stack's ParkedQueueUrl and IngestStreamArn outputs)\n\n${ADMIN_HELP}`);
    return 2;
  }
  const config = values.region ? { region: values.region } : {};
  const sqs = new SQSClient(config);
  const kinesis = new KinesisClient(config);
  try {
    const stream = streamArn ? kinesisRecordPutter(kinesis, streamArn) : { put: async () => { throw new Error('no stream in a dry run'); } };
    const summary = await redriveParked({ queue: sqsParkedQueue(sqs, queueUrl), stream }, { dryRun });
    out(formatRedrive(summary));
    return summary.counts.failed > 0 ? 1 : 0;
  } catch (error) {
    err(`jobfold admin redrive: ${(error as Error).message}`);
    return 1;
  } finally {
    sqs.destroy();
    kinesis.destroy();
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
