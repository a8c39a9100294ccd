import type { BusEvent } from '../bus/local-bus.ts';
import type { LocalStream } from './local-stream.ts';

// The inbound rule's Kinesis target (cdk/constructs/ingest-stream.ts), in process: the event as
// EventBridge delivers it to a target, put with the partition key at `$.detail.partitionKey`, or
// the event's id when the path holds no string (EventBridge's fallback). An event the stream
// refuses (a partition key over 256 characters) is what EventBridge would dead-letter after its
// retries: kept here with the error, never dropped without a word.

/** An event the target could not put into the stream, as the rule's DLQ would keep it. */
export interface UndeliveredEvent {
  readonly event: BusEvent;
  readonly error: string;
}

/** The partition key the rule target takes from an event. */
export function partitionKeyOf(event: BusEvent): string {
  const key = event.detail['partitionKey'];
  return typeof key === 'string' && key !== '' ? key : event.id;
}

export class StreamRuleTarget {
  readonly #stream: LocalStream;
  readonly #undelivered: UndeliveredEvent[] = [];

  constructor(stream: LocalStream) {
    this.#stream = stream;
  }

  deliver(event: BusEvent): void {
    try {
      this.#stream.put(partitionKeyOf(event), JSON.stringify(event));
    } catch (error) {
      const message = (error as Error).message;
      this.#undelivered.push({ event, error: message });
      console.error(`local bus: event ${event.id} could not be put into the ingest stream, kept as undelivered: ${message}`);
    }
  }

  undelivered(): readonly UndeliveredEvent[] {
    return this.#undelivered;
  }
}
