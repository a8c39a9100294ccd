import type { KinesisStreamRecord } from 'aws-lambda';
import { streamKey } from '../../shared/log/stream-key.ts';
import type { LogWriteFailure } from '../handlers/writer-handler.ts';
import { rangeName, type KinesisBatchInfo } from './on-failure-record.ts';
import { errorOf } from './parked-entry.ts';
import type { ParkedEntry, StreamRecord } from '../../shared/contract/dead-letters.ts';
import type { ShardRangeReader } from '../../shared/ports.ts';

// A batch Lambda gave up on after the writer's retries (the writer-failures queue): read its
// records back from the stream and write them with the writer's own code once more. A store
// outage that has passed by now costs nothing: the records are written (what was written
// before is dropped as known). If it fails again, the caller retries later (SQS visibility);
// on the last attempt each record of a log that still fails is parked with its error.

export type RecordWriter = (records: readonly KinesisStreamRecord[]) => Promise<LogWriteFailure[]>;

export type BatchTriageOutcome =
  /** Every record written (or refused by the writer with its reasons); `missing` parked if the range was partly gone. */
  | { readonly outcome: 'written'; readonly records: number; readonly parked: readonly ParkedEntry[] }
  /** Not this time: retry (unless this was the last attempt, then `parked` holds what to park). */
  | { readonly outcome: 'failed'; readonly error: string; readonly parked: readonly ParkedEntry[] };

export async function triageFailedBatch(
  message: { readonly info: KinesisBatchInfo; readonly text: string; readonly receiveCount: number; readonly last: boolean },
  ports: { readonly reader: ShardRangeReader; readonly write: RecordWriter },
): Promise<BatchTriageOutcome> {
  const { info, text, receiveCount, last } = message;
  const at = { shardId: info.shardId, receiveCount };
  let read;
  try {
    read = await ports.reader.read(info.shardId, info.startSequenceNumber, info.endSequenceNumber);
  } catch (error) {
    const reason = `the records of ${rangeName(info)} could not be read back from the ingest stream`;
    return { outcome: 'failed', error: `${reason}: ${errorOf(error).message}`, parked: last ? [{ code: 'ReadFailed', reason, error: errorOf(error), ...at, sequenceNumber: info.startSequenceNumber, original: text }] : [] };
  }
  // What the stream no longer holds cannot be retried: the on-failure record itself is parked,
  // saying which records are gone, at once (waiting does not bring them back).
  const missing: ParkedEntry[] = read.complete ? [] : [{
    code: 'RangeExpired', ...at, sequenceNumber: info.startSequenceNumber, original: text,
    reason: `the ingest stream no longer holds the start of ${rangeName(info)} (its retention passed)`,
    error: { name: 'RangeExpired', message: `${read.records.length} of the range's records were still readable and were written; the others were never logged` },
  }];
  const failures = await ports.write(read.records.map((r) => lambdaRecord(info, r)));
  if (failures.length === 0) return { outcome: 'written', records: read.records.length, parked: missing };
  const error = failures.map((f) => `${streamKey(f.stream)}: ${errorOf(f.error).name}: ${errorOf(f.error).message}`).join('; ');
  // The gone records are parked once: with the attempt that writes the rest, or the last one.
  if (!last) return { outcome: 'failed', error, parked: [] };
  const parked = failures.flatMap((failure) => read.records
    .filter((r) => failure.sequenceNumbers.includes(r.sequenceNumber))
    .map((r): ParkedEntry => ({
      code: 'WriteFailed', ...at, job: streamKey(failure.stream), sequenceNumber: r.sequenceNumber,
      reason: `the writer failed this record's log on every attempt (Lambda's retries, then ${receiveCount} by the dead-letter triage)`,
      error: errorOf(failure.error), original: Buffer.from(r.data).toString('utf8'),
    })));
  return { outcome: 'failed', error, parked: [...missing, ...parked] };
}

/** A stream record as Lambda hands it to the writer (the fields the writer reads, and the rest as Lambda fills them). */
function lambdaRecord(info: KinesisBatchInfo, r: StreamRecord): KinesisStreamRecord {
  return {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: r.partitionKey,
      sequenceNumber: r.sequenceNumber,
      data: Buffer.from(r.data).toString('base64'),
      approximateArrivalTimestamp: (r.approximateArrivalTimestamp?.getTime() ?? 0) / 1000,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `${info.shardId}:${r.sequenceNumber}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: '',
    awsRegion: '',
    eventSourceARN: info.streamArn ?? '',
  };
}
