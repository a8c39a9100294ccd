import { PutEventsCommand, type EventBridgeClient, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { OutboundEvent } from '../../shared/contract/outbound.ts';
import type { Publisher } from '../../shared/ports.ts';

/** PutEvents takes at most 10 entries per call. */
export const MAX_ENTRIES_PER_PUT = 10;
/** …and at most 256 KiB of entries per call, each counted as EventBridge counts it (entryBytes). */
export const MAX_BYTES_PER_PUT = 256 * 1024;
const ATTEMPTS = 5;
const BASE_DELAY_MS = 100;

type Failure = { commandId: string; error: string };

/**
 * Puts outbound events on the bus in calls within PutEvents' limits (10 entries, 256 KiB), in
 * order, and retries the entries PutEvents reports as failed (throttling, internal errors) with
 * jittered exponential backoff. Returns the events still failing after the last attempt; an
 * event too large for any call is one of them, with the reason, and is never sent.
 */
export function eventBridgePublisher(client: Pick<EventBridgeClient, 'send'>, busName: string): Publisher {
  return {
    async publish(events) {
      const failed: Failure[] = [];
      for (const call of putCalls(events.map((event) => ({ event, entry: entryOf(busName, event) })))) {
        failed.push(...('tooLarge' in call ? [call.tooLarge] : await putWithRetries(client, call.batch)));
      }
      return { failed };
    },
  };
}

interface Put {
  readonly event: OutboundEvent;
  readonly entry: PutEventsRequestEntry;
}

/**
 * The calls that put `puts` in order: as many entries as fit 10 and 256 KiB. An entry over
 * 256 KiB alone (jobfold's writer refuses a command detail over 240 KiB, so only a bug makes
 * one) is reported failed instead of failing every call it would join.
 */
function putCalls(puts: readonly Put[]): Array<{ batch: Put[] } | { tooLarge: Failure }> {
  const calls: Array<{ batch: Put[] } | { tooLarge: Failure }> = [];
  let batch: Put[] = [];
  let bytes = 0;
  for (const put of puts) {
    const size = entryBytes(put.entry);
    if (size > MAX_BYTES_PER_PUT) {
      calls.push({ tooLarge: { commandId: put.event.commandId, error: `entry of ${size} bytes: PutEvents takes at most ${MAX_BYTES_PER_PUT} bytes per call` } });
      continue;
    }
    if (batch.length === MAX_ENTRIES_PER_PUT || bytes + size > MAX_BYTES_PER_PUT) {
      calls.push({ batch });
      batch = [];
      bytes = 0;
    }
    batch.push(put);
    bytes += size;
  }
  if (batch.length > 0) calls.push({ batch });
  return calls;
}

function entryOf(busName: string, event: OutboundEvent): PutEventsRequestEntry {
  return { EventBusName: busName, Source: event.source, DetailType: event.detailType, Detail: JSON.stringify(event.detail) };
}

/**
 * An entry's size as EventBridge counts it towards a call's 256 KiB ("Calculating PutEvents
 * event entry size"): Time (14 bytes when set), Source, DetailType, Detail and Resources in UTF-8.
 */
export function entryBytes(entry: PutEventsRequestEntry): number {
  const utf8 = (text: string | undefined) => (text === undefined ? 0 : Buffer.byteLength(text, 'utf8'));
  return (entry.Time === undefined ? 0 : 14) + utf8(entry.Source) + utf8(entry.DetailType) + utf8(entry.Detail)
    + (entry.Resources ?? []).reduce((sum, resource) => sum + utf8(resource), 0);
}

async function putWithRetries(client: Pick<EventBridgeClient, 'send'>, batch: readonly Put[]): Promise<Failure[]> {
  let pending = [...batch];
  let errors = new Map<string, string>();
  for (let attempt = 0; attempt < ATTEMPTS && pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(jitter(BASE_DELAY_MS * 2 ** attempt));
    try {
      const output = await client.send(new PutEventsCommand({ Entries: pending.map((put) => put.entry) }));
      const results = output.Entries ?? [];
      errors = new Map();
      pending = pending.filter(({ event }, i) => {
        const result = results[i];
        if (result && !result.ErrorCode) return false;
        errors.set(event.commandId, `${result?.ErrorCode ?? 'NoResult'}: ${result?.ErrorMessage ?? ''}`);
        return true;
      });
    } catch (error) {
      errors = new Map(pending.map(({ event }) => [event.commandId, (error as Error).message]));
    }
  }
  return pending.map(({ event }) => ({ commandId: event.commandId, error: errors.get(event.commandId) ?? 'unknown' }));
}

const jitter = (ms: number) => ms / 2 + Math.random() * (ms / 2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
