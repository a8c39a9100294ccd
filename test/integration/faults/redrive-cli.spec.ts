import { execFile } from 'node:child_process';
import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger } from '../../../functions/commons/powertools.ts';
import { parkedBody } from '../../../functions/triage/parked-entry.ts';
import type { LocalStack } from '../../../local/local-stack.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { sampleEvents } from '../../unit/writer/write-support.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// `jobfold admin redrive` end to end (issue 24): the real CLI, as an operator runs it, with the
// AWS SDK's endpoints pointed at the local stack — its SQS for the parked queue, and a PutRecord
// endpoint that puts into the local ingest stream, which the writer's code consumes as the
// writer Lambda consumes Kinesis. Records the triage parked (WriteFailed) are redriven, a dry run
// changes nothing, and a redrive run again (a crash between the put and the delete) stores
// nothing twice: every record is folded once.

logger.setLogLevel('SILENT');
const JOBFOLD = new URL('../../../cli/jobfold.ts', import.meta.url).pathname;
const events = sampleEvents('samples/named-failure.jsonl');
const job: StreamId = { kind: 'Job', clusterId: 'dev-eu-1', namespace: 'default', uid: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };
const QUEUE = 'jobfold-parked-dlq';
const STREAM_ARN = 'arn:aws:kinesis:us-east-1:000000000000:stream/jobfold-ingest';

/** What the triage parks for a record it could not write: the record's data, whole. */
const parked = (event: unknown, i: number) => parkedBody({
  code: 'WriteFailed', reason: 'the writer failed the record\'s log on every attempt', error: { name: 'ServiceUnavailable', message: 'DynamoDB is down' },
  job: job.uid, shardId: 'shardId-000000000000', sequenceNumber: String(1000 + i), receiveCount: 5, original: JSON.stringify(event),
});

/** Kinesis PutRecord (AWS JSON 1.1, over HTTP/2 as the SDK's Kinesis client speaks it) into the local ingest stream. */
function kinesisInto(stack: LocalStack): { server: Http2Server; put: string[] } {
  const put: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      const input = JSON.parse(body || '{}') as { StreamARN?: string; PartitionKey?: string; Data?: string };
      const target = String(req.headers['x-amz-target'] ?? '');
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      if (target !== 'Kinesis_20131202.PutRecord' || input.StreamARN !== STREAM_ARN || !input.PartitionKey || !input.Data) {
        res.writeHead(400).end(JSON.stringify({ __type: 'ValidationException', message: `unexpected ${target} ${input.StreamARN}` }));
        return;
      }
      const data = Buffer.from(input.Data, 'base64').toString('utf8');
      put.push(data);
      stack.runtime.ingest.put(input.PartitionKey, data);
      res.writeHead(200).end(JSON.stringify({ ShardId: 'shardId-000000000000', SequenceNumber: String(put.length) }));
    });
  });
  return { server, put };
}

/** Runs `jobfold admin redrive ARGS` as a child process with the SDK's endpoints set. */
function redrive(stack: LocalStack, kinesisUrl: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const env = {
    ...process.env, AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x', AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_SQS: `${stack.url}/sqs`, AWS_ENDPOINT_URL_KINESIS: kinesisUrl,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [JOBFOLD, 'admin', 'redrive', '--queue', stack.dlqUrl('parked'), ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

describe('jobfold admin redrive, end to end on the local stack', () => {
  let stack: LocalStack;
  let kinesis: ReturnType<typeof kinesisInto>;
  let kinesisUrl: string;

  beforeAll(async () => {
    stack = await startTestStack();
    kinesis = kinesisInto(stack);
    await new Promise<void>((resolve) => kinesis.server.listen(0, '127.0.0.1', resolve));
    kinesisUrl = `http://127.0.0.1:${(kinesis.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => (kinesis ? kinesis.server.close(resolve) : resolve(undefined)));
    await stack?.stop();
  });

  const logged = async () => (await stack.store.read(job)).entries;

  it('given parked records, a dry run says what it would do and changes nothing', async () => {
    events.forEach((event, i) => stack.sqs.send(QUEUE, parked(event, i)));
    const { code, out } = await redrive(stack, kinesisUrl, '--dry-run');
    expect(code).toBe(0);
    expect(out).toContain(`${events.length} parked messages: ${events.length} would be redriven`);
    expect(kinesis.put).toEqual([]);
    expect(await logged()).toEqual([]);
  }, 120_000);

  it('when redriven, every record is folded once and the queue is empty', async () => {
    const { code, out } = await redrive(stack, kinesisUrl, '--stream', STREAM_ARN);
    expect(code, out).toBe(0);
    expect(out).toContain(`${events.length} parked messages: ${events.length} redriven, 0 refused`);
    expect(kinesis.put).toHaveLength(events.length);
    await stack.runtime.whenQuiet(0);
    const observed = (await logged()).filter((e) => ['JobObserved', 'PodObserved', 'PodDeleted'].includes(e.type));
    expect(observed.map((e) => e.eventId).sort()).toEqual(events.map((e) => (e as { detail: { eventId: string } }).detail.eventId).sort());
    // and the Job is decided from them: failed by its named rule (KEP-4443), as the sample ends
    const view = (await (await fetch(`${stack.url}/v1/clusters/${job.clusterId}/namespaces/default/jobs/train`)).json()) as { status: { conditions: { type: string; reason: string }[] } };
    expect(view.status.conditions.find((c) => c.type === 'Failed')?.reason).toBe('PodFailurePolicy_ExitCode2');
    const again = await redrive(stack, kinesisUrl, '--stream', STREAM_ARN);
    expect(again.out).toContain('0 parked messages');
    expect(stack.sqs.size(QUEUE)).toBe(0);
  }, 180_000);

  it('when the same records are parked and redriven again, nothing is stored twice', async () => {
    const before = (await logged()).map((e) => e.eventId);
    events.forEach((event, i) => stack.sqs.send(QUEUE, parked(event, i)));
    const { code } = await redrive(stack, kinesisUrl, '--stream', STREAM_ARN);
    expect(code).toBe(0);
    await stack.runtime.whenQuiet(0);
    const after = (await logged()).map((e) => e.eventId);
    expect(after).toEqual(before);
    expect(new Set(after).size).toBe(after.length);
  }, 180_000);
});
