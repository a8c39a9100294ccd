import type { KinesisStreamRecord } from 'aws-lambda';
import type { NewEntry } from '../../../shared/log/event-store.ts';
import { streamKey } from '../../../shared/log/stream-key.ts';
import { logBatch, type LogBatch } from '../../../shared/decide/fed-logs.ts';
import { parseInboundRecord, type InboundRecordResult } from '../../../shared/contract/parse-inbound-record.ts';
import type { InboundError, InboundTarget } from '../../../shared/contract/parse-inbound.ts';
import type { Tick } from '../../../shared/job/index.ts';
import type { JobSetTick } from '../../../shared/jobset/index.ts';
import { TIMER_SOURCE, TimerRecordSchema, type TimerInput } from './timer-record.ts';

// The writer's input, per Kinesis record: base64 of JSON that is either a cluster event exactly
// as EventBridge delivers it to a target (a single event, or a `Pod Observations` pack, which is
// unpacked here into its observations, in order), or a timer record (timer-record.ts). Records
// are grouped by the log they go to, in arrival order; one log's records are written together.

/**
 * A record that names no log, or one observation of a pack refused alone: it goes to the
 * rejection sink with the reasons (a pack's observation as the event it would have been alone).
 */
export interface RefusedRecord {
  readonly text: string;
  readonly errors: readonly InboundError[];
}

/** The records of one batch that go to one log, in arrival order (`sources`: their sequence numbers). */
export type StreamGroup = LogBatch;

export interface DecodedBatch {
  readonly groups: StreamGroup[];
  readonly refused: RefusedRecord[];
}

/**
 * What the writer holds decoded at once. A batch of packs can hold far more observations than
 * records (Lambda hands up to 6 MB of records; packs compress pod JSON ~15-60:1), so it is
 * decoded and written a slice at a time, in record order, each slice within both bounds (plus
 * at most one record: a pack is at most 1,000 observations, 2 MiB).
 */
export const SLICE_LIMITS = { observations: 20_000, decodedBytes: 64 * 1024 * 1024 } as const;

/** Decodes and groups a batch; a record that does not parse is refused, never thrown. */
export function groupRecords(records: readonly KinesisStreamRecord[]): DecodedBatch {
  const [all] = [...decodedSlices(records, { observations: Infinity, decodedBytes: Infinity })];
  return all ?? { groups: [], refused: [] };
}

/** The batch decoded and grouped a slice at a time, in record order (see SLICE_LIMITS). */
export function* decodedSlices(records: readonly KinesisStreamRecord[], limits: { readonly observations: number; readonly decodedBytes: number } = SLICE_LIMITS): Generator<DecodedBatch> {
  let groups = new Map<string, StreamGroup>();
  let refused: RefusedRecord[] = [];
  let observations = 0;
  let decodedBytes = 0;
  let position = 0;
  for (const record of records) {
    if (observations >= limits.observations || decodedBytes >= limits.decodedBytes) {
      yield { groups: [...groups.values()], refused };
      [groups, refused, observations, decodedBytes] = [new Map(), [], 0, 0];
    }
    position += 1;
    const text = Buffer.from(record.kinesis.data, 'base64').toString('utf8');
    const parsed = parseRecord(text);
    decodedBytes += parsed.ok && parsed.decodedBytes !== undefined ? parsed.decodedBytes : text.length;
    if (!parsed.ok) {
      refused.push({ text, errors: parsed.errors });
      continue;
    }
    observations += parsed.primary.length;
    for (const { event, errors } of parsed.refused) refused.push({ text: JSON.stringify(event), errors });
    const { primary, related } = parsed;
    const first = primary[0];
    if (!first) continue;
    // A Job's observations keep their arrival beside their observedAt (JobSet logs have their own format).
    const arrivedAt = arrivalOf(record);
    const stamped = ({ stream, entry }: InboundTarget) => (stream.kind === 'Job' && arrivedAt !== undefined ? arrived(entry, arrivedAt) : entry);
    const groupOf = (stream: StreamGroup['stream']): StreamGroup => {
      const key = streamKey(stream);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = logBatch(stream)));
      if (group.sources.at(-1) !== record.kinesis.sequenceNumber) {
        group.sources.push(record.kinesis.sequenceNumber);
        group.texts.push(text);
      }
      return group;
    };
    const group = groupOf(first.stream);
    group.entries.push(...primary.map(stamped));
    group.positions.push(...primary.map(() => position));
    for (const target of related) {
      // Another Job's log (the Job that created a pod another Job adopted) is written in this
      // round, in record order with its own records; a JobSet's is fed in the second (fed-logs.ts).
      if (target.stream.kind !== 'Job') {
        group.related.push({ ...target, position });
        continue;
      }
      const other = groupOf(target.stream);
      other.entries.push(stamped(target));
      other.positions.push(position);
    }
  }
  if (groups.size > 0 || refused.length > 0) yield { groups: [...groups.values()], refused };
}

/**
 * When the platform received the record (Kinesis's approximate arrival), the clock a Job's log
 * keeps beside each observation's own observedAt (shared/job/cluster-clock.ts). Zero: unknown.
 */
function arrivalOf(record: KinesisStreamRecord): string | undefined {
  const seconds = record.kinesis.approximateArrivalTimestamp;
  return typeof seconds === 'number' && seconds > 0 ? new Date(Math.round(seconds * 1000)).toISOString() : undefined;
}

/** A Job log's entry with its arrival time. */
function arrived(entry: NewEntry, arrivedAt: string): NewEntry {
  return { ...entry, body: { ...(entry.body as Record<string, unknown>), arrivedAt } };
}

function parseRecord(text: string): InboundRecordResult {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return { ok: false, errors: [{ path: '', message: 'the record is not JSON' }] };
  }
  if ((event as { source?: unknown } | null)?.source !== TIMER_SOURCE) return parseInboundRecord(event);
  const timer = TimerRecordSchema.safeParse(event);
  if (!timer.success) {
    return { ok: false, errors: timer.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  }
  const { stream, at } = timer.data.detail;
  const tick = tickOf(stream, at);
  return { ok: true, primary: [{ stream, entry: { eventId: tickEventId(at), type: tick.type, observedAt: at, body: tick } }], related: [], refused: [] };
}

const tickEventId = (at: string): string => `tick/${at}`;

/**
 * A timer fired: a Tick observed at the due time, named by it (a timer firing twice is one Tick),
 * in the envelope of the log it goes to (a Job's observations carry `observedAt`, a JobSet's `at`).
 */
export function tickOf(stream: TimerInput['stream'], at: string): Tick | JobSetTick {
  const eventId = tickEventId(at);
  if (stream.kind === 'JobSet') return { type: 'Tick', eventId, at };
  return { type: 'Tick', eventId, clusterId: stream.clusterId, observedAt: at };
}
