import type { OutboundEvent } from '../../shared/contract/outbound.ts';
import type { InboundError } from '../../shared/contract/parse-inbound.ts';
import type { StreamId } from '../../shared/app/event-store.ts';

// The side effects handlers need besides the event store, as ports: the AWS adapters live in
// functions/adapters, the local runtime supplies its own (local/).

/** Puts outbound events on the bus; returns the ids of the events it could not put. */
export interface EventPublisher {
  publish(events: readonly OutboundEvent[]): Promise<{ failed: ReadonlyArray<{ commandId: string; error: string }> }>;
}

/** Where refused inbound events go, with their reasons (a dead-letter destination). */
export interface RejectedEventSink {
  reject(event: unknown, errors: readonly InboundError[]): Promise<void>;
}

/** Wakes a Job up at a time (deadline, backoff) by appending a Tick to its log. */
export interface TimerScheduler {
  schedule(stream: StreamId, at: string): Promise<void>;
}
