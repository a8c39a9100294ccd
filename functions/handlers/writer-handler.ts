import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import middy from '@middy/core';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import type { RejectionSink } from '../../shared/app/ingest.ts';
import { reconcileJobSet } from '../../shared/app/reconcile-jobset.ts';
import { StateCache } from '../../shared/app/write/state-cache.ts';
import { writeBatch, type WriteDeps } from '../../shared/app/write/write-batch.ts';
import { logger, METRIC, metrics } from '../commons/powertools.ts';
import type { TimerScheduler } from '../ports/index.ts';
import { recordDecisionMetrics } from './decision-metrics.ts';
import { decodedSlices, entryObservation, type StreamGroup } from './writer/stream-records.ts';
import { streamKey } from '../../shared/app/stream-key.ts';
import { forEachBounded } from './writer/bounded.ts';

export interface WriterHandlerDeps extends Omit<WriteDeps, 'cache'> {
  readonly rejections: RejectionSink;
  readonly timers: TimerScheduler;
  /** Warm Job states across invocations (default: one per handler, so one per Lambda container). */
  readonly cache?: StateCache;
  /** Logs written at once (default 8); one log's records are always written in order, at once. */
  readonly concurrency?: number;
  /** What is decoded and written at once (default SLICE_LIMITS; tests make it small). */
  readonly slice?: { readonly observations: number; readonly decodedBytes: number };
}

/**
 * writer: the single writer of every Job's log. Kinesis delivers a shard's records in order,
 * partitioned by the Job (or JobSet) uid, so all of a Job's events pass through one invocation
 * at a time. Per log in the batch, in arrival order: a Job's observations (and timer Ticks) are
 * written by writeBatch (dedupe against the fold, decide at each position, conditioned commit
 * steps) and its wake-up scheduled; a JobSet's are appended and the JobSet reconciled.
 * Records that do not parse go to the rejection sink with their reasons and never fail the
 * batch. A log whose write fails reports its lowest sequence number, so Lambda retries from
 * there (what was written is dropped as known then); a Job whose write fails deterministically
 * is parked (stall.ts) and its records go to the rejection sink with the error.
 */
export function createWriterHandler(deps: WriterHandlerDeps) {
  const write = createRecordWriter(deps);
  return middy(async (event: KinesisStreamEvent, _context: Context): Promise<KinesisStreamBatchResponse> => {
    const failures = await write(event.Records);
    return { batchItemFailures: failures.map((f) => ({ itemIdentifier: f.startSequenceNumber })) };
  })
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics));
}

/** A log whose write failed: its records' sequence range and the error. */
export interface LogWriteFailure {
  readonly stream: StreamGroup['stream'];
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
  readonly records: number;
  /** The log's records in the batch (other logs' records may lie between them). */
  readonly sequenceNumbers: readonly string[];
  readonly error: unknown;
}

/**
 * The writer without its Lambda wrapper: writes one shard's records and returns the logs whose
 * write failed, with the error. The dead-letter triage (functions/handlers/triage-handler.ts)
 * runs the records Lambda gave up on through this same code once more.
 */
export function createRecordWriter(deps: WriterHandlerDeps): (records: readonly KinesisStreamRecord[]) => Promise<LogWriteFailure[]> {
  const cache = deps.cache ?? new StateCache();
  const writeDeps: WriteDeps = { ...deps, cache };
  return async (records) => {
    // A slice at a time (decodedSlices): a log that failed in one slice writes nothing of its
    // records in the later ones (they wait behind the failed one) and its failure names them too.
    const failures = new Map<string, LogWriteFailure>();
    for (const { groups, refused } of decodedSlices(records, deps.slice)) {
      for (const { text, errors } of refused) {
        logger.warn('stream record rejected', { errors });
        metrics.addMetric(METRIC.eventsRejected, MetricUnit.Count, 1);
        await deps.rejections.reject(text, errors);
      }
      const todo = groups.filter((group) => {
        const failed = failures.get(streamKey(group.stream));
        if (failed) failures.set(streamKey(group.stream), withRecords(failed, group.sequenceNumbers));
        return !failed;
      });
      await writeGroups(todo, failures, shardOf(records));
    }
    return [...failures.values()];
  };

  async function writeGroups(groups: readonly StreamGroup[], failures: Map<string, LogWriteFailure>, shardId: string | undefined): Promise<void> {
    await forEachBounded(groups, deps.concurrency ?? 8, async (group) => {
      try {
        await writeGroup(writeDeps, deps, group);
      } catch (error) {
        // The shard and sequence numbers are what the writer-failures queue names once Lambda
        // gives up on the batch: the triage and an operator find this error by them (docs/deploy.md).
        const failure = {
          stream: group.stream, startSequenceNumber: lowest(group.sequenceNumbers),
          endSequenceNumber: highest(group.sequenceNumbers), records: group.sequenceNumbers.length,
          sequenceNumbers: group.sequenceNumbers, error,
        };
        logger.error('log write failed; the batch is retried from its first record', {
          stream: failure.stream, shardId, startSequenceNumber: failure.startSequenceNumber,
          endSequenceNumber: failure.endSequenceNumber, records: failure.records, error: error as Error,
        });
        metrics.addMetric(METRIC.writeFailures, MetricUnit.Count, 1);
        failures.set(streamKey(group.stream), failure);
      }
    });
  }
}

/** A failure that also names `more` of its log's records (not attempted: they wait behind it). */
function withRecords(failure: LogWriteFailure, more: readonly string[]): LogWriteFailure {
  const sequenceNumbers = [...failure.sequenceNumbers, ...more];
  return { ...failure, sequenceNumbers, records: sequenceNumbers.length, endSequenceNumber: highest(sequenceNumbers) };
}

async function writeGroup(writeDeps: WriteDeps, deps: WriterHandlerDeps, group: StreamGroup): Promise<void> {
  const { stream } = group;
  const now = deps.clock();
  if (stream.kind === 'JobSet') {
    const appended = await deps.store.append(stream, group.entries, now);
    if (appended.appended.length > 0) metrics.addMetric(METRIC.eventsIngested, MetricUnit.Count, appended.appended.length);
    const outcome = await reconcileJobSet(deps, stream);
    if (outcome.attempts > 1) metrics.addMetric(METRIC.reconcileConflicts, MetricUnit.Count, outcome.attempts - 1);
    if (outcome.wakeAt) await deps.timers.schedule(stream, outcome.wakeAt);
  } else {
    const outcome = await writeBatch(writeDeps, stream, group.entries.map(entryObservation));
    recordDecisionMetrics(outcome, deps.clock());
    if (outcome.stalled) {
      // Parked: nothing of the batch is logged. Keep its records, with the reason, where an
      // operator finds them; the next delivery of the Job's events tries it again.
      const errors = [{ path: '', message: `the Job is stalled, records not logged: ${outcome.stalled.error}` }];
      for (const text of group.texts) await deps.rejections.reject(text, errors);
      metrics.addMetric(METRIC.eventsDeadLettered, MetricUnit.Count, group.texts.length);
      return;
    }
    if (outcome.logged > 0) metrics.addMetric(METRIC.eventsIngested, MetricUnit.Count, outcome.logged);
    // Refused and recorded in the log (ObservationRefused): a conflicting duplicate, a uid under another name.
    for (const { observation, reason, message, conflict } of outcome.refused) {
      logger.warn('observation refused', { stream, eventId: observation.eventId, reason, ...conflict });
      metrics.addMetric(reason === 'ConflictingDuplicate' ? METRIC.conflictingDuplicates : METRIC.eventsRejected, MetricUnit.Count, 1);
      await deps.rejections.reject(observation, [{ path: reason === 'UidReused' ? 'detail.object.metadata.name' : 'detail.eventId', message: `${reason}: ${message}` }]);
    }
    if (Object.keys(outcome.dropped).length > 0) logger.debug("events the Job's log already holds, not logged again", { stream, dropped: outcome.dropped });
    if (outcome.wakeAt) await deps.timers.schedule(stream, outcome.wakeAt);
  }
  // After the primary log: a crash in between leaves the related entries to the retry.
  for (const target of group.related) await deps.store.append(target.stream, [target.entry], now);
}

/** The lowest of Kinesis sequence numbers (decimal strings of up to 56 digits). */
function lowest(sequenceNumbers: readonly string[]): string {
  return sequenceNumbers.reduce((a, b) => (BigInt(b) < BigInt(a) ? b : a));
}

function highest(sequenceNumbers: readonly string[]): string {
  return sequenceNumbers.reduce((a, b) => (BigInt(b) > BigInt(a) ? b : a));
}

/** The shard of the batch: Lambda's eventID is "<shardId>:<sequenceNumber>". */
function shardOf(records: readonly KinesisStreamRecord[]): string | undefined {
  return records[0]?.eventID.split(':')[0];
}
