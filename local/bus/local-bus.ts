import { randomUUID } from 'node:crypto';
import { checkEntry, requestEntries, type ValidEntry } from './put-events-request.ts';
import type { EventBridgeEvent } from 'aws-lambda';

// The local event bus: PutEvents in, EventBridge events out to whichever rules match, as an
// event bus delivers them to its targets. One bus, whatever EventBusName an entry names.

/** An event as EventBridge delivers it to a rule's target. */
export type BusEvent = EventBridgeEvent<string, Record<string, unknown>>;

/** A rule: an event pattern (as a predicate) and its target. */
export interface BusRule {
  readonly name: string;
  readonly matches: (event: BusEvent) => boolean;
  readonly deliver: (event: BusEvent) => void;
}

export interface PutEventsResultEntry {
  readonly EventId?: string;
  readonly ErrorCode?: string;
  readonly ErrorMessage?: string;
}

export interface PutEventsOutput {
  readonly FailedEntryCount: number;
  readonly Entries: readonly PutEventsResultEntry[];
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export class LocalBus {
  readonly #rules: BusRule[] = [];
  readonly #listeners = new Set<(event: BusEvent, acceptedAtMs: number) => void>();

  addRule(rule: BusRule): void {
    this.#rules.push(rule);
  }

  /** Calls `listener` with every accepted event (after its rules); returns the unsubscribe. */
  subscribe(listener: (event: BusEvent, acceptedAtMs: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * PutEvents: validates the request (throws PutEventsRequestError when refused as a whole) and
   * each entry, delivers the valid ones, and reports per entry, in request order.
   */
  putEvents(request: unknown): PutEventsOutput {
    const acceptedAtMs = Date.now();
    const results = requestEntries(request).map((raw): PutEventsResultEntry => {
      const checked = checkEntry(raw);
      if (!checked.ok) return { ErrorCode: checked.errorCode, ErrorMessage: checked.errorMessage };
      const event = toBusEvent(checked.entry, acceptedAtMs);
      this.#deliver(event, acceptedAtMs);
      return { EventId: event.id };
    });
    return { FailedEntryCount: results.filter((r) => r.ErrorCode !== undefined).length, Entries: results };
  }

  #deliver(event: BusEvent, acceptedAtMs: number): void {
    // A rule's target failing must not fail the put: EventBridge retries targets on its own.
    for (const rule of this.#rules) {
      if (!rule.matches(event)) continue;
      try {
        rule.deliver(event);
      } catch (error) {
        console.error(`local bus: rule ${rule.name} could not deliver event ${event.id}: ${(error as Error).message}`);
      }
    }
    for (const listener of this.#listeners) listener(event, acceptedAtMs);
  }
}

/** EventBridge stamps events with second precision: the entry's Time, else the time of the put. */
function toBusEvent(entry: ValidEntry, acceptedAtMs: number): BusEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': entry.detailType,
    source: entry.source,
    account: LOCAL_ACCOUNT,
    time: new Date(entry.time?.getTime() ?? acceptedAtMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: LOCAL_REGION,
    resources: [...entry.resources],
    detail: entry.detail,
  };
}
