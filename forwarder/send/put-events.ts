import { PutEventsCommand, type EventBridgeClient, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { OutgoingEvent } from '../observation.ts';
import { backoffDelayMs, sleep, type BackoffPolicy } from './backoff.ts';

/** A call that has not answered by then counts as failed (it may still have been delivered). */
const REQUEST_TIMEOUT_MS = 15_000;

/** Per-entry error codes that no retry can fix: the entry itself is wrong. */
const PERMANENT_ERROR_CODES = new Set(['InvalidArgument', 'MalformedDetail', 'ValidationException']);

export interface RetryPolicy extends BackoffPolicy {
  /** Calls per batch before the failure counts as persistent (the first call included). */
  readonly maxAttempts: number;
}

export interface Rejection {
  readonly event: OutgoingEvent;
  readonly code: string;
  readonly message: string;
}

/** What became of one batch: every event is in exactly one of the three lists, in order. */
export interface SendOutcome {
  readonly sent: readonly OutgoingEvent[];
  readonly rejected: readonly Rejection[];
  /** Still failing after every attempt (throttled, errors, retryable entry failures). */
  readonly failed: readonly OutgoingEvent[];
  readonly lastError?: string;
}

export interface BatchSenderOptions {
  readonly client: EventBridgeClient;
  readonly eventBusName: string;
  readonly policy: RetryPolicy;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type BatchSender = (batch: readonly OutgoingEvent[], signal?: AbortSignal) => Promise<SendOutcome>;

/**
 * A sender of one PutEvents batch (already within the limits of batching.ts). Throttling,
 * errors and retryable failed entries are retried with jittered backoff, resending only the
 * entries that failed. The SDK's own retries are off (maxAttempts 1) so this is the one
 * place that decides.
 */
export function createBatchSender(options: BatchSenderOptions): BatchSender {
  const { client, eventBusName, policy, metrics, log } = options;
  const random = options.random ?? Math.random;
  const wait = options.sleep ?? sleep;
  return async (batch, signal) => {
    const sent: OutgoingEvent[] = [];
    const rejected: Rejection[] = [];
    let pending = [...batch];
    let lastError: string | undefined;
    for (let attempt = 0; attempt < policy.maxAttempts && pending.length > 0; attempt++) {
      if (attempt > 0) {
        metrics.inc('forwarder_put_events_retries_total');
        await wait(backoffDelayMs(attempt - 1, policy, random), signal);
        if (signal?.aborted) break;
      }
      try {
        const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
        const output = await client.send(new PutEventsCommand({ Entries: pending.map((e) => toEntry(e, eventBusName)) }), { abortSignal });
        const retry: OutgoingEvent[] = [];
        pending.forEach((event, i) => {
          const result = output.Entries?.[i];
          if (result?.ErrorCode === undefined && result?.EventId !== undefined) return void sent.push(event);
          const code = result?.ErrorCode ?? 'MissingEntryResult';
          metrics.inc('forwarder_put_events_failed_entries_total', { code });
          if (PERMANENT_ERROR_CODES.has(code)) rejected.push({ event, code, message: result?.ErrorMessage ?? '' });
          else retry.push(event);
          lastError = `${code}: ${result?.ErrorMessage ?? ''}`;
        });
        metrics.inc('forwarder_put_events_requests_total', { outcome: retry.length + rejected.length > 0 ? 'partial' : 'ok' });
        pending = retry;
      } catch (error) {
        metrics.inc('forwarder_put_events_requests_total', { outcome: 'error' });
        lastError = `${(error as Error).name}: ${(error as Error).message}`;
        log.warn('PutEvents failed', { attempt, entries: pending.length, error });
      }
    }
    for (const event of sent) {
      metrics.inc('forwarder_events_sent_total');
      if (!event.packed) continue;
      metrics.inc('forwarder_packs_sent_total');
      metrics.inc('forwarder_packed_observations_total', {}, event.packed.length);
    }
    return { sent, rejected, failed: pending, ...(lastError === undefined ? {} : { lastError }) };
  };
}

function toEntry(event: OutgoingEvent, eventBusName: string): PutEventsRequestEntry {
  return {
    EventBusName: eventBusName,
    Source: event.source,
    DetailType: event.detailType,
    Detail: event.detail,
    Time: new Date(event.time),
  };
}
