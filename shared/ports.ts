import type { CheckPage, EvidencePage, PagedCall, WireProposal } from './advise/walk.ts';
import type { OutboundEvent } from './contract/outbound.ts';
import type { InboundError } from './contract/parse-inbound.ts';
import type { ParkedEntry, ParkedMessage, StreamRecord, TriageMessage } from './contract/dead-letters.ts';
import type { SelectionText } from './fleet/selection.ts';
import type { WatchEvent } from './k8s/watch-event.ts';
import type { StreamId } from './log/event-store.ts';

// The side effects the service needs besides the store (whose ports are shared/log/'s:
// event-store.ts, pod-archive.ts, change-feed.ts), as ports: the AWS adapters implement them in
// functions/aws, the local runtime in local/, the tests with recording fakes; what they carry is
// plain data declared in the room it belongs to. The one dependency of the triage that is AWS
// plumbing, the writer's own handler over aws-lambda's Kinesis records (RecordWriter), is not a
// port and stays in functions/triage/failed-batch.ts; forwarder/, the program run in the
// cluster, keeps its own (its watch sink takes @kubernetes/client-node's objects).
// test/unit/architecture/layers.spec.ts checks that no port is declared elsewhere.

// The bus, refusals and timers of the write path.

/** Puts outbound events on the bus; returns those it could not put, with the reason. */
export interface Publisher {
  publish(events: readonly OutboundEvent[]): Promise<{ failed: ReadonlyArray<{ commandId: string; error: string }> }>;
}

/** Where refused inbound events go, with their reasons (a dead-letter destination). */
export interface RejectionSink {
  reject(event: unknown, errors: readonly InboundError[]): Promise<void>;
}

/** Wakes a log up at a time (a deadline, a backoff): a timer record into the ingest stream, a Tick in the log. */
export interface TimerScheduler {
  schedule(stream: StreamId, at: string): Promise<void>;
}

// The ingest stream and the dead letters, as the triage (functions/triage/) and
// `jobfold admin redrive` use them.

/** PutRecord into the ingest stream (functions/aws/kinesis-record-putter.ts; LocalStream.put locally). */
export interface RecordPutter {
  put(partitionKey: string, data: string): Promise<void>;
}

/** GetShardIterator AT_SEQUENCE_NUMBER + GetRecords up to the end (functions/aws/kinesis-range-reader.ts). */
export interface ShardRangeReader {
  /**
   * The records of `shardId` from `start` to `end`, both included, in order. `complete` is false
   * when the stream no longer holds the start of the range (its retention passed).
   */
  read(shardId: string, start: string, end: string): Promise<{ readonly records: readonly StreamRecord[]; readonly complete: boolean }>;
}

/** Where parked entries go, with their error (functions/aws/sqs-parked-sink.ts; a list locally). */
export interface ParkedSink {
  park(entry: ParkedEntry): Promise<void>;
}

/**
 * Sends a message back to its queue for a later attempt, carrying the error of this one
 * (functions/aws/sqs-requeue.ts): so a message waiting in a triaged queue says why it failed.
 */
export interface TriageRequeue {
  requeue(message: TriageMessage, error: string, sourceArn: string): Promise<void>;
}

/** The parked queue: received messages stay invisible to others until deleted or released. */
export interface ParkedQueue {
  /** Up to 10 messages not received yet in this run; none when the queue has no more. */
  receive(): Promise<readonly ParkedMessage[]>;
  delete(message: ParkedMessage): Promise<void>;
  /** Visible again at once (left for the operator, or for a later run). */
  release(message: ParkedMessage): Promise<void>;
}

// The read side.

/** Where a watch's events go (functions/kube/watch.ts): a streamed response locally, a buffered one in AWS. */
export interface WatchSink {
  /**
   * Sends one event; false when the response can take no more (the watch then ends).
   * `initial`: one of the events sent before the first change (RV "0", sendInitialEvents).
   */
  write(event: WatchEvent, initial?: boolean): boolean;
  /** The watch should end now: the client went away, or a buffered answer has waited enough. */
  readonly closed: boolean;
}

/** The two calls of an advice (shared/advise/walk.ts), over HTTP or anything else. */
export interface AdvicePort {
  evidencePage(body: SelectionText & PagedCall): Promise<EvidencePage>;
  checkPage(body: SelectionText & PagedCall & { readonly proposals: readonly WireProposal[] }): Promise<CheckPage>;
}
