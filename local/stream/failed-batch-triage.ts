import { triageFailedBatch, type RecordWriter } from '../../functions/triage/failed-batch.ts';
import { sleep } from '../runtime/backoff.ts';
import type { DeadLetterFiles, KeptRecord } from './dead-letter-files.ts';
import type { StreamFailure } from './shard-consumer.ts';
import type { ShardRangeReader } from '../../shared/ports.ts';
import type { ParkedEntry } from '../../shared/contract/dead-letters.ts';

// The dead-letter triage of the writer's failed batches, in process: what the triage function
// does with the writer-failures queue in AWS (functions/handlers/triage-handler.ts), through the
// same code (triageFailedBatch). A batch the stream gave up on is written once more by the
// writer's code, on each of `maxReceives` attempts `retryMs` × n apart (SQS's visibility timeout
// in AWS); on the last attempt what still fails is parked with its error (GET /local/dead-letters).
// An attempt waits while the database is down (`whenHealthy`): an outage is not the records'
// fault. With `--data` every failed batch is kept on disk until settled (dead-letter-files.ts),
// and `redrive` puts kept records back into the stream: at start, and when the database is back.

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

export interface TriagePorts {
  readonly write: RecordWriter;
  /** Resolves once the store answers (default: at once). */
  readonly whenHealthy?: () => Promise<void>;
  /** Where failed batches are kept until settled (`--data`); default: in memory only. */
  readonly files?: DeadLetterFiles;
}

export class FailedBatchTriage {
  readonly #ports: TriagePorts;
  readonly #tuning: TriageTuning;
  readonly #parked: ParkedEntry[] = [];
  readonly #triaged: TriagedBatch[] = [];
  /** Kept batches this process is still triaging: not redriven under it. */
  readonly #busyIds = new Set<string>();
  #busy = 0;

  constructor(ports: TriagePorts, tuning: Partial<TriageTuning> = {}) {
    this.#ports = ports;
    this.#tuning = { ...DEFAULT_TRIAGE_TUNING, ...tuning };
  }

  /** Takes a batch the stream gave up on (its on-failure destination); kept on disk before this returns. */
  take(failure: StreamFailure): void {
    this.#busy++;
    const id = this.#ports.files?.keep(failure);
    if (id !== undefined) this.#busyIds.add(id);
    void this.#triage(failure, id).finally(() => {
      this.#busy--;
      if (id !== undefined) this.#busyIds.delete(id);
    });
  }

  async #triage(failure: StreamFailure, id: string | undefined): Promise<void> {
    const { shardId, startSequenceNumber, endSequenceNumber } = failure;
    // The on-failure record Lambda would write, and a reader over what the local stream kept.
    const info = { shardId, startSequenceNumber, endSequenceNumber, batchSize: failure.records.length };
    const text = JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: failure.attempts }, KinesisBatchInfo: info });
    const reader: ShardRangeReader = { read: async () => ({ records: failure.records, complete: true }) };
    const { maxReceives, retryMs } = this.#tuning;
    for (let receive = 1; receive <= maxReceives; receive++) {
      await this.#ports.whenHealthy?.();
      const last = receive === maxReceives;
      const outcome = await triageFailedBatch({ info, text, receiveCount: receive, last }, { reader, write: this.#ports.write });
      if (outcome.outcome === 'written' || last) {
        this.#parked.push(...outcome.parked);
        this.#triaged.push({ ...info, outcome: outcome.outcome === 'written' ? 'written' : 'parked', receives: receive });
        if (outcome.outcome === 'written') {
          if (id !== undefined) this.#ports.files?.settle(id);
        } else {
          if (id !== undefined) this.#ports.files?.park(id, outcome.parked, outcome.error);
          console.error(`local triage: ${outcome.parked.length} records of ${shardId} parked with their error${id === undefined ? '' : ' (kept in the data directory, written again when the database is back)'}: ${outcome.error}`);
        }
        return;
      }
      await sleep(retryMs * receive);
    }
  }

  /**
   * Puts the records of every kept batch back into the stream (`put`), then forgets the batch:
   * at start every one (the process that kept them is gone), later the parked ones. The writer
   * drops what its log already holds. Returns how many records were put back.
   */
  redrive(put: (record: KeptRecord) => void, which: 'all' | 'parked'): number {
    const files = this.#ports.files;
    if (!files) return 0;
    let records = 0;
    for (const kept of files.all()) {
      if (this.#busyIds.has(kept.id) || (which === 'parked' && kept.state !== 'parked')) continue;
      for (const record of kept.records) put(record);
      records += kept.records.length;
      files.settle(kept.id);
    }
    return records;
  }

  /** No batch being triaged. */
  get idle(): boolean {
    return this.#busy === 0;
  }

  /** Records parked with their error, as the parked queue holds them in AWS: kept on disk ones too, until written. */
  parked(): readonly ParkedEntry[] {
    const files = this.#ports.files;
    return files ? files.all().flatMap((kept) => kept.parked) : this.#parked;
  }

  triaged(): readonly TriagedBatch[] {
    return this.#triaged;
  }
}
