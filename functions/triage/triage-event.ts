import type { RecordPutter, RejectionSink } from '../../shared/ports.ts';
import { triageUndeliveredEvent } from './undelivered-event.ts';

export interface EventTriagePorts {
  readonly rejections: RejectionSink;
  readonly stream: RecordPutter;
}

/**
 * What became of an undelivered event: refused (in the rejection sink with its reasons), put
 * into the stream again, to be parked at once (`park`: retrying cannot help), or `failed`
 * (refusing or redriving threw: the caller retries, and parks on the last attempt).
 */
export type EventTriageOutcome =
  | { readonly outcome: 'refused'; readonly reason: string }
  | { readonly outcome: 'redriven'; readonly partitionKey: string }
  | { readonly outcome: 'park'; readonly reason: string }
  | { readonly outcome: 'failed'; readonly error: Error };

/** Carries out triageUndeliveredEvent's decision for `text`, which failed with `deliveryError`. Never throws. */
export async function triageEvent(text: string, deliveryError: string, ports: EventTriagePorts): Promise<EventTriageOutcome> {
  const decision = triageUndeliveredEvent(text, deliveryError);
  try {
    switch (decision.action) {
      case 'refuse':
        await ports.rejections.reject(text, decision.errors);
        return { outcome: 'refused', reason: decision.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ') };
      case 'redrive':
        await ports.stream.put(decision.partitionKey, decision.data);
        return { outcome: 'redriven', partitionKey: decision.partitionKey };
      case 'park':
        return { outcome: 'park', reason: decision.reason };
    }
  } catch (error) {
    return { outcome: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
  }
}
