// The dead-letter triage's messages (functions/triage/, docs/deploy.md): what it reads from a
// triaged queue, the records it reads back from the ingest stream, and what it parks with the
// error that put it there. Plain data, so the ports that carry them live in shared/ports.ts.

/** One message of a triaged queue, as the triage reads it. */
export interface TriageMessage {
  readonly body: string;
  /** The triage's attempt: earlier attempts (the TRIAGE_ATTEMPTS attribute of a requeued message) plus this message's receives. */
  readonly receiveCount: number;
  /** EventBridge's dead-letter attributes (ERROR_CODE, ERROR_MESSAGE) on an undelivered event. */
  readonly errorCode?: string;
  readonly errorMessage?: string;
}

/** One record as the ingest stream holds it, read back by the triage. */
export interface StreamRecord {
  readonly sequenceNumber: string;
  readonly partitionKey: string;
  readonly data: Uint8Array;
  readonly approximateArrivalTimestamp?: Date;
}

/** Why an entry is parked, as the ERROR_CODE attribute says it. */
export type ParkedCode =
  /** The writer failed the record's log on every attempt (a store outage that did not pass, a bug). */
  | 'WriteFailed'
  /** The stream no longer holds the range Lambda gave up on (retention passed): the record itself is parked. */
  | 'RangeExpired'
  /** The range could not be read back from the stream on any attempt. */
  | 'ReadFailed'
  /** An event the inbound rule could not deliver, that the triage could neither refuse nor put back. */
  | 'RedriveFailed'
  /** A rejection the bus could not file in the rejected-events queue. */
  | 'RejectionUndelivered'
  /** A message in a triaged queue that is neither an on-failure record nor an event. */
  | 'Unrecognised';

/** What the triage parks: the work it could neither write, refuse nor put back, with its error. */
export interface ParkedEntry {
  readonly code: ParkedCode;
  /** A sentence: what was tried, and why it is parked. */
  readonly reason: string;
  readonly error: { readonly name: string; readonly message: string };
  /** The log (Job or JobSet key) the record was for, when known. */
  readonly job?: string;
  readonly shardId?: string;
  readonly sequenceNumber?: string;
  /** The triage's receive of the message that parked it. */
  readonly receiveCount: number;
  /** The record's data (an event or a timer record), the undelivered event, or the on-failure record. */
  readonly original: string;
}

/** One message of the parked queue, as received. */
export interface ParkedMessage {
  readonly id: string;
  readonly body: string;
}
