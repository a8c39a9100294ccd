import { triageFailedBatch, type RecordWriter, type ShardRangeReader } from '../../functions/triage/failed-batch.ts';
import type { ParkedEntry } from '../../functions/triage/parked-entry.ts';
import { sleep } from '../runtime/backoff.ts';
import type { StreamFailure } from './shard-consumer.ts';

// The dead-letter triage of the writer's failed batches, in process: what the triage function
// does with the writer-failures queue in AWS (functions/handlers/triage-handler.ts), through the
// same code (triageFailedBatch). A batch the stream gave up on is written once more by the
// writer's code, on each of `maxReceives` attempts `retryMs` × n apart (SQS's visibility timeout
// in AWS); on the last attempt what still fails is parked with its error (GET /local/dead-letters).

export interface TriageTuning {
  readonly maxReceives: number;
  readonly retryMs: number;
}

export const DEFAULT_TRIAGE_TUNING: TriageTuning = { maxReceives: 5, retryMs: 200 };

/** What became of a failed batch. */
export interface TriagedBatch {
  readonly shardId: string;
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
  readonly outcome: 'written' | 'parked';
  readonly receives: number;
}

export class FailedBatchTriage {
  readonly #write: RecordWriter;
  readonly #tuning: TriageTuning;
  readonly #parked: ParkedEntry[] = [];
  readonly #triaged: TriagedBatch[] = [];
  #busy = 0;

  constructor(write: RecordWriter, tuning: Partial<TriageTuning> = {}) {
    this.#write = write;
    this.#tuning = { ...DEFAULT_TRIAGE_TUNING, ...tuning };
  }

  /** Takes a batch the stream gave up on (its on-failure destination). */
  take(failure: StreamFailure): void {
    this.#busy++;
    void this.#triage(failure).finally(() => this.#busy--);
  }

  async #triage(failure: StreamFailure): Promise<void> {
    const { shardId, startSequenceNumber, endSequenceNumber } = failure;
    // The on-failure record Lambda would write, and a reader over what the local stream kept.
    const info = { shardId, startSequenceNumber, endSequenceNumber, batchSize: failure.records.length };
    const text = JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: failure.attempts }, KinesisBatchInfo: info });
    const reader: ShardRangeReader = { read: async () => ({ records: failure.records, complete: true }) };
    const { maxReceives, retryMs } = this.#tuning;
    for (let receive = 1; receive <= maxReceives; receive++) {
      const last = receive === maxReceives;
      const outcome = await triageFailedBatch({ info, text, receiveCount: receive, last }, { reader, write: this.#write });
      this.#parked.push(...outcome.parked);
      if (outcome.outcome === 'written' || last) {
        this.#triaged.push({ ...info, outcome: outcome.outcome === 'written' ? 'written' : 'parked', receives: receive });
        if (outcome.outcome !== 'written') console.error(`local triage: ${outcome.parked.length} records of ${shardId} parked with their error: ${outcome.error}`);
        return;
      }
      await sleep(retryMs * receive);
    }
  }

  /** No batch being triaged. */
  get idle(): boolean {
    return this.#busy === 0;
  }

  /** Records parked with their error, as the parked queue holds them in AWS. */
  parked(): readonly ParkedEntry[] {
    return this.#parked;
  }

  triaged(): readonly TriagedBatch[] {
    return this.#triaged;
  }
}
