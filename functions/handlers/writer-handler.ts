import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import type { StreamId } from '../../shared/log/event-store.ts';
import { entryObservation, fedBatches } from '../../shared/decide/fed-logs.ts';
import type { RejectionSink } from '../../shared/ports.ts';
import { streamKey } from '../../shared/log/stream-key.ts';
import type { AnyDecider } from '../../shared/decide/decider.ts';
import { StateCache } from '../../shared/decide/state-cache.ts';
import { writeBatch, type WriteDeps, type WriteOutcome } from '../../shared/decide/write-batch.ts';
import { jobDecider } from '../../shared/job/index.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import { jobSetDecider } from '../../shared/jobset/index.ts';
import { lambdaHandler, logger, METRIC, metrics } from '../commons/powertools.ts';
import type { TimerScheduler } from '../../shared/ports.ts';
import { recordDecisionMetrics } from './decision-metrics.ts';
import { decodedSlices, type StreamGroup } from './writer/stream-records.ts';
import { forEachBounded } from './writer/bounded.ts';

export interface WriterHandlerDeps extends Omit<WriteDeps, 'cache'> {
  readonly config: FoldConfig;
  readonly rejections: RejectionSink;
  readonly timers: TimerScheduler;
  /** Warm states across invocations (default: one per handler, so one per Lambda container). */
  readonly cache?: StateCache;
  /** Logs written at once (default 8); one log's records are always written in order, at once. */
  readonly concurrency?: number;
  /** What is decoded and written at once (default SLICE_LIMITS; tests make it small). */
  readonly slice?: { readonly observations: number; readonly decodedBytes: number };
}

/**
 * writer: the single writer of every Job's and JobSet's log. Kinesis delivers a shard's records
 * in order, partitioned by the Job (or JobSet) uid, so all of a log's events pass through one
 * invocation at a time. Per slice of the batch: every Job's observations (and timer Ticks) are
 * written by the one write loop (shared/decide/write-batch.ts: dedupe against the fold, decide
 * at each position, conditioned commit steps) and its wake-up scheduled; then every JobSet's
 * entries — its own events and what its child Jobs reported (their statuses as jobfold decided
 * them, their deletions) — in the order of the records they came from, through the same loop.
 * Records that do not parse go to the rejection sink with their reasons and never fail the
 * batch. A log whose write fails reports its lowest sequence number, so Lambda retries from
 * there (what was written is dropped as known then); a log whose write fails deterministically
 * is parked (stall.ts) and its records go to the rejection sink with the error.
 */
export function createWriterHandler(deps: WriterHandlerDeps) {
  const write = createRecordWriter(deps);
  return lambdaHandler(async (event: KinesisStreamEvent, _context: Context): Promise<KinesisStreamBatchResponse> => {
    const failures = await write(event.Records);
    return { batchItemFailures: failures.map((f) => ({ itemIdentifier: f.startSequenceNumber })) };
  });
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
  const deciders: Record<StreamId['kind'], AnyDecider> = { Job: jobDecider(deps.config), JobSet: jobSetDecider() };
  return async (records) => {
    // A slice at a time (decodedSlices): a log that failed in one slice writes nothing of its
    // records in the later ones (they wait behind the failed one) and its failure names them too.
    const failures = new Map<string, LogWriteFailure>();
    const notFailed = (group: StreamGroup) => {
      const failed = failures.get(streamKey(group.stream));
      if (failed) failures.set(streamKey(group.stream), withRecords(failed, group.sources));
      return !failed;
    };
    for (const { groups, refused } of decodedSlices(records, deps.slice)) {
      for (const { text, errors } of refused) {
        logger.warn('stream record rejected', { errors });
        metrics.addMetric(METRIC.eventsRejected, MetricUnit.Count, 1);
        await deps.rejections.reject(text, errors);
      }
      const todo = groups.filter(notFailed);
      // Jobs first, then the JobSets they feed (shared/decide/fed-logs.ts): a JobSet reads its
      // Jobs' statuses in the order of their records, and never one their logs do not hold.
      const written: { batch: StreamGroup; outcome: WriteOutcome }[] = [];
      await writeGroups(todo.filter((g) => g.stream.kind === 'Job'), failures, shardOf(records), (batch, outcome) => written.push({ batch, outcome }));
      const fed = fedBatches(written, todo.filter((g) => g.stream.kind === 'JobSet')).filter(notFailed);
      await writeGroups(fed, failures, shardOf(records));
    }
    return [...failures.values()];
  };

  async function writeGroups(
    groups: readonly StreamGroup[], failures: Map<string, LogWriteFailure>, shardId: string | undefined,
    written?: (group: StreamGroup, outcome: WriteOutcome) => void,
  ): Promise<void> {
    // Logs of one object (kind, cluster, uid) under several namespaces are written one after the
    // other, in arrival order: the first claims the uid, the others are refused (write-batch.ts).
    const byObject = new Map<string, StreamGroup[]>();
    for (const group of groups) {
      const key = JSON.stringify([group.stream.kind, group.stream.clusterId, group.stream.uid]);
      byObject.set(key, [...(byObject.get(key) ?? []), group]);
    }
    await forEachBounded([...byObject.values()], deps.concurrency ?? 8, async (sameObject) => {
      for (const group of sameObject) await writeOne(group);
    });

    async function writeOne(group: StreamGroup): Promise<void> {
      try {
        const outcome = await writeGroup(deciders[group.stream.kind], writeDeps, deps, group);
        if (outcome) written?.(group, outcome);
      } catch (error) {
        // The shard and sequence numbers are what the writer-failures queue names once Lambda
        // gives up on the batch: the triage and an operator find this error by them (docs/deploy.md).
        const failure = {
          stream: group.stream, startSequenceNumber: lowest(group.sources),
          endSequenceNumber: highest(group.sources), records: group.sources.length,
          sequenceNumbers: group.sources, error,
        };
        logger.error('log write failed; the batch is retried from its first record', {
          stream: failure.stream, shardId, startSequenceNumber: failure.startSequenceNumber,
          endSequenceNumber: failure.endSequenceNumber, records: failure.records, error: error as Error,
        });
        metrics.addMetric(METRIC.writeFailures, MetricUnit.Count, 1);
        failures.set(streamKey(group.stream), failure);
      }
    }
  }
}

/** A failure that also names `more` of its log's records (not attempted: they wait behind it). */
function withRecords(failure: LogWriteFailure, more: readonly string[]): LogWriteFailure {
  const sequenceNumbers = [...failure.sequenceNumbers, ...more];
  return { ...failure, sequenceNumbers, records: sequenceNumbers.length, endSequenceNumber: highest(sequenceNumbers) };
}

async function writeGroup(decider: AnyDecider, writeDeps: WriteDeps, deps: WriterHandlerDeps, group: StreamGroup): Promise<WriteOutcome | undefined> {
  const { stream } = group;
  const outcome = await writeBatch(decider, writeDeps, stream, group.entries.map(entryObservation));
  recordDecisionMetrics(outcome, deps.clock());
  if (outcome.stalled) {
    // Parked: nothing of the batch is logged. Keep its records, with the reason, where an
    // operator finds them; the next delivery of the log's events tries it again.
    const errors = [{ path: '', message: `the ${stream.kind} is stalled, records not logged: ${outcome.stalled.error}` }];
    for (const text of group.texts) await deps.rejections.reject(text, errors);
    metrics.addMetric(METRIC.eventsDeadLettered, MetricUnit.Count, group.texts.length);
    return undefined;
  }
  if (outcome.logged > 0) metrics.addMetric(METRIC.eventsIngested, MetricUnit.Count, outcome.logged);
  // Refused (and recorded in the log, ObservationRefused, when the log is the object's): a conflicting
  // duplicate, a uid under another name or namespace.
  for (const { observation, reason, field, message, conflict } of outcome.refused) {
    logger.warn('observation refused', { stream, eventId: (observation as { eventId: string }).eventId, reason, ...conflict });
    metrics.addMetric(reason === 'ConflictingDuplicate' ? METRIC.conflictingDuplicates : METRIC.eventsRejected, MetricUnit.Count, 1);
    await deps.rejections.reject(observation, [{ path: field, message: `${reason}: ${message}` }]);
  }
  if (Object.keys(outcome.dropped).length > 0) logger.debug("events the log already holds, not logged again", { stream, dropped: outcome.dropped });
  if (outcome.wakeAt) await deps.timers.schedule(stream, outcome.wakeAt);
  return outcome;
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
