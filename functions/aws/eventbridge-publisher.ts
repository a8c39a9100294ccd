import { PutEventsCommand, type EventBridgeClient, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { OutboundEvent } from '../../shared/contract/outbound.ts';
import type { Publisher } from '../../shared/ports.ts';

/** PutEvents takes at most 10 entries per call. */
export const MAX_ENTRIES_PER_PUT = 10;
const ATTEMPTS = 5;
const BASE_DELAY_MS = 100;

/**
 * Puts outbound events on the bus in calls of at most 10 entries, and retries the entries
 * PutEvents reports as failed (throttling, internal errors) with jittered exponential backoff.
 * Returns the events still failing after the last attempt.
 */
export function eventBridgePublisher(client: Pick<EventBridgeClient, 'send'>, busName: string): Publisher {
  return {
    async publish(events) {
      const failed: Array<{ commandId: string; error: string }> = [];
      for (let i = 0; i < events.length; i += MAX_ENTRIES_PER_PUT) {
        failed.push(...(await putWithRetries(client, busName, events.slice(i, i + MAX_ENTRIES_PER_PUT))));
      }
      return { failed };
    },
  };
}

async function putWithRetries(
  client: Pick<EventBridgeClient, 'send'>,
  busName: string,
  batch: readonly OutboundEvent[],
): Promise<Array<{ commandId: string; error: string }>> {
  let pending = [...batch];
  let errors = new Map<string, string>();
  for (let attempt = 0; attempt < ATTEMPTS && pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(jitter(BASE_DELAY_MS * 2 ** attempt));
    const entries: PutEventsRequestEntry[] = pending.map((event) => ({
      EventBusName: busName,
      Source: event.source,
      DetailType: event.detailType,
      Detail: JSON.stringify(event.detail),
    }));
    try {
      const output = await client.send(new PutEventsCommand({ Entries: entries }));
      const results = output.Entries ?? [];
      errors = new Map();
      pending = pending.filter((event, i) => {
        const result = results[i];
        if (result && !result.ErrorCode) return false;
        errors.set(event.commandId, `${result?.ErrorCode ?? 'NoResult'}: ${result?.ErrorMessage ?? ''}`);
        return true;
      });
    } catch (error) {
      errors = new Map(pending.map((e) => [e.commandId, (error as Error).message]));
    }
  }
  return pending.map((e) => ({ commandId: e.commandId, error: errors.get(e.commandId) ?? 'unknown' }));
}

const jitter = (ms: number) => ms / 2 + Math.random() * (ms / 2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
