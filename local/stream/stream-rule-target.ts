import { ruleTargetPartitionKey } from '../../shared/contract/partition-key.ts';
import type { RejectionSink } from '../../shared/ports.ts';
import { triageEvent } from '../../functions/triage/triage-event.ts';
import type { BusEvent } from '../bus/local-bus.ts';
import type { LocalStream } from './local-stream.ts';

// The inbound rule's Kinesis target (cdk/constructs/ingest-stream.ts), in process: the event as
// EventBridge delivers it to a target, put with the partition key at `$.detail.partitionKey`, or
// the event's id when the path holds no string (EventBridge's fallback). An event the stream
// refuses (a partition key over 256 characters) is what EventBridge dead-letters; in AWS the
// dead-letter triage takes it from there, and here the same code does (triage-event.ts): refused
// with the writer's reasons (GET /local/rejected), or put again. Only what that cannot settle is
// kept as undelivered, with the error (GET /local/dead-letters), never dropped without a word.

/** An event the target could neither put into the stream nor refuse, as the triage parks it. */
export interface UndeliveredEvent {
  readonly event: BusEvent;
  readonly error: string;
}

/** The partition key the rule target takes from an event. */
export const partitionKeyOf = (event: BusEvent): string => ruleTargetPartitionKey(event);

export class StreamRuleTarget {
  readonly #stream: LocalStream;
  readonly #rejections: RejectionSink;
  readonly #undelivered: UndeliveredEvent[] = [];
  #triaging = 0;

  constructor(stream: LocalStream, rejections: RejectionSink) {
    this.#stream = stream;
    this.#rejections = rejections;
  }

  deliver(event: BusEvent): void {
    try {
      this.#stream.put(partitionKeyOf(event), JSON.stringify(event));
    } catch (error) {
      this.#triaging++;
      void this.#triage(event, (error as Error).message).finally(() => this.#triaging--);
    }
  }

  async #triage(event: BusEvent, deliveryError: string): Promise<void> {
    const stream = { put: async (key: string, data: string) => void this.#stream.put(key, data) };
    const result = await triageEvent(JSON.stringify(event), deliveryError, { rejections: this.#rejections, stream });
    if (result.outcome === 'refused' || result.outcome === 'redriven') return;
    const error = result.outcome === 'park' ? result.reason : `${deliveryError}; the triage failed too: ${result.error.message}`;
    this.#undelivered.push({ event, error });
    console.error(`local bus: event ${event.id} could not be put into the ingest stream nor refused, kept as undelivered: ${error}`);
  }

  /** No triage under way. */
  get idle(): boolean {
    return this.#triaging === 0;
  }

  undelivered(): readonly UndeliveredEvent[] {
    return this.#undelivered;
  }
}
