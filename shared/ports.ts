import type { StreamId } from './log/event-store.ts';
import type { OutboundEvent } from './contract/outbound.ts';
import type { InboundError } from './contract/parse-inbound.ts';

// The side effects the application needs besides the store (shared/log/event-store.ts and
// pod-archive.ts), as ports: the AWS adapters implement them in functions/aws, the local
// runtime in local/, the tests with recording fakes.

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
