import { randomUUID } from 'node:crypto';
import type { RecordedEntry } from '../local/sample/trace-recorder.ts';
import { PACKED_DETAIL_TYPE } from '../shared/contract/packed-observations.ts';
import { packedEntries } from './packed-feed.ts';
import { withRealisticPods } from './realistic-pods.ts';

// The per-Job ceiling in AWS (docs/data-model.md, "The per-Job ceiling"): one Job's events are one
// DynamoDB partition key (1,000 WCU/s) and one Kinesis partition key, hence one shard (1,000
// records and 1 MiB per second). So
//
//   perJobCeilingEventsPerSecond = min( 1000 WCU/s ÷ wcuPerPodEvent,
//                                       1000 records/s × observationsPerRecord,
//                                       1 MiB/s ÷ streamBytesPerObservation )
//
// wcuPerPodEvent is measured by the service path; the two stream terms are measured here, on the
// same Job's life as the forwarder would pack it (forwarder/send/pack.ts, its 50 ms window) at
// the rate the ceiling itself claims: packs hold what a window gathers at that rate, so the rate
// is found by iterating to a fixed point (a few rounds). The recorded pods compress better than
// real ones (realistic-pods.ts), so the stream terms are the worse of the Job as recorded and the
// same Job with real-looking pods (random uids, nodes, IPs, start times).

const PARTITION_WCU_PER_SECOND = 1000;
const SHARD_RECORDS_PER_SECOND = 1000;
const SHARD_BYTES_PER_SECOND = 1024 * 1024;

export interface StreamFigures {
  readonly observationsPerRecord: number;
  /** Bytes per observation of the Kinesis records (the EventBridge event as the rule target puts it, plus its partition key). */
  readonly streamBytesPerObservation: number;
}

export interface PerJobCeilingFigures {
  readonly perJobCeilingEventsPerSecond: number;
  readonly perJobCeilingFormula: string;
  readonly perJobCeilingTerms: { readonly tableWcu: number; readonly shardRecords: number; readonly shardBytes: number };
  /** The forwarder's packing of this Job's life at the ceiling's rate: as recorded, and with real-looking pods. */
  readonly packed: StreamFigures & { readonly atEventsPerSecond: number; readonly realisticPods: StreamFigures };
  /** The same events sent one per entry (forwarders without packing): the ceiling they leave. */
  readonly unpacked: StreamFigures & { readonly perJobCeilingEventsPerSecond: number };
}

/** The stream figures of a trace's entries as the bus would put them into Kinesis. */
export function streamFigures(entries: readonly RecordedEntry[]): StreamFigures {
  let observations = 0;
  let bytes = 0;
  for (const entry of entries) {
    const detail = JSON.parse(entry.Detail) as { partitionKey?: string; count?: number };
    observations += entry.DetailType === PACKED_DETAIL_TYPE ? (detail.count ?? 0) : 1;
    bytes += Buffer.byteLength(recordData(entry)) + Buffer.byteLength(detail.partitionKey ?? randomUUID());
  }
  return { observationsPerRecord: round(observations / entries.length), streamBytesPerObservation: round(bytes / observations) };
}

/** The ceiling's three terms, from the measured WCU per pod event and the Job's recorded life. */
export function perJobCeiling(wcuPerPodEvent: number, entries: readonly RecordedEntry[]): PerJobCeilingFigures {
  const tableWcu = PARTITION_WCU_PER_SECOND / wcuPerPodEvent;
  const terms = (s: StreamFigures) => ({
    tableWcu,
    shardRecords: SHARD_RECORDS_PER_SECOND * s.observationsPerRecord,
    shardBytes: SHARD_BYTES_PER_SECOND / s.streamBytesPerObservation,
  });
  const realistic = withRealisticPods(entries);
  const unpacked = worse(streamFigures(entries), streamFigures(realistic));
  const packAt = (rate: number) => {
    const recorded = streamFigures(packedEntries(entries, rate));
    const realisticPods = streamFigures(packedEntries(realistic, rate));
    return { recorded, realisticPods, worst: worse(recorded, realisticPods) };
  };
  let rate = tableWcu;
  let packed = packAt(rate);
  for (let round = 0; round < 5; round++) {
    const next = Math.min(...Object.values(terms(packed.worst)));
    if (Math.abs(next - rate) < 1) break;
    rate = next;
    packed = packAt(rate);
  }
  const t = terms(packed.worst);
  const ceiling = Math.min(t.tableWcu, t.shardRecords, t.shardBytes);
  return {
    perJobCeilingEventsPerSecond: Math.round(ceiling),
    perJobCeilingFormula: `min(${PARTITION_WCU_PER_SECOND} WCU/s / ${round(wcuPerPodEvent)} WCU per pod event = ${Math.round(t.tableWcu)}, `
      + `${SHARD_RECORDS_PER_SECOND} records/s x ${packed.worst.observationsPerRecord} observations per record = ${Math.round(t.shardRecords)}, `
      + `1 MiB/s / ${packed.worst.streamBytesPerObservation} stream bytes per observation = ${Math.round(t.shardBytes)}) pod events/s for one Job; `
      + `packed by the forwarder at ${Math.round(rate)} events/s, stream terms the worse of the pods as recorded and real-looking`,
    perJobCeilingTerms: { tableWcu: Math.round(t.tableWcu), shardRecords: Math.round(t.shardRecords), shardBytes: Math.round(t.shardBytes) },
    packed: { ...packed.recorded, atEventsPerSecond: Math.round(rate), realisticPods: packed.realisticPods },
    unpacked: { ...unpacked, perJobCeilingEventsPerSecond: Math.round(Math.min(...Object.values(terms(unpacked)))) },
  };
}

/** The worse (fewer observations per record, more bytes per observation) of two. */
const worse = (a: StreamFigures, b: StreamFigures): StreamFigures => ({
  observationsPerRecord: Math.min(a.observationsPerRecord, b.observationsPerRecord),
  streamBytesPerObservation: Math.max(a.streamBytesPerObservation, b.streamBytesPerObservation),
});

/** The Kinesis record's data: the event as EventBridge delivers it to the rule's target. */
function recordData(entry: RecordedEntry): string {
  return JSON.stringify({
    version: '0', id: randomUUID(), 'detail-type': entry.DetailType, source: entry.Source, account: '123456789012',
    time: '2026-01-01T00:00:00Z', region: 'us-east-1', resources: [], detail: JSON.parse(entry.Detail) as unknown,
  });
}

const round = (n: number): number => Math.round(n * 100) / 100;
